"""The report reads score's CSV tables as text exactly as pandas (dtype=str, no NA parsing) did."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from alignbench.report.markdown import read_csv_text, rows_table, table

ROOT = Path(__file__).resolve().parent.parent
TABLES = sorted((ROOT / "results" / "tables").glob("*.csv"))


def _pandas_frame(text: str):
    """pandas' reading of a table. Imported here, not at the top: pandas costs every test worker 0.6 s
    to import, and only this module's workers need it."""
    import pandas as pd

    return pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)


@pytest.mark.parametrize("path", TABLES, ids=lambda p: p.name)
def test_committed_tables_read_as_pandas_reads_them(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    frame = _pandas_frame(text)
    read = read_csv_text(text)
    assert list(read.columns) == list(frame.columns)
    assert [list(r) for r in read.rows] == frame.values.tolist()


def test_quoted_cells_blank_lines_and_pipes() -> None:
    read = read_csv_text('a,b\n"x, y","say ""hi"" | ok"\n\n,\n')
    assert read.rows == (("x, y", 'say "hi" | ok'), ("", ""))
    assert table(read) == '| a | b |\n|---|---|\n| x, y | say "hi" \\| ok |\n|  |  |'
    assert rows_table(["n"], [[1], [None]]) == "| n |\n|---|\n| 1 |\n| None |"
    assert read_csv_text("").empty and not read.empty


def test_a_ragged_row_is_an_error_naming_the_table() -> None:
    with pytest.raises(ValueError, match=r"per_plan\.csv: row 3 has 1 cells for 2 columns"):
        read_csv_text("a,b\n1,2\n3\n", "per_plan.csv")


@pytest.mark.parametrize("path", TABLES, ids=lambda p: p.name)
def test_committed_tables_are_written_back_as_pandas_wrote_them(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    frame = _pandas_frame(text)
    assert read_csv_text(text).to_csv() == frame.to_csv(index=False, lineterminator="\n") == text


def test_sorted_by_is_stable_and_orders_by_text() -> None:
    table = read_csv_text("t,p,n\nb,x,1\na,y,2\nb,x,3\na,x,4\n").sorted_by(["t", "p"])
    assert table["n"] == ["4", "2", "1", "3"]
