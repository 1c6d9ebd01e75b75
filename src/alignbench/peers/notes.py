"""The report's note on the peers stage's engines: how they run and by which rules their output becomes
block pairs. Both peer plug-ins point at :data:`PEERS_STAGE_NOTE`, so the report prints it once."""

from __future__ import annotations

from collections.abc import Sequence

from alignbench.peers.rules import DOCXODUS_RULES, OUTPUT_RULES, XMLDIFF_RULES


class PeersStageNote:
    """Printed above the leaderboard when any engine of the peers stage is selected."""

    def lines(self, shown: Sequence[str], absent: Sequence[str]) -> list[str]:
        lines = [
            "Every engine scored by the same scorer on the same pairs, both columns. The peers are "
            'xmldiff 3.x (`Differ(fast_match=True, ratio_mode="accurate")`) and Docxodus (the '
            "`docx-scalpel` wheel), run by the optional, frozen `peers` stage "
            "(`requirements-peers.lock`). A peer is scored only when its outputs cover every pair and were "
            "made from the current documents; a peer short of that is left out whole, never scored on a "
            "subset. A peer's own output becomes block pairs by these rules:",
            "",
        ]
        lines += [f"- {rule}" for rule in (*XMLDIFF_RULES, *DOCXODUS_RULES, *OUTPUT_RULES)]
        lines += [""]
        if absent:
            lines += [
                f"Not shown: {', '.join(absent)} (no current outputs in `results/peers/`; run "
                "`python stages/peers.py` with the peers extra installed).",
                "",
            ]
        return lines


PEERS_STAGE_NOTE = PeersStageNote()
