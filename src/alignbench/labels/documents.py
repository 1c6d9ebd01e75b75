"""Open the two committed documents a label file names, through the readers, so digests are re-derived.

The reader is a parameter (default ``alignbench.readers.read``) so the checks can run on any source of
real :class:`BlockTree` objects; nothing here trusts digests written in the label file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench.blocks import LABELLED_KINDS, Block, BlockTree
from alignbench.errors import AlignbenchError

Reader = Callable[[Path, str, "str | None"], BlockTree]
SIDES: tuple[str, ...] = ("source", "test")


@dataclass(frozen=True)
class Side:
    """One side of a pair: the tree as the readers see it now, and the file's sha256 now."""

    file: str
    tree: BlockTree
    sha256: str

    def labelled(self) -> list[Block]:
        """Labelled blocks (``blocks.LABELLED_KINDS``) in document order; containers excluded."""
        return [b for b in self.tree.blocks() if b.kind in LABELLED_KINDS]


def default_reader(path: Path, format: str, profile: str | None) -> BlockTree:
    try:
        from alignbench.readers import read
    except ModuleNotFoundError as exc:
        raise AlignbenchError(
            f"cannot read {path}: the readers package (alignbench.readers) is not installed"
        ) from exc
    return read(path, format=format, profile=profile)


def open_side(data: dict[str, Any], side: str, root: Path, reader: Reader | None = None) -> Side:
    """Read ``data[side]['file']`` (repo-relative to ``root``) with its declared format and profile."""
    entry = data[side]
    path = root / entry["file"]
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise AlignbenchError(
            f"{side}.file {entry['file']}: document not found under {root.name or '.'}; "
            "commit the document or fix the path"
        ) from None
    if reader is None:
        from alignbench.stagecache import read_tree  # the later stages re-read these same documents

        tree = read_tree(root, path, entry["format"], entry.get("profile"))
    else:
        tree = reader(path, entry["format"], entry.get("profile"))
    return Side(file=entry["file"], tree=tree, sha256=hashlib.sha256(raw).hexdigest())


def open_pair(data: dict[str, Any], root: Path, reader: Reader | None = None) -> dict[str, Side]:
    return {side: open_side(data, side, root, reader) for side in SIDES}
