"""The outside-corpus set (issue 11), rendered from ``results/outside.json`` (stage ``outside``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from alignbench.report.markdown import rows_table

COLUMNS: tuple[str, ...] = (
    "pair",
    "family",
    "licence",
    "blocks_old",
    "blocks_new",
    "links",
    "moves",
    "renumbers",
    "inserts",
    "deletes",
    "modifies",
    "modified",
    "bullet_renumbers",
    "reader_facts",
)


def outside_lines(summary: Mapping[str, Any] | None) -> list[str]:
    if not summary or not summary.get("pairs"):
        return []
    totals = summary["totals"]
    rows = [[row[c] for c in COLUMNS] for row in summary["pairs"]]
    rows.append(["total", f"{len(summary['families'])} families", "", *(totals[c] for c in COLUMNS[3:])])
    bad = totals["bullet_renumbers"]
    return [
        "## Outside-corpus set",
        "",
        f"{len(summary['pairs'])} real revisions of ordinary documents from {len(summary['families'])} "
        f"families that are not in `corpus/` and that nobody tuned the readers for (`{summary['set']}`, "
        "issue 11), each read and aligned with the default configuration (not `params.yaml`), as "
        "`alignbench compare` would. The counts are what the engine reported, not scores: the set has "
        "facts, not labels. The facts themselves (`tests/outside/*/facts.yaml`, "
        f"{totals['reader_facts']} reader facts and {totals['engine_facts']} engine fact(s)) are asserted "
        "by `tests/test_outside_set.py` in CI. *inserts*/*deletes* count reported changes (one per "
        "inserted or deleted subtree); *modifies* counts changes of kind modify, *modified* every edited "
        "block, the moved and renumbered ones included; *bullet_renumbers* counts renumbers whose label "
        "on either side is a bullet or empty, which must be 0.",
        "",
        rows_table(list(COLUMNS), rows),
        "",
        f"Renumbers of a bullet or an empty label: **{bad}**" + (" (as required)." if bad == 0 else "."),
        "",
    ]
