"""Markdown table rendering from tables of already-formatted text cells.

The score stage writes its tables as CSV whose cells are fixed-place text, so the report reads them
back as text (:mod:`alignbench.score.texttable`: no type inference, nothing to round) and prints every
cell as it is.
"""

from __future__ import annotations

from collections.abc import Sequence

from alignbench.score.texttable import TextTable, read_csv_text

__all__ = ["TextTable", "read_csv_text", "rows_table", "table"]


def table(frame: TextTable, columns: Sequence[str] | None = None) -> str:
    """A GitHub markdown table; cells are printed as they are (the CSVs carry fixed-place text)."""
    cols = list(columns or frame.columns)
    indices = [frame.columns.index(c) for c in cols]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in frame.rows:
        lines.append("| " + " | ".join(row[i].replace("|", "\\|") for i in indices) + " |")
    return "\n".join(lines)


def rows_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    return table(TextTable(tuple(header), tuple(tuple(str(c) for c in r) for r in rows)))
