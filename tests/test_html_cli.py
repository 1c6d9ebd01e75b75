"""``alignbench compare`` flags: --html (atomic, nothing written on error), diff-like exit status,
--json with change texts, --format for suffix-less files, and ``alignbench --version``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from alignbench import __version__
from alignbench.cli import main

FIXTURES = Path(__file__).parent / "alignment_fixtures"
OLD, NEW = str(FIXTURES / "old.md"), str(FIXTURES / "new.md")


def test_html_is_written_and_stdout_keeps_one_summary_line(tmp_path, capsys):
    out = tmp_path / "deep" / "redline.html"
    out.parent.mkdir()  # a missing parent is refused, not created (tests/test_outputs_guard.py)
    assert main(["compare", OLD, NEW, "--html", str(out)]) == 1
    stdout = capsys.readouterr().out
    assert stdout.count("\n") == 1 and "1 moved, 1 renumbered" in stdout and str(out) in stdout
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and 'id="c-4"' in page
    assert sorted(p.name for p in out.parent.iterdir()) == ["redline.html"]  # no temporary left behind


def test_identical_documents_exit_zero_and_still_get_a_page(tmp_path, capsys):
    out = tmp_path / "same.html"
    assert main(["compare", OLD, OLD, "--html", str(out)]) == 0
    assert 'data-count-kind="total"><b>0</b> changes' in out.read_text(encoding="utf-8")
    assert main(["compare", OLD, OLD]) == 0


def test_an_error_exits_two_with_one_line_and_writes_nothing(tmp_path):
    out, missing = tmp_path / "redline.html", str(tmp_path / "nope.md")
    proc = subprocess.run(
        [sys.executable, "-m", "alignbench.cli", "compare", missing, NEW, "--html", str(out)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "nope.md" in proc.stderr and "Traceback" not in proc.stderr
    assert not out.exists()


def test_json_carries_each_changes_full_text(capsys):
    assert main(["compare", OLD, NEW, "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    by_kind = {c["kind"]: c for c in data["changes"]}
    assert by_kind["insert"]["source_text"] is None
    assert by_kind["insert"]["test_text"] == "1.2 Fees exclude taxes, which the Customer pays in addition."
    assert "thirty days" in by_kind["modify"]["source_text"]
    assert "forty-five days" in by_kind["modify"]["test_text"]
    assert by_kind["move"]["source_text"].startswith("2.2 Either party")
    assert list(data)[:4] == ["schema", "engine", "backend", "config"]  # still the Alignment JSON, extended


def test_json_text_of_a_deleted_section_includes_its_children(tmp_path, capsys):
    old = tmp_path / "old.md"
    new = tmp_path / "new.md"
    old.write_text("# A\n\n## 1. Keep\n\nKept clause.\n\n## 2. Gone\n\n2.1 First gone.\n\n2.2 Second gone.\n")
    new.write_text("# A\n\n## 1. Keep\n\nKept clause.\n")
    assert main(["compare", str(old), str(new), "--json"]) == 1
    deleted = [c for c in json.loads(capsys.readouterr().out)["changes"] if c["kind"] == "delete"]
    assert len(deleted) == 1
    assert deleted[0]["source_text"].splitlines() == ["2 Gone", "2.1 First gone.", "2.2 Second gone."]


def test_format_reads_suffixless_files(tmp_path, capsys):
    old, new = tmp_path / "old", tmp_path / "new"
    old.write_bytes(Path(OLD).read_bytes())
    new.write_bytes(Path(NEW).read_bytes())
    assert main(["compare", str(old), str(new)]) == 2  # the suffix cannot tell the format
    assert "cannot tell the format" in capsys.readouterr().err
    assert main(["compare", str(old), str(new), "--format", "markdown"]) == 1
    assert "1 moved" in capsys.readouterr().out
    assert main(["compare", str(old), str(new), "--format", "text"]) == 1


def test_text_summary_never_prints_none_for_a_missing_label(tmp_path, capsys):
    old, new = tmp_path / "old.md", tmp_path / "new.md"
    old.write_text("# T\n\n## 1. Alpha\n\nSome text of the first section.\n")
    new.write_text("# T\n\n## Alpha\n\nSome text of the first section.\n")
    assert main(["compare", str(old), str(new)]) == 1
    out = capsys.readouterr().out
    assert "  ~ §1 Alpha → Alpha [label 1 → (no label)]: Alpha" in out and "None" not in out


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"alignbench {__version__}" and lines[1].startswith(f"engine {__version__}+")
