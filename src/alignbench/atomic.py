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
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import orjson

from alignbench.yamlload import load_yaml

__all__ = [
    "dump_json",
    "load_yaml",
    "prune",
    "sweep_temporaries",
    "write_bytes",
    "write_json",
    "write_many",
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
    """``write_text`` for many files: see :func:`write_many`."""
    write_many([(Path(path), text.encode("utf-8")) for path, text in items])


def write_many(items: Sequence[tuple[str | os.PathLike[str], bytes]]) -> None:
    """Many files, each atomically, with one flush to disk for the whole batch; a file that already
    holds exactly its bytes is left alone.

    Every file to change goes to its temporary first, then one ``os.sync`` makes them all durable,
    then each is renamed over its name (a name given twice ends with its last bytes). The guarantee
    is ``write_bytes``'s - no name ever points at bytes not yet on disk - but a stage writing 354
    files waits for one flush instead of 354 fsyncs (~4 ms each on the 2-core machine: 1.5 s per
    stage). Rewriting a file with the bytes it holds cannot change it, and costs a write, a flush
    and freeing the old copy (~3 ms per file where the disk discards freed blocks), so it is skipped:
    the pipeline's stages keep their outputs between runs (``persist`` in dvc.yaml) and a rerun that
    reproduces them writes nothing. A failure before the renames leaves every target as it was and
    no temporary behind. Each directory is listed once for the temporaries a killed write left."""
    final: dict[Path, bytes] = {}
    for path, data in items:
        final[Path(path)] = data
    names: dict[Path, list[str]] = {}
    for target in final:
        names.setdefault(target.parent, []).append(target.name)
    for directory, in_directory in names.items():
        directory.mkdir(parents=True, exist_ok=True)
        patterns = [_temporaries_of(name) for name in in_directory]
        for leftover in sorted(directory.glob(".*.tmp")):
            if any(fnmatch.fnmatchcase(leftover.name, p) for p in patterns):
                _remove_leftover(leftover)
    changed = [(target, data) for target, data in final.items() if not _holds(target, data)]
    written: list[tuple[str, Path]] = []
    renamed = 0
    try:
        for target, data in changed:
            written.append((_temporary(target, data, sync=False), target))
        if written:
            _sync_all([tmp for tmp, _ in written])
        for tmp, target in written:
            os.replace(tmp, target)
            renamed += 1
    except BaseException:
        for tmp, _ in written[renamed:]:
            if os.path.exists(tmp):
                os.unlink(tmp)
        raise


def prune(directory: str | os.PathLike[str], keep: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Delete every file under ``directory`` that is not in ``keep``, then the directories left empty;
    return the files deleted.

    A stage that keeps its output directory between runs (``persist`` in dvc.yaml) calls this after
    writing, so the directory ends exactly as if it had been emptied first: nothing a stage no longer
    makes survives to be mistaken for reproduced."""
    top = Path(directory)
    wanted = {Path(path) for path in keep}
    removed: list[Path] = []
    if not top.is_dir():
        return removed
    for current, dirs, files in os.walk(top, topdown=False):
        here = Path(current)
        for name in sorted(files):
            path = here / name
            if path not in wanted:
                path.unlink()
                removed.append(path)
        for name in sorted(dirs):
            path = here / name
            if path.is_symlink():
                path.unlink()
                removed.append(path)
            elif not any(path.iterdir()):
                path.rmdir()
    return removed


def _holds(target: Path, data: bytes) -> bool:
    """Whether ``target`` is a regular file (not a link) whose bytes are exactly ``data``."""
    try:
        if target.is_symlink() or not target.is_file() or target.stat().st_size != len(data):
            return False
        return target.read_bytes() == data
    except OSError:
        return False


def _sync_all(paths: Sequence[str]) -> None:
    """Make the files' bytes durable: one system-wide flush where the platform has it."""
    if hasattr(os, "sync"):
        os.sync()
        return
    for path in paths:  # pragma: no cover - platforms without sync(2)
        with open(path, "rb") as handle:
            os.fsync(handle.fileno())


def _temporaries_of(name: str) -> str:
    return f".{glob.escape(name)}.*.tmp"


def _replace(target: Path, data: bytes) -> None:
    tmp = _temporary(target, data, sync=True)
    try:
        os.replace(tmp, target)
    except BaseException:  # e.g. the target is a directory: no temporary may outlive the failure
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _temporary(target: Path, data: bytes, sync: bool) -> str:
    """A temporary beside ``target`` holding ``data`` (fsynced when ``sync``), with an output's mode."""
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, _FILE_MODE)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return tmp


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
