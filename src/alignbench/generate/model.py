"""An editable document model: units mirror blocks one for one but carry a stable id.

Addresses are positional and change with every edit; the unit id does not, so the ground truth
of a pair is simply "the unit with this id on both sides".
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import repeat
from typing import Any

from alignbench.blocks import Block, BlockTree
from alignbench.blocks import normalise as _normalise

# Every verify re-derives the shape of a whole document from texts that barely change between
# operators: ~320k normalisations per generate run, so the recent ones are remembered.
normalise = lru_cache(maxsize=1 << 16)(_normalise)


@dataclass
class Unit:
    """One mutable node; ``text`` may hold line breaks (a rewrap), its normalised form is what counts."""

    uid: str
    kind: str
    label: str | None = None
    text: str = ""
    level: int = 0
    attrs: dict[str, Any] = field(default_factory=dict)
    children: list[Unit] = field(default_factory=list)

    @property
    def words(self) -> int:
        return len(normalise(self.text).split())


@dataclass
class Document:
    """A unit tree plus the counter that names units created by operators (``n0001`` ...)."""

    root: Unit
    next_new: int = 1
    # Identity facts that "same uid on both sides" cannot express, written by the operators.
    moved: list[str] = field(default_factory=list)  # topmost moved units (move_block, reorder)
    section_moves: list[str] = field(default_factory=list)  # headings of sections moved whole
    splits: list[tuple[list[str], list[str]]] = field(default_factory=list)  # (source ids, test ids)
    merges: list[tuple[list[str], list[str]]] = field(default_factory=list)
    locked: list[str] = field(default_factory=list)  # split/merge products: no further operator
    # units whose parent changed while their place in reading order did not (a heading demoted to a
    # line, a line promoted to a heading: issue 29's format-only revisions)
    reparented: list[str] = field(default_factory=list)
    # units whose words were rewritten a third or more (issue 29 class 3): never rewritten twice, so
    # each keeps the share its operator recorded
    reworded: list[str] = field(default_factory=list)

    def new_uid(self) -> str:
        uid = f"n{self.next_new:04d}"
        self.next_new += 1
        return uid

    def clone(self) -> Document:
        """A deep copy. The unit tree is copied by hand (``copy.deepcopy``'s memo bookkeeping over ~100k
        units was a quarter of the generate stage); every other field still goes through deepcopy."""
        root = _clone_unit(self.root)
        return copy.deepcopy(self, {id(self.root): root})

    def walk(self) -> Iterator[tuple[Unit | None, Unit]]:
        """``(parent, unit)`` for every unit, the root first, in document order."""
        return walk(self.root)

    def index(self) -> dict[str, tuple[Unit | None, Unit]]:
        return {unit.uid: (parent, unit) for parent, unit in self.walk()}


_ATOMS = (str, int, float, bool, type(None))


def _clone_unit(unit: Unit) -> Unit:
    attrs = unit.attrs
    if all(isinstance(value, _ATOMS) for value in attrs.values()):
        attrs = dict(attrs)
    else:
        attrs = copy.deepcopy(attrs)
    return Unit(
        uid=unit.uid,
        kind=unit.kind,
        label=unit.label,
        text=unit.text,
        level=unit.level,
        attrs=attrs,
        children=[_clone_unit(child) for child in unit.children],
    )


def walk(root: Unit) -> Iterator[tuple[Unit | None, Unit]]:
    stack: list[tuple[Unit | None, Unit]] = [(None, root)]
    while stack:
        parent, unit = stack.pop()
        yield parent, unit
        children = unit.children
        if children:  # the (unit, child) tuples made in C: ~450k per generate run
            stack.extend(zip(repeat(unit, len(children)), reversed(children), strict=True))


def from_tree(tree: BlockTree, prefix: str = "s") -> Document:
    """Units named ``<prefix>0001`` ... in document order, so ids are stable for a given source."""
    counter = [0]

    def convert(block: Block) -> Unit:
        counter[0] += 1
        return Unit(
            uid=f"{prefix}{counter[0]:04d}",
            kind=block.kind,
            label=block.label,
            text=block.text,
            level=block.level,
            attrs={k: block.attrs[k] for k in sorted(block.attrs)},
            children=[convert(child) for child in block.children],
        )

    return Document(convert(tree.root))


def to_block(unit: Unit) -> Block:
    return Block(
        kind=unit.kind,
        label=unit.label,
        text=unit.text,
        level=unit.level,
        attrs=dict(unit.attrs),
        children=tuple(to_block(child) for child in unit.children),
    )


def shape(block: Block) -> tuple[Any, ...]:
    """What a re-read must reproduce: kind, label, normalised text and the children, recursively."""
    return (block.kind, block.label, normalise(block.text), tuple(map(shape, block.children)))


def unit_shape(unit: Unit) -> tuple[Any, ...]:
    return (unit.kind, unit.label, normalise(unit.text), tuple(map(unit_shape, unit.children)))


def addresses(doc: Document, tree: BlockTree) -> dict[str, Block]:
    """Map every unit id to the block the reader produced for it (the trees have the same shape)."""
    found: dict[str, Block] = {}

    def pair(unit: Unit, block: Block) -> None:
        found[unit.uid] = block
        for child_unit, child_block in zip(unit.children, block.children, strict=True):
            pair(child_unit, child_block)

    pair(doc.root, tree.root)
    return found
