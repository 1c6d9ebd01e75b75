"""The blind second pass in REPORT.md: the draw rule, its bars, agreement per stratum and kind, rulings,
and the three hardest disagreements (quoted from their data file, see :mod:`alignbench.labels.hardest`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from alignbench.labels.agree import AGREEMENT_KINDS
from alignbench.labels.stratify import SUBSET_FILE
from alignbench.report.markdown import rows_table
from alignbench.score.ratios import fmt, ratio

KIND_NAMES = {
    "correspondences": "links",
    "moves": "moves",
    "renumbers": "renumbers",
    "splits_merges": "splits/merges",
}
EXAMPLE_IDS = 2


def _agreement_cell(pooled: Mapping[str, Any]) -> str:
    """``F1 (agreed of a / b)``; ``n/a`` when no pair recorded the kind or neither side has any."""
    if not pooled["pairs"] or not pooled["a"] + pooled["b"]:
        return "n/a"
    f1 = ratio(2 * pooled["agreed"], pooled["a"] + pooled["b"])
    return f"{fmt(f1)} ({pooled['agreed']} of {pooled['a']} / {pooled['b']})"


def _bar_rows(bars: Sequence[Mapping[str, Any]]) -> list[list[object]]:
    return [
        [b["bar"], b["needed"], f"{b['held']} of {b['of']}", "met" if b["met"] else "**missed**"]
        for b in bars
    ]


def _missing_note(strata: Sequence[Mapping[str, Any]]) -> list[str]:
    whole = next((s for s in strata if s["stratum"] == "all"), None)
    if whole is None:
        return []
    notes = [
        f"{whole['kinds'][kind]['missing']} pair(s) have no `{kind}` record"
        for kind in AGREEMENT_KINDS
        if whole["kinds"][kind]["missing"]
    ]
    if not notes:
        return []
    return [
        "Pooled over the pairs that recorded the kind: "
        + "; ".join(notes)
        + " (their `agreement.json` predates that kind), so they count toward no figure in its column; "
        "a stratum with no such record prints n/a.",
        "",
    ]


def _hardest_lines(hardest: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = [f"### The {len(hardest)} hardest disagreements", ""]
    for i, h in enumerate(hardest, start=1):
        ids = h["ids"]
        shown = ", ".join(f"`{x}`" for x in ids[:EXAMPLE_IDS])
        named = f"{len(ids)} ids, e.g. {shown}" if len(ids) > EXAMPLE_IDS else shown
        winner = {"a": "primary", "b": "blind", "neither": "neither reading"}[h["ruling"]]
        lines += [
            f"{i}. **{h['pair']}** ({named}): {h['what']}",
            f"   - Primary (a): {h['primary']}",
            f"   - Blind (b): {h['blind']}",
            f"   - **Ruling {h['ruling']} ({winner}):** {h['why']}",
        ]
    return [*lines, ""]


def _moves_now_lines(now: Mapping[str, Any] | None) -> list[str]:
    """The move agreement re-run under today's move rule (issue #27), beside the frozen records."""
    if not now or not now["pairs"]:
        return []
    total = now["a"] + now["b"]
    f1 = f"{2 * now['agreed'] / total:.4f}" if total else "n/a"
    return [
        f"Moves re-run under today's move rule (a move is a change of place in reading order; issue "
        f"#27), blind labels against the primary labels as they stand now, {now['pairs']} pairs: "
        f"F1 {f1} ({now['agreed']} agreed of {now['a']} / {now['b']}). The table above keeps the frozen "
        "records, made under the old rule and before adjudication; this re-run's primary side is "
        "adjudicated, which can only raise agreement.",
        "",
    ]


def blind_lines(summary: Mapping[str, Any] | None, hardest: Sequence[Mapping[str, Any]] = ()) -> list[str]:
    if not summary:
        return []
    header = ["stratum", "pairs", *(KIND_NAMES[k] for k in AGREEMENT_KINDS), "disagreements"]
    header += ["ruled a", "ruled b", "ruled neither"]
    rows = []
    for s in summary["strata"]:
        rows.append(
            [
                s["stratum"],
                s["pairs"],
                *(_agreement_cell(s["kinds"][k]) for k in AGREEMENT_KINDS),
                f"{s['disagreements']} in {s['pairs_with_disagreements']} pairs",
                *(s["rulings"].get(r, 0) for r in ("a", "b", "neither")),
            ]
        )
    pending = summary["pending"]
    lines = [
        "### Blind second pass: the draw and agreement per stratum",
        "",
        f"The subset (`{SUBSET_FILE}`, version {summary['version']}, seed `{summary['seed']}`, fraction "
        f"{summary['fraction']}) was drawn by a rule written down before any pair of the draw was "
        "blind-labelled (`alignbench.labels.stratify`); `label check` recomputes the draw and fails if "
        "the file disagrees. A pair is *non-trivial* when its primary labels hold a correction, a move, a "
        "split or a merge; *heavy* when `corpus/pairs.yaml` marks it as heavy restructuring. The rule:",
        "",
    ]
    lines += [f"{i}. {step}" for i, step in enumerate(summary["rule"], start=1)]
    lines += [
        "",
        f"{summary['kept']} pairs kept from the earlier draw, {summary['drawn']} drawn"
        + (f"; pending (no agreement yet): {', '.join(pending)}" if pending else "")
        + ". The bars, recomputed from today's primary labels:",
        "",
        rows_table(["bar", "needed", "held", "status"], _bar_rows(summary["bars"])),
        "",
        "Agreement of the blind labeller (b) with the primary labeller (a), from each pair's "
        "`agreement.json`, frozen before adjudication; pooled per stratum as F1 = 2 × agreed / (a + b) "
        "over summed counts, printed as `F1 (agreed of a / b)`. The rulings are the adjudicator's, one "
        "per disagreement (`review.adjudications` in `labels.yaml`): a = primary, b = blind.",
        "",
        rows_table(header, rows),
        "",
        *_missing_note(summary["strata"]),
        *_moves_now_lines(summary.get("moves_now")),
    ]
    if hardest:
        lines += _hardest_lines(hardest)
    return lines
