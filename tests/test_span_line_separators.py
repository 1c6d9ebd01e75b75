"""The span interchange round trip with every Unicode line separator in the text (#33 item 8).

JSON writes U+2028, U+2029, U+0085, \\x0b, \\x0c and \\x1c-\\x1e raw inside a string (only \\r is
escaped); ``str.splitlines`` breaks a line at each of them, so a document holding one exported
fine and its own export then failed to import. Records end at ``\\n`` only. A file saved with a
byte-order mark or with CRLF line endings (Windows editors, workbenches) imports the same.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from alignbench.cli import main
from review_fixtures_spoofed import LABELS, PAIR, spoofed_repo

SEPARATORS = "\u2028\u2029\x85\x0b\x0c\x1c\x1d\x1e\r"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    # One separator between each pair of words of clause 3.1, and one in 1.1: the reader keeps them
    # inside the clause's text (they are whitespace to the block tree), so the span's text holds them.
    words = ["must", "be", "in", "writing", "and", "sent", "by", "email", "or", "post"]
    spread = "".join(w + s for w, s in zip(words, SEPARATORS, strict=False)) + " ".join(
        words[len(SEPARATORS) :]
    )
    edits = {"must be in writing and sent by email or post": spread, "within 45 days": "within\u2028 45 days"}
    return spoofed_repo(tmp_path, edits)


def _export(root: Path, out: Path) -> str:
    assert main(["label", "export", PAIR, "--format", "spans", "--root", str(root), "--out", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def test_every_separator_reaches_a_span_text(repo: Path, tmp_path: Path) -> None:
    text = _export(repo, tmp_path / "spans.jsonl")
    records = [json.loads(line) for line in text.split("\n") if line]
    held = "".join(r["text"] for r in records)
    # A lone \r is a line end to the document reader (it reads the prepared file with universal
    # newlines, export and import alike), and JSON escapes it anyway: every other one is held raw.
    assert [f"U+{ord(s):04X}" for s in SEPARATORS if s not in held] == ["U+000D"]
    assert len(text.splitlines()) > len(records), "the file must really hold raw separators"


@pytest.mark.parametrize("variant", ["as-exported", "bom", "crlf", "bom-crlf"])
def test_export_then_import_gives_identical_labels(repo: Path, tmp_path: Path, variant: str, capsys) -> None:
    spans = tmp_path / "spans.jsonl"
    text = _export(repo, spans)
    data = text.encode("utf-8")
    if "crlf" in variant:
        data = data.replace(b"\n", b"\r\n")
    if "bom" in variant:
        data = b"\xef\xbb\xbf" + data
    spans.write_bytes(data)
    before = (repo / LABELS).read_bytes()
    capsys.readouterr()
    assert main(["label", "import", PAIR, str(spans), "--root", str(repo)]) == 0
    assert "unchanged" in capsys.readouterr().out
    assert (repo / LABELS).read_bytes() == before


def test_a_bom_anywhere_but_the_start_is_text_and_refused(repo: Path, tmp_path: Path, capsys) -> None:
    spans = tmp_path / "spans.jsonl"
    text = _export(repo, spans)
    first, rest = text.split("\n", 1)
    spans.write_text(first + "\n\ufeff" + rest, encoding="utf-8")
    assert main(["label", "import", PAIR, str(spans), "--root", str(repo)]) == 2
    assert "line 2 is not JSON" in capsys.readouterr().err
