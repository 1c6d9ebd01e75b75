"""Readers: turn a Markdown or plain-text document into a :class:`~alignbench.blocks.BlockTree`.

``read(path_or_text, format=None, profile=None)``

- ``path_or_text``: a path (``os.PathLike``, or a ``str`` naming an existing file) or the document
  text itself (a ``str`` that contains a newline or names no existing file). A one-line ``str``
  ending in ``.md``/``.markdown``/``.txt`` that names no file is treated as a missing file, not as
  text, so a typo in a path gives an error rather than a one-paragraph document.
- ``format``: ``"markdown"``, ``"text"``, ``"docx"`` or ``"pdf"``; inferred from the suffix when
  ``None`` (``.md``, ``.markdown`` -> markdown; ``.txt`` -> text; ``.docx`` -> docx; ``.pdf`` -> pdf).
  Text given directly defaults to ``"text"``. Word and PDF need the ``docx`` and ``pdf`` extras.
- ``profile``: a profile name from ``profiles.yaml``; defaults to ``markdown`` for Markdown and Word
  (their structure is marked up: heading styles, list numbering) and ``contract`` for text and PDF.
- ``revisions``: for Word, the view of tracked changes: ``"accepted"`` (default) or ``"original"``.

Commands take documents through :func:`read_document`: the argument is always a path (never text),
and ``-`` reads standard input. A directory, a device or a missing path is an error naming it.

Bad input (invalid UTF-8, NUL bytes, lone surrogates, an empty document, more than ``MAX_BYTES``,
nesting deeper than ``MAX_DEPTH``) raises one :class:`~alignbench.errors.AlignbenchError` naming the
file, never a traceback.

Front matter (a YAML ``---`` or TOML ``+++`` block that opens the document and parses as a mapping)
is site-generator metadata, not document text: it is left out of the tree and counted in
``BlockTree.dropped`` under ``front_matter``.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO

from alignbench.blocks import BlockTree
from alignbench.errors import AlignbenchError
from alignbench.gc_pause import paused_collector
from alignbench.inputs import read_bytes_capped
from alignbench.readers import binary, markdown, plaintext
from alignbench.readers.drops import DropLog
from alignbench.readers.front_matter import split_front_matter
from alignbench.readers.nesting import build_tree
from alignbench.readers.profiles import DEFAULT_PROFILE_FOR_FORMAT, get_profile
from alignbench.readers.units import MAX_DEPTH

__all__ = ["FORMATS", "MAX_BYTES", "MAX_DEPTH", "STDIN", "read", "read_document", "read_text"]

FORMATS: tuple[str, ...] = ("markdown", "text", *binary.BINARY_FORMATS)
SUFFIX_FORMATS: dict[str, str] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".docx": "docx",
    ".pdf": "pdf",
}
DEFAULT_TEXT_FORMAT = "text"
# Legal documents are far smaller; a bigger input is almost certainly the wrong file.
MAX_BYTES = 5 * 1024 * 1024
_UNIT_READERS = {"markdown": markdown.read_units, "text": plaintext.read_units}
STDIN = "-"


def read(
    path_or_text: str | os.PathLike[str],
    format: str | None = None,
    profile: str | None = None,
    *,
    revisions: str = binary.ACCEPTED,
) -> BlockTree:
    """Read a document (a path or the text itself) into a block tree."""
    if isinstance(path_or_text, os.PathLike) or _names_file(path_or_text):
        path = _readable_file(Path(path_or_text))
        fmt = format or _format_from_suffix(path)
        return _read_path(path, fmt, profile, revisions)
    if not isinstance(path_or_text, str):
        raise AlignbenchError(f"read() takes a path or the document text, not {type(path_or_text).__name__}")
    # The size in UTF-8 bytes, without keeping a second copy of the document alive through the read.
    size = len(path_or_text) if path_or_text.isascii() else len(path_or_text.encode("utf-8", "surrogatepass"))
    _check_size("<text>", size)
    return read_text(path_or_text, format or DEFAULT_TEXT_FORMAT, profile, source="<text>")


def read_document(
    argument: str | os.PathLike[str],
    format: str | None = None,
    profile: str | None = None,
    *,
    stdin_format: str | None = None,
    stdin: BinaryIO | None = None,
    revisions: str = binary.ACCEPTED,
) -> BlockTree:
    """Read a document named on a command line: a path, or ``-`` for standard input.

    Unlike :func:`read`, the argument is never taken as the document text. Standard input has no
    suffix, so its format is ``format``, else ``stdin_format`` (a command may pass the other
    document's), else text.
    """
    if str(argument) == STDIN:
        stream = stdin if stdin is not None else sys.stdin.buffer
        fmt = format or stdin_format or DEFAULT_TEXT_FORMAT
        if fmt in binary.BINARY_FORMATS:
            data = stream.read(binary.MAX_BINARY_BYTES + 1)
            _check_size("<stdin>", len(data), binary.MAX_BINARY_BYTES)
            return binary.read_binary(data, fmt, profile, source="<stdin>", revisions=revisions)
        data = stream.read(MAX_BYTES + 1)
        _check_size("<stdin>", len(data))
        return read_text(
            _decode("<stdin>", data), format or stdin_format or DEFAULT_TEXT_FORMAT, profile, source="<stdin>"
        )
    path = Path(argument)
    fmt = format or _format_from_suffix(_readable_file(path))
    return _read_path(path, fmt, profile, revisions)


def _read_path(path: Path, fmt: str, profile: str | None, revisions: str) -> BlockTree:
    if fmt in binary.BINARY_FORMATS:
        data = _read_bytes(path, binary.MAX_BINARY_BYTES)
        return binary.read_binary(data, fmt, profile, source=str(path), revisions=revisions)
    return read_text(_decode(path, _read_bytes(path)), fmt, profile, source=str(path))


def format_of(argument: str | os.PathLike[str]) -> str | None:
    """The format a path's suffix names, or ``None`` (standard input, an unknown suffix)."""
    return SUFFIX_FORMATS.get(Path(argument).suffix.lower()) if str(argument) != STDIN else None


def read_text(text: str, format: str, profile: str | None = None, *, source: str = "<text>") -> BlockTree:
    """Read already-decoded text; ``source`` names it in error messages."""
    if format not in FORMATS:
        raise AlignbenchError(f"{source}: unknown format {format!r}; use one of: {', '.join(FORMATS)}")
    if format in binary.BINARY_FORMATS:
        raise AlignbenchError(f"{source}: {format} is a binary format; pass the file's path, not its text")
    if "\x00" in text:
        raise AlignbenchError(
            f"{source}: contains NUL bytes, so it looks binary; give a UTF-8 text or Markdown file"
        )
    surrogate = _first_surrogate(text)
    if surrogate >= 0:
        line = text.count("\n", 0, surrogate) + 1
        raise AlignbenchError(
            f"{source}: line {line}: lone surrogate U+{ord(text[surrogate]):04X} is not a character; "
            "pass text decoded as UTF-8"
        )
    text = text.lstrip("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text or text.isspace():  # `not text.strip()` without copying the document
        raise AlignbenchError(f"{source}: document is empty; give a file with some text in it")
    profile_name = profile or DEFAULT_PROFILE_FOR_FORMAT[format]
    compiled = get_profile(profile_name)
    dropped = DropLog()
    front_matter, body = split_front_matter(text)
    if front_matter is not None:
        # The front matter's lines are blanked in body; blank lines after its closing fence are too.
        blanked = len(body) - len(body.lstrip("\n"))
        dropped.note("front_matter", 1, "\n".join(text.split("\n", blanked)[:blanked]).rstrip("\n"))
    if not body or body.isspace():
        raise AlignbenchError(f"{source}: document holds only front matter; give a file with some text in it")
    # Reading makes several small objects per line and no reference cycle: see gc_pause.
    with paused_collector():
        # The unit list is handed over, not kept: the builder frees each unit once it is placed.
        root = build_tree(_UNIT_READERS[format](body, compiled, dropped, source), compiled, source)
    if not root.children and dropped.log:
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(dropped.items()))
        raise AlignbenchError(
            f"{source}: document holds only content the reader drops ({kinds}); "
            "give a file with some text in it"
        )
    return BlockTree(
        root, dropped=dict(dropped), drops=dropped.log, format=format, profile=profile_name, addressed=True
    )


def _first_surrogate(text: str) -> int:
    """Where the first lone surrogate is, or -1. ASCII text has none (a flag, no scan); otherwise UTF-8
    encoding stops at the first one, and runs far faster than a character-class regex search."""
    if text.isascii():
        return -1
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return -1


def _names_file(value: object) -> bool:
    if not isinstance(value, str) or "\n" in value or not value.strip():
        return False
    path = Path(value)
    try:
        if path.is_file():
            return True
        if path.exists():  # a directory or a device named as the document
            _readable_file(path)
    except (OSError, ValueError):
        return False
    if path.suffix.lower() in SUFFIX_FORMATS:
        raise AlignbenchError(
            f"{value}: file not found; check the path (pass text with a newline to read text)"
        )
    return False


def _format_from_suffix(path: Path) -> str:
    fmt = SUFFIX_FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise AlignbenchError(
            f"{path}: cannot tell the format from the suffix {path.suffix!r}; "
            "pass format= one of: " + ", ".join(FORMATS)
        )
    return fmt


def _check_size(source: str, size: int, limit: int = MAX_BYTES) -> None:
    if size > limit:
        raise AlignbenchError(f"{source}: {_too_large(size, limit)}")


def _too_large(size: int, limit: int) -> str:
    return (
        f"{size / 1048576:.1f} MB is more than the reader's {limit // 1048576} MB limit; "
        "split the document or check that this is the right file"
    )


def _readable_file(path: Path) -> Path:
    """``path`` when it names a file (or a pipe, for ``<(...)``); a clear error for anything else."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise AlignbenchError(f"{path}: file not found; check the path") from None
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise AlignbenchError(f"{path}: cannot read ({reason})") from None
    if stat.S_ISDIR(mode):
        raise AlignbenchError(f"{path}: is a directory; give a Markdown or text file")
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):
        raise AlignbenchError(f"{path}: is a device or socket, not a file; give a Markdown or text file")
    return path


def _read_bytes(path: Path, limit: int = MAX_BYTES) -> bytes:
    _readable_file(path)
    try:
        _check_size(str(path), path.stat().st_size, limit)  # a file's size is refused before any read
    except FileNotFoundError:
        raise AlignbenchError(f"{path}: file not found; check the path") from None
    return read_bytes_capped(  # a pipe's is refused after limit + 1 bytes
        path,
        limit,
        missing="file not found; check the path",
        directory="is a directory; give a Markdown or text file",
        too_large=_too_large(limit + 1, limit),
    )


def _decode(path: Path | str, data: bytes) -> str:
    if b"\x00" in data:
        raise AlignbenchError(
            f"{path}: contains NUL bytes, so it looks binary; give a UTF-8 text or Markdown file"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AlignbenchError(f"{path}: not valid UTF-8 (byte {exc.start}); save the file as UTF-8") from None
