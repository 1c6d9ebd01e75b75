"""Tables of text cells: what score writes as CSV and the report reads back.

Every cell is already fixed-place text (``n/a`` for an undefined ratio), so a table needs no type
inference, only a header, rows, a stable sort and the standard ``csv`` module's quoting. pandas did
this before; importing it was a third of a second per stage for no arithmetic at all.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TextTable:
    """A header and rows of text cells (every row as long as the header)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    @classmethod
    def from_records(cls, records: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> TextTable:
        """One row per record, its cells in ``columns`` order (the records hold text already)."""
        return cls(tuple(columns), tuple(tuple(str(r[c]) for c in columns) for r in records))

    @property
    def empty(self) -> bool:
        return not self.rows or not self.columns

    def __getitem__(self, name: str) -> list[str]:
        """One column's cells, top to bottom."""
        index = self.columns.index(name)
        return [row[index] for row in self.rows]

    def records(self) -> list[dict[str, str]]:
        """The rows as column -> cell mappings."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]

    def sorted_by(self, names: Sequence[str]) -> TextTable:
        """Rows sorted by these columns' text, ties kept in their order (a stable sort)."""
        indices = [self.columns.index(n) for n in names]
        return TextTable(self.columns, tuple(sorted(self.rows, key=lambda r: [r[i] for i in indices])))

    def to_csv(self) -> str:
        """Header then rows, minimal quoting, ``\\n`` line ends."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(self.columns)
        writer.writerows(self.rows)
        return buffer.getvalue()


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
