"""Outputs never overwrite inputs (#33 item 4): compare --html, review --out, label export --out.

Each refusal is one line on stderr with exit 2, leaves the target's bytes as they were, creates no
directory and leaves no temporary file; ``--force`` lets a deliberate overwrite through.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from alignbench.cli import main

FIXTURES = Path(__file__).parent / "alignment_fixtures"
REVIEW = Path(__file__).parent / "review_fixtures"
PAIR = "tiny-terms"
LABELS = Path("corpus/labels/real") / PAIR / "labels.yaml"


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "alignbench.cli", *args], capture_output=True, text=True, cwd=cwd
    )


def _refused(proc: subprocess.CompletedProcess[str], *words: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith("alignbench: error: ")
    for word in words:
        assert word in proc.stderr


def _listing(directory: Path) -> list[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*"))


@pytest.fixture
def documents(tmp_path: Path) -> tuple[Path, Path]:
    old, new = tmp_path / "old.md", tmp_path / "new.md"
    old.write_bytes((FIXTURES / "old.md").read_bytes())
    new.write_bytes((FIXTURES / "new.md").read_bytes())
    return old, new


@pytest.mark.parametrize("which", ["old", "new"])
def test_compare_html_onto_an_input_is_refused_and_the_input_kept(documents, tmp_path, which) -> None:
    old, new = documents
    target = old if which == "old" else new
    before, listing = target.read_bytes(), _listing(tmp_path)
    _refused(_cli("compare", str(old), str(new), "--html", str(target)), "is an input", "--force")
    assert target.read_bytes() == before and _listing(tmp_path) == listing


def test_compare_html_onto_an_input_through_a_link_or_another_spelling_is_refused(
    documents, tmp_path
) -> None:
    old, new = documents
    link = tmp_path / "link.md"
    link.symlink_to(old)
    _refused(_cli("compare", str(old), str(new), "--html", str(link)), "is an input")
    spelled = f"{tmp_path}/./{old.name}"
    _refused(_cli("compare", str(old), str(new), "--html", spelled), "is an input")
    assert old.read_bytes() == (FIXTURES / "old.md").read_bytes()


def test_compare_html_with_force_overwrites_an_input_deliberately(documents) -> None:
    old, new = documents
    assert _cli("compare", str(old), str(new), "--html", str(old), "--force").returncode == 1
    assert old.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_compare_html_onto_a_labels_file_is_refused(documents, tmp_path) -> None:
    old, new = documents
    labels = tmp_path / "corpus" / "labels" / "real" / "p" / "labels.yaml"
    labels.parent.mkdir(parents=True)
    labels.write_text("schema: alignbench/labels/v1\n", encoding="utf-8")
    _refused(_cli("compare", str(old), str(new), "--html", str(labels)), "is a labels file")
    assert labels.read_text(encoding="utf-8") == "schema: alignbench/labels/v1\n"


def test_compare_html_onto_a_directory_is_one_line_and_leaves_no_temporary(documents, tmp_path) -> None:
    old, new = documents
    target = tmp_path / "out"
    target.mkdir()
    listing = _listing(tmp_path)
    _refused(_cli("compare", str(old), str(new), "--html", str(target)), "is a directory")
    assert _listing(tmp_path) == listing  # no .out.XXXX.tmp beside it


def test_compare_html_into_a_missing_directory_is_refused_not_created(documents, tmp_path) -> None:
    old, new = documents
    target = tmp_path / "missing" / "dir" / "x.html"
    _refused(_cli("compare", str(old), str(new), "--html", str(target)), "does not exist")
    assert not (tmp_path / "missing").exists()


def test_an_os_error_while_writing_is_one_line(documents, tmp_path, monkeypatch, capsys) -> None:
    """A write that fails after the check (a full disk) is one AlignbenchError line, exit 2."""
    import errno

    import alignbench.outputs

    def full(path, text):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(alignbench.outputs, "write_text", full)
    old, new = documents
    assert main(["compare", str(old), str(new), "--html", str(tmp_path / "x.html")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write --html (No space left on device)" in err


def test_atomic_write_onto_a_directory_removes_its_temporary(tmp_path) -> None:
    """The atomic writer itself: the rename fails, the temporary goes (every error path cleans up)."""
    from alignbench.atomic import write_text

    (tmp_path / "d").mkdir()
    with pytest.raises(OSError):
        write_text(tmp_path / "d", "x")
    assert _listing(tmp_path) == ["d"]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    import shutil

    root = tmp_path / "repo"
    shutil.copytree(REVIEW / "corpus", root / "corpus")
    return root


@pytest.mark.parametrize(
    "target", [str(LABELS), f"corpus/real/{PAIR}/source.md", f"corpus/real/{PAIR}/test.md"]
)
def test_review_out_onto_its_inputs_is_refused(repo, target) -> None:
    before = (repo / target).read_bytes()
    _refused(_cli("review", PAIR, "--root", str(repo), "--out", str(repo / target)), "--out")
    assert (repo / target).read_bytes() == before


def test_review_out_onto_another_pairs_labels_is_refused_and_force_lets_it_through(repo) -> None:
    other = repo / "corpus" / "labels" / "real" / "other" / "labels.yaml"
    other.parent.mkdir(parents=True)
    other.write_text("kept\n", encoding="utf-8")
    _refused(_cli("review", PAIR, "--root", str(repo), "--out", str(other)), "is a labels file")
    assert other.read_text(encoding="utf-8") == "kept\n"
    assert main(["review", PAIR, "--root", str(repo), "--out", str(other), "--force"]) == 0
    assert other.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_review_out_into_a_missing_directory_or_onto_a_directory_is_refused(repo, tmp_path) -> None:
    _refused(
        _cli("review", PAIR, "--root", str(repo), "--out", str(tmp_path / "no" / "r.html")), "does not exist"
    )
    _refused(_cli("review", PAIR, "--root", str(repo), "--out", str(tmp_path)), "is a directory")
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("target", [str(LABELS), f"corpus/real/{PAIR}/test.md", "blind-labels.yaml"])
def test_label_export_out_onto_labels_or_a_document_is_refused(repo, target) -> None:
    path = repo / target
    if not path.exists():
        path.write_text("kept\n", encoding="utf-8")
    before = path.read_bytes()
    _refused(
        _cli("label", "export", PAIR, "--format", "spans", "--root", str(repo), "--out", str(path)), "--force"
    )
    assert path.read_bytes() == before


def test_label_export_out_elsewhere_still_works_and_force_overwrites(repo, tmp_path) -> None:
    out = tmp_path / "spans.jsonl"
    assert main(["label", "export", PAIR, "--format", "spans", "--root", str(repo), "--out", str(out)]) == 0
    spans = out.read_text(encoding="utf-8")
    assert spans.count("\n") > 5
    assert main(["label", "export", PAIR, "--format", "spans", "--root", str(repo), "--out", str(out)]) == 0
    labels = repo / LABELS
    args = [
        "label",
        "export",
        PAIR,
        "--format",
        "spans",
        "--root",
        str(repo),
        "--out",
        str(labels),
        "--force",
    ]
    assert main(args) == 0 and labels.read_text(encoding="utf-8") == spans


def test_what_counts_as_a_labels_file() -> None:
    from alignbench.outputs import is_labels_file

    assert is_labels_file(Path("x/labels.yaml")) and is_labels_file(Path("blind-labels.yaml"))
    assert is_labels_file(Path("corpus/labels/real/p/agreement.json"))
    assert not is_labels_file(Path("corpus/real/p/test.md")) and not is_labels_file(Path("labels.yaml.html"))
