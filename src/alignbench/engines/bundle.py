"""The corpus as a data artefact: what ``alignbench evaluate`` needs outside a checkout of the pipeline.

``alignbench bundle OUT.tar.gz`` (run in a checkout, after ``dvc repro``) packs ``params.yaml`` and every
labelled pair with its documents and manifests (``corpus/labels/real``, ``corpus/real``,
``corpus/synthetic``: ~32 MB, ~6 MB packed) into one deterministic archive: sorted entries, no
owner, no time, so the same corpus always packs to the same bytes, and its sha256 names the corpus.
The archive is published beside a release rather than shipped inside the wheel: the wheel stays small
and the corpus can be re-labelled without a new release of the code.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from alignbench.errors import AlignbenchError

MEMBERS: tuple[str, ...] = ("params.yaml", "corpus/labels/real", "corpus/real", "corpus/synthetic")


def _files(root: Path) -> list[Path]:
    """params.yaml and every file of the corpus directories present; a tier without its directory is
    simply not in the bundle, but a bundle with no labelled pair is refused."""
    if not (root / "params.yaml").is_file():
        raise AlignbenchError(f"{root / 'params.yaml'}: missing; run `alignbench bundle` in a checkout")
    found: list[Path] = [root / "params.yaml"]
    for member in MEMBERS[1:]:
        if (root / member).is_dir():
            found += sorted(p for p in (root / member).rglob("*") if p.is_file())
    if not any(p.name == "labels.yaml" for p in found):
        raise AlignbenchError(f"{root}: no labelled pair under corpus/; run `dvc repro` before bundling")
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


def register(subparsers: Any) -> None:
    """``alignbench bundle OUT.tar.gz``."""
    bundle = subparsers.add_parser(
        "bundle",
        help="pack the corpus data artefact that `evaluate --corpus` reads",
        description="Pack params.yaml and every labelled pair with its documents into one deterministic "
        ".tar.gz (run in a checkout after `dvc repro`); prints its sha256.",
    )
    bundle.add_argument("out", type=Path)
    bundle.set_defaults(func=_bundle)


def _bundle(args: argparse.Namespace) -> int:
    print(f"{args.out}: sha256 {pack(Path('.'), args.out)}")
    return 0
