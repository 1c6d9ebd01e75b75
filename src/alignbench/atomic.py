"""Atomic writes: an interrupted run never leaves a half-written file under an output's name.

``load_yaml`` is re-exported from :mod:`alignbench.yamlload`, the one strict YAML loader.
"""

from __future__ import annotations

import glob
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from alignbench.yamlload import load_yaml

__all__ = ["dump_json", "load_yaml", "sweep_temporaries", "write_bytes", "write_json", "write_text"]

# mkstemp creates files 0600; give outputs the mode an ordinary open() would (0666 minus umask).
_UMASK = os.umask(0)
os.umask(_UMASK)
_FILE_MODE = 0o666 & ~_UMASK


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write to a temporary file in the same directory, fsync, then rename over ``path``."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    _sweep(target.parent, f".{glob.escape(target.name)}.*.tmp")
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
    removed = []
    for leftover in sorted(directory.glob(pattern)):
        if leftover.is_file() and not leftover.is_symlink():
            leftover.unlink()
            removed.append(leftover)
    return removed


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
    """Canonical JSON: sorted only where the caller sorted, 2-space indent, trailing newline."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_json(path: str | os.PathLike[str], data: Any) -> None:
    write_text(path, dump_json(data))
