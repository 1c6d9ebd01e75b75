"""The ``fetch`` stage: make sure every listed upstream file is present with the right bytes.

Files are committed under ``corpus/raw``, so normally this only verifies. A missing file is taken
from a mirror directory, then (only with ``online=True``) from its URL; the bytes are verified
before anything is written, and an existing file with the wrong bytes is never overwritten.
"""

from __future__ import annotations

import hashlib
import os
import urllib.request
from pathlib import Path
from typing import Any

from alignbench.atomic import write_bytes, write_json
from alignbench.corpus.sources import RAW_DIR, Source, load_sources, raw_file
from alignbench.errors import AlignbenchError

RESULT_FILE = "results/fetch.json"
MIRROR_ENV = "ALIGNBENCH_MIRROR"
_URL_TIMEOUT_SECONDS = 60


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _verify(source: Source, data: bytes, *, origin: str) -> None:
    actual = sha256_hex(data)
    if actual != source.sha256:
        raise AlignbenchError(
            f"source {source.id}: sha256 mismatch in {origin}: expected {source.sha256}, got {actual}; "
            "the file was left untouched - restore the upstream bytes or fix corpus/sources.yaml"
        )
    if len(data) != source.bytes:
        raise AlignbenchError(
            f"source {source.id}: {origin} has {len(data)} bytes, corpus/sources.yaml says {source.bytes}; "
            "fix the bytes field"
        )


def _from_mirror(source: Source, mirror: Path) -> bytes | None:
    candidate = mirror / source.path
    if not candidate.is_file():
        return None
    return candidate.read_bytes()


def _from_url(source: Source) -> bytes:
    if not source.url.startswith("https://"):
        raise AlignbenchError(f"source {source.id}: refusing to download from non-https url {source.url!r}")
    try:
        with urllib.request.urlopen(source.url, timeout=_URL_TIMEOUT_SECONDS) as response:
            return response.read()
    except OSError as exc:
        raise AlignbenchError(
            f"source {source.id}: download from {source.url} failed ({exc}); retry later"
        ) from None


def fetch_one(root: Path, source: Source, *, mirror: Path | None, online: bool) -> dict[str, Any]:
    """Verify (or obtain, verify and write) one file; return its verification record."""
    target = raw_file(root, source)
    if target.is_file():
        _verify(source, target.read_bytes(), origin=f"{RAW_DIR}/{source.path}")
        status = "verified"
    else:
        data = _from_mirror(source, mirror) if mirror is not None else None
        status = "copied-from-mirror"
        if data is None:
            if not online:
                where = f" or in mirror {mirror}" if mirror is not None else ""
                raise AlignbenchError(
                    f"source {source.id}: {RAW_DIR}/{source.path} is missing{where}; restore it from git, "
                    f"pass --mirror DIR (or set {MIRROR_ENV}), or re-run with --online"
                )
            data = _from_url(source)
            status = "downloaded"
        _verify(source, data, origin="the mirror" if status == "copied-from-mirror" else source.url)
        write_bytes(target, data)
    return {
        "id": source.id,
        "path": f"{RAW_DIR}/{source.path}",
        "sha256": source.sha256,
        "bytes": source.bytes,
        "status": status,
    }


def fetch(
    root: str | Path, *, mirror: str | Path | None = None, online: bool = False
) -> list[dict[str, Any]]:
    """Verify every source, write ``results/fetch.json`` (sorted by id) and return its records."""
    base = Path(root)
    if mirror is None and os.environ.get(MIRROR_ENV):
        mirror = os.environ[MIRROR_ENV]
    mirror_dir = Path(mirror) if mirror is not None else None
    if mirror_dir is not None and not mirror_dir.is_dir():
        raise AlignbenchError(f"mirror {mirror_dir} is not a directory; pass an existing directory")
    sources = sorted(load_sources(base), key=lambda s: s.id)
    records = [fetch_one(base, s, mirror=mirror_dir, online=online) for s in sources]
    # The status says how this run got the bytes; the committed record must not depend on that.
    stable = [{**r, "status": "verified"} for r in records]
    write_json(base / RESULT_FILE, {"files": stable, "count": len(stable)})
    return records
