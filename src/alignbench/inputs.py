"""Capped reads of the interchange files a user hands to a command (span JSONL, decisions exports).

``label import PAIR /dev/zero`` or ``label compile --from /dev/zero`` once read without end (5.7 GB
after 8 s). Every such file is read through :func:`read_text_capped`: at most :data:`MAX_BYTES` plus
one byte is read, so a device, a pipe or a runaway file is refused in one line instead of filling
memory. A leading UTF-8 byte-order mark is accepted and dropped (editors on Windows write one);
anywhere else U+FEFF is text.
"""

from __future__ import annotations

from pathlib import Path

from alignbench.errors import AlignbenchError

# Far above any real export: the largest pair's span file is ~2 MB, its decisions export ~0.3 MB.
MAX_BYTES = 64 * 1024 * 1024
_BOM = b"\xef\xbb\xbf"


def read_bytes_capped(path: Path, limit: int, *, missing: str, directory: str, too_large: str) -> bytes:
    """At most ``limit`` bytes of the file, or one :class:`AlignbenchError` line ``<path>: <reason>``
    with the caller's wording for a missing file, a directory and a file over the limit (only
    ``limit + 1`` bytes are ever read, so a device or a runaway file is refused, not read)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise AlignbenchError(f"{path}: {missing}") from None
    except IsADirectoryError:
        raise AlignbenchError(f"{path}: {directory}") from None
    except OSError as exc:
        raise AlignbenchError(f"{path}: cannot read ({exc.strerror or exc.__class__.__name__})") from None
    if len(data) > limit:
        raise AlignbenchError(f"{path}: {too_large}")
    return data


def read_text_capped(path: Path, what: str, limit: int = MAX_BYTES) -> str:
    """The file's text (UTF-8, a leading BOM dropped), or one :class:`AlignbenchError` line."""
    data = read_bytes_capped(
        path,
        limit,
        missing=f"not found; give the {what}",
        directory=f"is a directory; give the {what}",
        too_large=f"more than {limit // (1024 * 1024)} MB, too large for a {what}; nothing more was read",
    )
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AlignbenchError(
            f"{path}: not valid UTF-8 (byte {exc.start}); save the {what} as UTF-8"
        ) from None
