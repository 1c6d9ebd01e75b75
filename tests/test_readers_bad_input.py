"""Bad input gives one clear AlignbenchError naming the file (and exit 2 from the CLI), never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from alignbench import read
from alignbench.cli import main
from alignbench.errors import AlignbenchError
from alignbench.readers import MAX_BYTES


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
