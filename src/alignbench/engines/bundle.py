"""The corpus as a data artefact: what ``alignbench evaluate`` needs outside a checkout of the pipeline.

``alignbench bundle OUT.tar.gz`` (run in a checkout, after ``dvc repro``) packs ``params.yaml`` and every
labelled pair with its documents and manifests (``corpus/labels/real``, ``corpus/real``,
``corpus/synthetic``: ~32 MB, ~6 MB packed) into one deterministic archive: sorted entries, no
owner, no time, so the same corpus always packs to the same bytes, and its sha256 names the corpus.
The archive is published beside a release rather than shipped inside the wheel: the wheel stays small
and the corpus can be re-labelled without a new release of the code.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import tarfile
import tempfile
from pathlib import Path

from alignbench.errors import AlignbenchError

MEMBERS: tuple[str, ...] = ("params.yaml", "corpus/labels/real", "corpus/real", "corpus/synthetic")


def _files(root: Path) -> list[Path]:
    found: list[Path] = []
    for member in MEMBERS:
        path = root / member
        if not path.exists():
            raise AlignbenchError(f"{path}: missing; run `dvc repro` in a checkout before bundling")
        found += [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    return found


def pack(root: Path, out: Path) -> str:
    """Write the bundle; return its sha256."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path in _files(root):
            data = path.read_bytes()
            info = tarfile.TarInfo(path.relative_to(root).as_posix())
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            tar.addfile(info, io.BytesIO(data))
    packed = gzip.compress(buffer.getvalue(), compresslevel=9, mtime=0)
    out.write_bytes(packed)
    return hashlib.sha256(packed).hexdigest()


def unpack(bundle: Path) -> Path:
    """Extract a bundle into a fresh temporary directory (the caller's to remove) and return it."""
    if not bundle.is_file():
        raise AlignbenchError(
            f"{bundle}: no such corpus bundle; make one with `alignbench bundle OUT.tar.gz`"
        )
    target = Path(tempfile.mkdtemp(prefix="alignbench-corpus-"))
    try:
        with tarfile.open(bundle, mode="r:gz") as tar:
            tar.extractall(target, filter="data")  # refuses absolute paths, '..' and links out of target
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise AlignbenchError(f"{bundle}: not a readable corpus bundle ({exc}); download it again") from None
    return target
