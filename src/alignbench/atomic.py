"""Atomic writes and safe YAML loading: an interrupted run never leaves a half-written file."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import yaml

from alignbench.errors import AlignbenchError

# mkstemp creates files 0600; give outputs the mode an ordinary open() would (0666 minus umask).
_UMASK = os.umask(0)
os.umask(_UMASK)
_FILE_MODE = 0o666 & ~_UMASK
# libyaml's safe loader when PyYAML was built with it (the pinned wheels are): same results, ~10x faster.
SAFE_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write to a temporary file in the same directory, fsync, then rename over ``path``."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
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


def write_text(path: str | os.PathLike[str], text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def dump_json(data: Any) -> str:
    """Canonical JSON: sorted only where the caller sorted, 2-space indent, trailing newline."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_json(path: str | os.PathLike[str], data: Any) -> None:
    write_text(path, dump_json(data))


def load_yaml(path: str | os.PathLike[str]) -> Any:
    """``yaml.safe_load`` with one clear error naming the file for every way it can fail."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise AlignbenchError(f"{p}: file not found") from None
    except OSError as exc:
        raise AlignbenchError(f"{p}: cannot read ({exc.strerror})") from None
    if not raw.strip():
        raise AlignbenchError(f"{p}: file is empty; expected a YAML mapping")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AlignbenchError(f"{p}: not valid UTF-8 (byte {exc.start}); save the file as UTF-8") from None
    if "&" in text or "*" in text:
        _reject_aliases(p, text)
    try:
        return yaml.load(text, Loader=SAFE_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise AlignbenchError(f"{p}: malformed YAML{where}: {problem}; fix the syntax and re-run") from None


def _reject_aliases(path: Path, text: str) -> None:
    """Anchors and aliases are refused outright: they are how a YAML bomb expands."""
    try:
        for event in yaml.parse(text, Loader=SAFE_LOADER):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                mark = event.start_mark
                raise AlignbenchError(
                    f"{path}: YAML anchors/aliases are not allowed (line {mark.line + 1}); "
                    "write the values out in full"
                )
    except yaml.YAMLError:
        return  # the safe_load that follows reports the syntax error with its position
