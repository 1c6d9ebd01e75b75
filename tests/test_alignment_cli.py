"""``alignbench compare``: the human summary, the JSON form and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

from alignbench.cli import main
from alignbench.textout import word_diff

FIXTURES = Path(__file__).parent / "alignment_fixtures"
OLD, NEW = str(FIXTURES / "old.md"), str(FIXTURES / "new.md")


def test_human_output_lists_moves_renumbers_inserts_and_word_diffs(capsys):
    assert main(["compare", OLD, NEW, "--backend", "difflib"]) == 1  # they differ, like diff(1)
    out = capsys.readouterr().out
    assert "1 moved, 1 renumbered, 1 inserted, 0 deleted, 1 modified (backend difflib)" in out
    assert "Moved:\n  §2 Term › 2.2 → §3 Confidentiality › 3.2: Either party may terminate" in out
    assert "Renumbered:\n  §1 Fees › 1.2 → 1.3\n" in out
    assert "Inserted:\n  + §1 Fees › 1.2: Fees exclude taxes" in out
    assert "Modified:\n  ~ §1 Fees › 1.1: " in out and "within [-thirty-] {+forty-five+} days" in out


def test_json_output_is_the_alignment_json(capsys):
    assert main(["compare", OLD, NEW, "--backend", "rapidfuzz", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["backend"] == {"requested": "rapidfuzz", "resolved": "rapidfuzz"}
    assert [c["kind"] for c in data["changes"]].count("move") == 1


def test_missing_file_is_one_line_without_traceback(tmp_path, capsys):
    """In this process: ``python -m alignbench.cli`` exits with main's code and prints nothing more
    (test_html_cli runs that entry point on a missing file, in a fresh interpreter)."""
    assert main(["compare", str(tmp_path / "nope.md"), NEW]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "nope.md" in err


def test_word_diff_marks_whole_words():
    assert word_diff("pay within thirty days", "pay within forty days now") == (
        "pay within [-thirty-] {+forty+} days {+now+}"
    )
