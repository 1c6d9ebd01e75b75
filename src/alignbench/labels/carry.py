"""What a recompiled or re-imported label file keeps from the file it replaces.

A review (the page's export, a sheet with ``--draft``, a span import) rewrites ``labels.yaml``. It used
to drop every signature and every move verdict of the file it replaced, so a reviewer who only
confirmed rows erased the adjudicator's signature and every ruling on the engine's moves. The evidence
is now kept wherever it still says something true:

- a **signature** attests the whole signed content (:func:`alignbench.labels.sign.content_digest`); it
  is kept when that digest is unchanged, and dropped (named in a warning) when any row, the labeller,
  the reviewers or the adjudications changed. A signature cannot cover half a file.
- a **move verdict** rules on one engine move between two blocks; it is kept unless a row that names
  its source block (on the source side) or its test block (on the test side) changed what it links:
  partner, kind (so the move flag), or split/merge/unscored membership. A new status or note on such a
  row is a review of the row, not a change of what it says, and keeps the verdict.

Only the ``source`` and ``test`` addresses of a verdict are read here, so this holds whatever else a
verdict row is keyed by.
"""

from __future__ import annotations

import json
from typing import Any

from alignbench.labels.io import ROW_SECTIONS
from alignbench.labels.sign import content_digest

# Review state of a row: changing these is not a change of what the row links.
REVIEW_STATE_FIELDS: tuple[str, ...] = ("status", "proposed_by", "note")


def _addresses(row: dict[str, Any], side: str) -> list[str]:
    value = row.get(side)
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def _link(row: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in row.items() if k not in REVIEW_STATE_FIELDS}, sort_keys=True)


def links_by_block(data: dict[str, Any]) -> dict[tuple[str, str], list[str]]:
    """``(side, address)`` -> the links of every row naming that block, sorted (order-free)."""
    found: dict[tuple[str, str], list[str]] = {}
    for section in ROW_SECTIONS:
        for row in data[section]:
            link = f"{section}:{_link(row)}"
            for side in ("source", "test"):
                for address in _addresses(row, side):
                    found.setdefault((side, address), []).append(link)
    return {key: sorted(links) for key, links in found.items()}


def carry_signatures(old: dict[str, Any], new: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """The old signatures that still match ``new``'s signed content, and warnings for the others.

    A file whose move flags were migrated (:mod:`alignbench.labels.migrate`) carries signatures made
    before the migration through its recorded chain; when ``new`` says what ``old`` said, the chain
    is copied onto ``new`` so those signatures stay valid."""
    from alignbench.labels.migrate import carried_digests

    if old.get("migrations") and content_digest(new) == content_digest(old):
        new["migrations"] = old["migrations"]
    valid, _ = carried_digests(new)
    kept = [s for s in old["review"]["signatures"] if s["content_digest"] in valid]
    dropped = [s for s in old["review"]["signatures"] if s["content_digest"] not in valid]
    warnings = []
    if dropped:
        who = ", ".join(f"{s['id']} ({s['role']})" for s in dropped)
        warnings.append(
            f"dropped {len(dropped)} signature(s) by {who}: the signed content changed; sign again"
        )
    return kept, warnings


def carry_verdicts(old: dict[str, Any], new: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """The old move verdicts whose two blocks' rows link the same in ``new``, and warnings for the rest."""
    before, after = links_by_block(old), links_by_block(new)
    kept: list[dict[str, Any]] = []
    dropped: list[dict[str, Any]] = []
    for verdict in old["move_verdicts"]:
        ends = (("source", verdict["source"]), ("test", verdict["test"]))
        same = all(before.get(end, []) == after.get(end, []) for end in ends)
        (kept if same else dropped).append(verdict)
    warnings = []
    if dropped:
        moves = sorted({f"{v['source']} -> {v['test']}" for v in dropped})
        warnings.append(
            f"dropped {len(dropped)} move verdict(s) on {len(moves)} move(s) whose rows changed "
            f"({'; '.join(moves[:5])}{' ...' if len(moves) > 5 else ''}); rule on them again with "
            "`alignbench label verdict`"
        )
    return kept, warnings
