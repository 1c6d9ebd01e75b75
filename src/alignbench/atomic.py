"""Atomic writes: an interrupted run never leaves a half-written file under an output's name.

``load_yaml`` is re-exported from :mod:`alignbench.yamlload`, the one strict YAML loader.
"""

from __future__ import annotations

import fnmatch
import glob
import json
import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

from alignbench.yamlload import load_yaml

__all__ = [
    "dump_json",
    "load_yaml",
    "sweep_temporaries",
    "write_bytes",
    "write_json",
    "write_text",
    "write_texts",
]

_ORJSON_OPTIONS = (
    orjson.OPT_INDENT_2
    | orjson.OPT_APPEND_NEWLINE
    | orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
)
# mkstemp creates files 0600; give outputs the mode an ordinary open() would (0666 minus umask).
_UMASK = os.umask(0)
os.umask(_UMASK)
_FILE_MODE = 0o666 & ~_UMASK


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write to a temporary file in the same directory, fsync, then rename over ``path``."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    _sweep(target.parent, _temporaries_of(target.name))
    _replace(target, data)


def write_texts(items: Sequence[tuple[Path, str]]) -> None:
    """``write_text`` for many files, in order: each directory is listed once for the temporaries a
    killed write left (a per-file glob listed a 283-file directory 283 times, ~0.2 s per stage)."""
    targets = [(Path(path), text.encode("utf-8")) for path, text in items]
    names: dict[Path, list[str]] = {}
    for target, _ in targets:
        names.setdefault(target.parent, []).append(target.name)
    for directory, in_directory in names.items():
        directory.mkdir(parents=True, exist_ok=True)
        patterns = [_temporaries_of(name) for name in in_directory]
        for leftover in sorted(directory.glob(".*.tmp")):
            if any(fnmatch.fnmatchcase(leftover.name, p) for p in patterns):
                _remove_leftover(leftover)
    for target, data in targets:
        _replace(target, data)


def _temporaries_of(name: str) -> str:
    return f".{glob.escape(name)}.*.tmp"


def _replace(target: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _FILE_MODE)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _sweep(directory: Path, pattern: str) -> list[Path]:
    return [leftover for leftover in sorted(directory.glob(pattern)) if _remove_leftover(leftover)]


def _remove_leftover(leftover: Path) -> bool:
    if leftover.is_file() and not leftover.is_symlink():
        leftover.unlink()
        return True
    return False


def sweep_temporaries(path: str | os.PathLike[str]) -> list[Path]:
    """Delete the temporary files a killed write left behind (``.<name>.XXXX.tmp``); return them.

    A kill between the write and the rename leaves the temporary beside the output. A re-run of the
    stage sweeps them: for an output file, the temporaries of that file; for an output directory,
    every temporary under it.
    """
    target = Path(path)
    if target.is_dir():
        directories = [target, *sorted(d for d in target.rglob("*") if d.is_dir())]
        return [leftover for d in directories for leftover in _sweep(d, ".*.tmp")]
    if not target.parent.is_dir():
        return []
    return _sweep(target.parent, f".{glob.escape(target.name)}.*.tmp")


def write_text(path: str | os.PathLike[str], text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def dump_json(data: Any) -> str:
    """Canonical JSON: sorted only where the caller sorted, 2-space indent, trailing newline.

    The text is ``json.dumps(data, indent=2, ensure_ascii=False)``'s, byte for byte. With an indent the
    standard library encodes in pure Python (~1 s per align stage), so orjson writes it whenever it is
    sure to produce the same bytes (see :func:`_orjson_text`); anything else takes the standard path."""
    fast = _orjson_text(data)
    return fast if fast is not None else json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# orjson spells a float below 1e-4 in positional form or with a one-digit exponent (0.00001, 1e-7)
# where Python writes 1e-05 and 1e-07; every other float, string escape and layout is the same.
_STRICT_COMPACT = json.JSONEncoder(allow_nan=False, check_circular=False, separators=(",", ":"))
_PYTHON_ONLY_FORMS = re.compile(rb"[0-9]e-|0\.0000")


def _orjson_text(data: Any) -> str | None:
    """orjson's text of ``data`` when it equals the standard library's, else ``None``.

    Declined: anything the compact C encoder refuses with ``allow_nan=False`` (NaN and infinities,
    which orjson would write as null; unserialisable objects), anything orjson refuses (non-string
    keys, integers beyond 64 bits, subclasses of str, int, dict and list, dataclasses), and any text
    holding a spelling only Python uses for small floats (also when it is only inside a string)."""
    try:
        _STRICT_COMPACT.encode(data)  # C-accelerated: the refusals of the standard encoder, cheaply
        raw = orjson.dumps(data, option=_ORJSON_OPTIONS)
    except (TypeError, ValueError, OverflowError, RecursionError):
        return None
    if (b"e-" in raw or b"0.0000" in raw) and _PYTHON_ONLY_FORMS.search(raw):  # substring tests first
        return None
    return raw.decode("utf-8")


def write_json(path: str | os.PathLike[str], data: Any) -> None:
    write_text(path, dump_json(data))
