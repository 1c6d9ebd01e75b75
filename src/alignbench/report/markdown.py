"""Markdown table rendering from a pandas frame of already-formatted text cells."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd


def table(frame: pd.DataFrame, columns: Sequence[str] | None = None) -> str:
    """A GitHub markdown table; cells are printed as they are (the CSVs carry fixed-place text)."""
    cols = list(columns or frame.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for _, row in frame[cols].iterrows():
        lines.append("| " + " | ".join(str(row[c]).replace("|", "\\|") for c in cols) + " |")
    return "\n".join(lines)


def rows_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    return table(pd.DataFrame([[str(c) for c in r] for r in rows], columns=list(header)))
