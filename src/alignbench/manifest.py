"""Stage manifests: a consumer never reads an output directory that is mixed, stale or tampered with.

A stage that writes a directory (``corpus/real``, ``corpus/synthetic``, ``results/alignments/<backend>``,
``results/floor``, ``results/tables``) first removes the directory's ``MANIFEST.json``, then writes its
files, then writes the manifest last and atomically: the stage's name, the params it read (verbatim
and as a digest), the engine version where there is one, and every file with its sha256. A run killed
anywhere in its write phase therefore leaves no manifest (or, before the removal, the old manifest
over files it still describes byte for byte).

Every consumer calls :func:`verify` on each input directory with the params it reads now: a missing
manifest, another stage, other params, another engine, a file added, missing or changed is refused
with one line that names the stage to re-run. The manifest is byte-stable: sorted keys and paths, no
clock, no absolute path. A listed path starting ``../`` is a companion file beside the directory (the
score stage's ``latest.json``): its hash is checked, but only the directory itself is walked for strays.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from alignbench.atomic import write_bytes
from alignbench.errors import AlignbenchError

MANIFEST_NAME = "MANIFEST.json"
SCHEMA = "alignbench/stage-manifest/v1"
_CHUNK = 1 << 20


def canonical(value: Any) -> str:
    """The one JSON spelling of ``value`` that digests and comparisons use."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def params_digest(params: Mapping[str, Any] | None) -> str:
    return hashlib.sha256(canonical(params).encode("utf-8")).hexdigest()


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def rerun_hint(stage: str) -> str:
    return f"re-run the {stage} stage (`dvc repro -f {stage}`)"


def invalidate(directory: Path) -> None:
    """Remove the manifest before a write phase: a run killed from here on leaves none."""
    with contextlib.suppress(FileNotFoundError):
        (directory / MANIFEST_NAME).unlink()


def build(
    directory: Path,
    stage: str,
    params: Mapping[str, Any] | None,
    engine: str | None,
    files: Iterable[Path],
) -> dict[str, Any]:
    """The manifest of ``files`` (each under ``directory``, or a companion beside it) as they are now."""
    listed: dict[str, str] = {}
    for path in files:
        relative = os.path.relpath(path, directory).replace(os.sep, "/")
        listed[relative] = _sha256_file(Path(path))
    return {
        "schema": SCHEMA,
        "stage": stage,
        "params": json.loads(canonical(params)),
        "params_digest": params_digest(params),
        "engine": engine,
        "files": dict(sorted(listed.items())),
    }


def write(
    directory: Path,
    stage: str,
    params: Mapping[str, Any] | None,
    engine: str | None,
    files: Iterable[Path],
) -> Path:
    """Write ``directory/MANIFEST.json`` atomically; call it after every file of the stage is written."""
    manifest = build(directory, stage, params, engine, files)
    target = directory / MANIFEST_NAME
    text = json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    write_bytes(target, text.encode("utf-8"))
    return target


def _on_disk(directory: Path) -> list[str]:
    """Every file (and symlink) under ``directory`` but the manifest, relative, sorted."""
    found = []
    for current, dirs, files in os.walk(directory):
        dirs.sort()
        for name in sorted(files + [d for d in dirs if (Path(current) / d).is_symlink()]):
            relative = (Path(current) / name).relative_to(directory).as_posix()
            if relative != MANIFEST_NAME:
                found.append(relative)
    return sorted(found)


def _first_difference(made: Any, now: Any, prefix: str) -> str:
    """The first params key whose value differs, as ``key X (now Y)``, for the error line."""
    if isinstance(made, Mapping) and isinstance(now, Mapping):
        for key in sorted(set(made) | set(now)):
            if canonical(made.get(key)) != canonical(now.get(key)):
                return _first_difference(made.get(key), now.get(key), f"{prefix}.{key}" if prefix else key)
    return f"{prefix or 'params'} {canonical(made)} where params.yaml now has {canonical(now)}"


def read(directory: Path, stage: str, shown: str) -> dict[str, Any]:
    path = directory / MANIFEST_NAME
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AlignbenchError(
            f"{shown}: no {MANIFEST_NAME} (its stage did not finish, or wrote before manifests); "
            f"{rerun_hint(stage)}"
        ) from None
    except (OSError, ValueError) as exc:
        raise AlignbenchError(f"{shown}/{MANIFEST_NAME}: unreadable ({exc}); {rerun_hint(stage)}") from None
    if not isinstance(manifest, dict) or manifest.get("schema") != SCHEMA:
        raise AlignbenchError(f"{shown}/{MANIFEST_NAME}: not a {SCHEMA} manifest; {rerun_hint(stage)}")
    if not isinstance(manifest.get("files"), dict):
        raise AlignbenchError(f"{shown}/{MANIFEST_NAME}: 'files' is not a mapping; {rerun_hint(stage)}")
    return manifest


def verify(
    root: Path,
    relative: str,
    stage: str,
    params: Mapping[str, Any] | None = None,
    engine: str | None = None,
) -> dict[str, Any]:
    """Refuse ``root/relative`` unless its manifest says ``stage`` made it from ``params`` (with
    ``engine``) and every file is exactly as listed; return the manifest."""
    directory = root / relative
    manifest = read(directory, stage, relative)
    hint = rerun_hint(stage)
    if manifest.get("stage") != stage:
        raise AlignbenchError(
            f"{relative}: made by stage {manifest.get('stage')!r}, expected {stage}; {hint}"
        )
    if manifest.get("params_digest") != params_digest(params):
        difference = _first_difference(manifest.get("params"), json.loads(canonical(params)), "")
        raise AlignbenchError(f"{relative}: made with {difference}; {hint}")
    if manifest.get("engine") != engine:
        raise AlignbenchError(
            f"{relative}: made by engine {manifest.get('engine')}, this checkout is {engine}; {hint}"
        )
    listed: dict[str, Any] = manifest["files"]
    inside = sorted(name for name in listed if not name.startswith("../"))
    present = _on_disk(directory)
    stray = sorted(set(present) - set(inside))
    if stray:
        raise AlignbenchError(
            f"{relative}: {len(stray)} file(s) its stage did not write, first {stray[0]}; "
            f"remove them or {hint}"
        )
    for name in sorted(listed):
        path = directory / PurePosixPath(name)
        if not path.is_file() or path.is_symlink():
            raise AlignbenchError(f"{relative}: {name} is listed in {MANIFEST_NAME} but missing; {hint}")
        if _sha256_file(path) != listed[name]:
            raise AlignbenchError(
                f"{relative}: {name} is not the file its stage wrote (mixed or edited output); {hint}"
            )
    return manifest


def digest(root: Path, relative: str) -> str:
    """sha256 of a directory's manifest bytes: a consumer's record of exactly which output it read."""
    path = root / relative / MANIFEST_NAME
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return ""
