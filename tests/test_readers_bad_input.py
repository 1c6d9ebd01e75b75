"""Bad input gives one clear AlignbenchError naming the file (and exit 2 from the CLI), never a traceback."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from alignbench import read
from alignbench.cli import main
from alignbench.errors import AlignbenchError
from alignbench.readers import MAX_BYTES, MAX_DEPTH

FIXTURES = Path(__file__).parent / "reader_fixtures"


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("bad.txt", b"caf\xe9 terms\n", "not valid UTF-8 (byte 3)"),
        ("binary.md", b"# Title\n\x00\x01\x02", "contains NUL bytes"),
        ("empty.txt", b"", "document is empty"),
        ("blank.md", b"  \n\n\t\n", "document is empty"),
        ("huge.txt", b"1.1 A clause of some length.\n\n" * (10 * 1024 * 1024 // 30 + 1), "MB limit"),
        ("notes.rtf", b"text\n", "cannot tell the format"),
    ],
)
def test_bad_files_raise_one_clear_error(
    tmp_path: Path, name: str, data: bytes, message: str, capsys
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(AlignbenchError) as info:
        read(path)
    assert message in str(info.value)
    assert str(path) in str(info.value)
    assert main(["blocks", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and str(path) in err


def test_ten_megabytes_is_over_the_limit() -> None:
    assert MAX_BYTES < 10 * 1024 * 1024


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(AlignbenchError, match="file not found"):
        read(str(tmp_path / "missing.md"))
    with pytest.raises(AlignbenchError, match="file not found"):
        read(tmp_path / "missing.txt")
    with pytest.raises(AlignbenchError, match="unknown format"):
        read("1. Text\n", format="rtf")
    with pytest.raises(AlignbenchError, match="pdf is a binary format; pass the file's path"):
        read("1. Text\n", format="pdf")
    with pytest.raises(AlignbenchError, match="unknown reader profile"):
        read("1. Text\n", profile="nope")


def test_text_given_directly_defaults_to_text_and_crlf_is_normalised() -> None:
    tree = read("1. Scope\r\n\r\n1.1 Applies here.\r\n")
    assert tree.format == "text" and tree.profile == "contract"
    assert [(b.kind, b.label) for b in tree.blocks()][1:] == [
        ("section", None),
        ("heading", "1"),
        ("list_item", "1.1"),
    ]


def _one_line_error(capsys, argv: list[str], needle: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and needle in err


def test_directories_devices_and_missing_paths_fail_naming_the_path(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "terms"
    folder.mkdir()
    for argument in (str(folder), "/dev/null", str(tmp_path / "no-such-document")):
        _one_line_error(capsys, ["blocks", argument], argument)
        _one_line_error(capsys, ["compare", argument, str(FIXTURES / "msa-contract.txt")], argument)
    with pytest.raises(AlignbenchError, match="is a directory"):
        read(str(folder))
    with pytest.raises(AlignbenchError, match="is a directory"):
        read(folder)


def test_dash_reads_standard_input_in_every_document_command(monkeypatch, capsys) -> None:
    data = (FIXTURES / "msa-contract.txt").read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert main(["blocks", "-"]) == 0
    assert capsys.readouterr().out.count("\n") == len(read(FIXTURES / "msa-contract.txt"))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert main(["compare", "-", str(FIXTURES / "msa-contract.txt"), "--json"]) == 0
    changes = json.loads(capsys.readouterr().out)["changes"]
    assert changes == []  # stdin held the same document, read as text like the other side
    _one_line_error(capsys, ["compare", "-", "-"], "standard input")


def test_lone_surrogate_is_a_clear_error() -> None:
    with pytest.raises(AlignbenchError, match=r"line 2: lone surrogate U\+DC80"):
        read("1. Scope\nbad \udc80 byte\n")


@pytest.mark.parametrize("depth", [60, 100])
def test_text_nesting_within_the_limit_is_read(depth: int) -> None:
    text = "".join(".".join(["1"] * n) + " Clause text.\n" for n in range(1, depth))
    tree = read(text)
    assert sum(1 for b in tree.blocks() if b.kind == "list_item") == depth - 1


@pytest.mark.parametrize("depth", [101, 495, 600])
def test_text_nesting_past_the_limit_names_the_line(depth: int) -> None:
    text = "".join(".".join(["1"] * n) + " Clause text.\n" for n in range(1, depth + 1))
    with pytest.raises(
        AlignbenchError, match=rf"line {MAX_DEPTH + 1}: nesting deeper than {MAX_DEPTH} levels"
    ):
        read(text)


def test_markdown_nesting_past_the_limit_names_the_line() -> None:
    text = "".join("  " * i + f"- level {i}\n" for i in range(MAX_DEPTH + 5)) + "\nAfter.\n"
    with pytest.raises(AlignbenchError, match=rf"line {MAX_DEPTH + 1}: lists or block quotes nested deeper"):
        read(text, format="markdown")
    with pytest.raises(AlignbenchError, match="nested deeper"):
        read(">" * (MAX_DEPTH + 1) + " deep\n", format="markdown")
