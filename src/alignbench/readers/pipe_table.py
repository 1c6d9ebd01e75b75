"""Pipe tables, one syntax for both formats: GFM pipe tables in Markdown and the same lines in text.

Parsing both from the source lines with this one function is what keeps the twins' tables equal.
Ragged rows are padded with empty cells so that a cell's index is its column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_DELIMITER_CELL = re.compile(r":?-+:?")
_SPLIT = re.compile(r"(?<!\\)\|")


def is_table_line(line: str) -> bool:
    return line.lstrip().startswith("|")


def split_row(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [cell.strip().replace("\\|", "|") for cell in _SPLIT.split(body)]


def parse_pipe_table(lines: Sequence[str]) -> tuple[list[list[str]], bool]:
    """Rows of cell texts (padded to the widest row) and whether the first row is a header."""
    rows = [split_row(line) for line in lines if line.strip()]
    header = len(rows) >= 2 and all(_DELIMITER_CELL.fullmatch(c.replace(" ", "")) for c in rows[1] if c)
    header = header and any(rows[1])
    if header:
        del rows[1]
    width = max((len(r) for r in rows), default=0)
    return [r + [""] * (width - len(r)) for r in rows], header
