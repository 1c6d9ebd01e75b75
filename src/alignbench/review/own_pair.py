"""``alignbench review OLD NEW``: review two documents of your own, with no corpus and no ``prepare``.

A corpus pair gets its draft from ``label init``, which reads the manifest ``prepare`` wrote. A user's
own two documents have neither, so this module writes the same engine-seeded draft (every row
``proposed``, moves never seeded, :func:`alignbench.labels.init.seed_labels`) straight from the two
files, to a labels file outside the corpus. The review page and ``label compile --from`` then work on
that file exactly as on a corpus pair's, and ``label check`` accepts it.

Paths in a labels file are relative to a root directory (``--root``, default here): both documents must
lie under it, so the file stays valid when the directory is moved as a whole. The draft is never written
onto an input, a committed file or a labels file under ``corpus/labels``; an existing draft for the
same two documents is reused, so running the command again keeps a review already compiled into it.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path
from typing import Any

from alignbench.errors import AlignbenchError

OWN_TIER = "real"
PREPARED_BY = "alignbench review OLD NEW"


def pair_name(old: Path, new: Path) -> str:
    """A pair id from the two file names (the labels schema's ``pair_id``: lower case, ``[a-z0-9._-]``)."""

    def slug(path: Path) -> str:
        return re.sub(r"[^a-z0-9._-]+", "-", path.stem.lower()).strip("-._") or "document"

    return f"{slug(old)}-to-{slug(new)}"


def default_labels_path(old: Path, new: Path) -> Path:
    return Path(f"review-{pair_name(old, new)}.yaml")


def _relative(path: Path, root: Path, what: str) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        raise AlignbenchError(
            f"{what} {path}: not under the root directory {root.resolve()}; paths in a labels file are "
            "relative to it: run from a directory that holds both documents, or pass --root DIR"
        ) from None


def _is_committed(path: Path) -> bool:
    """True when git tracks ``path`` (a committed file is never overwritten by a draft)."""
    parent = path.resolve().parent
    if not parent.is_dir():
        return False
    try:
        done = subprocess.run(
            ["git", "-C", str(parent), "ls-files", "--error-unmatch", path.name],
            capture_output=True,
            check=False,
        )
    except OSError:
        return False
    return done.returncode == 0


def refuse_overwrite(target: Path, inputs: list[Path], what: str) -> None:
    """One line and nothing written when ``target`` is an input, a corpus labels file or committed."""
    resolved = target.resolve()
    for given in inputs:
        if given.resolve() == resolved:
            raise AlignbenchError(f"{what} {target}: is one of the input documents; choose another path")
    parts = resolved.parts
    if any(parts[i : i + 2] == ("corpus", "labels") for i in range(len(parts) - 1)):
        raise AlignbenchError(
            f"{what} {target}: is inside a corpus's labels; write your own pair's labels outside corpus/"
        )
    if target.exists() and _is_committed(target):
        raise AlignbenchError(f"{what} {target}: is a committed file; choose a path git does not track")


def _document(path: Path, root: Path, what: str) -> dict[str, Any]:
    from alignbench.readers import SUFFIX_FORMATS
    from alignbench.readers.profiles import DEFAULT_PROFILE_FOR_FORMAT

    if not path.is_file():
        raise AlignbenchError(f"{what} {path}: file not found; check the path")
    fmt = SUFFIX_FORMATS.get(path.suffix.lower())
    if fmt is None:
        known = ", ".join(sorted(SUFFIX_FORMATS))
        raise AlignbenchError(
            f"{what} {path}: cannot tell the format from its suffix; rename it to end in one of {known}"
        )
    return {
        "file": _relative(path, root, what),
        "format": fmt,
        "profile": DEFAULT_PROFILE_FOR_FORMAT[fmt],
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
    }


def _provenance(old: Path, new: Path) -> dict[str, Any]:
    return {
        "kind": "hand",
        "origin": f"{old.name} -> {new.name}, reviewed outside the corpus",
        "licence": "not recorded (the reviewer's own documents, not part of the corpus)",
        "attribution": "not recorded",
        "prepared_by": PREPARED_BY,
        "normalisations": [],
    }


def seed_own_pair(root: Path, old: Path, new: Path, labels: Path) -> tuple[dict[str, Any], bool]:
    """The draft for ``old`` -> ``new`` at ``labels`` (written when new); returns it and whether it is new.

    An existing file at ``labels`` is reused only when it is a draft of these very two documents (the
    same paths and bytes): it may hold a review compiled into it, which re-seeding would erase.
    """
    from alignbench.atomic import write_text
    from alignbench.labels.documents import SIDES, open_pair
    from alignbench.labels.init import seed_labels
    from alignbench.labels.io import dump_labels, load_labels
    from alignbench.review.page import engine_alignment

    refuse_overwrite(labels, [old, new], "--labels")
    documents = {"source": _document(old, root, "OLD"), "test": _document(new, root, "NEW")}
    if labels.exists():
        existing = load_labels(labels)
        stale = [s for s in SIDES if existing[s] != documents[s]]
        if stale:
            raise AlignbenchError(
                f"--labels {labels}: holds labels for {existing['source']['file']} -> "
                f"{existing['test']['file']} as they were then ({', '.join(stale)} differ now); "
                "move it away or pass another --labels path"
            )
        return existing, False
    sides = open_pair(documents, root)
    alignment = engine_alignment(root, sides)
    data = seed_labels(pair_name(old, new), OWN_TIER, documents, _provenance(old, new), sides, alignment)
    write_text(labels, dump_labels(data))
    return data, True
