"""Markdown table rendering from tables of already-formatted text cells.

The score stage writes its tables as CSV whose cells are fixed-place text, so the report reads them
back as text (the standard ``csv`` module: no type inference, nothing to round) and prints every cell
as it is. pandas, which the score stage writes them with, is not needed here: it was a third of the
report stage's time just to import.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TextTable:
    """A header and rows of text cells (every row as long as the header)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    @property
    def empty(self) -> bool:
        return not self.rows or not self.columns

    def column(self, name: str) -> list[str]:
        index = self.columns.index(name)
        return [row[index] for row in self.rows]


def read_csv_text(text: str, where: str = "CSV table") -> TextTable:
    """A CSV text as a :class:`TextTable`: blank lines skipped, every cell kept as written."""
    records = [record for record in csv.reader(io.StringIO(text, newline="")) if record]
    if not records:
        return TextTable((), ())
    header, body = tuple(records[0]), records[1:]
    for number, record in enumerate(body, start=2):
        if len(record) != len(header):
            raise ValueError(f"{where}: row {number} has {len(record)} cells for {len(header)} columns")
    return TextTable(header, tuple(tuple(record) for record in body))


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
