"""The block model: one immutable tree shape that every reader produces and every pass reads.

Addresses are positional (``/section[2]/list_item[3]``) and digests are content hashes, so a
label file can anchor to both and notice when a reader change moves or alters a block.

A text block's digest hashes its label and normalised text; a row's, its cells' texts. A container
(document, section, table) has no text of its own, so its digest hashes its kind and its children's
digests in order (a Merkle digest): two sections share a digest exactly when they hold the same
heading and the same content, and any edit inside changes every digest above it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from alignbench.errors import AlignbenchError

KINDS: tuple[str, ...] = (
    "document",
    "section",
    "heading",
    "paragraph",
    "list_item",
    "table",
    "row",
    "cell",
)
CONTAINER_KINDS: tuple[str, ...] = ("document", "section", "table", "row")
TEXT_KINDS: tuple[str, ...] = ("heading", "paragraph", "list_item", "cell")
# Labelled blocks are what a label file must account for: text-bearing blocks plus rows.
LABELLED_KINDS: tuple[str, ...] = ("heading", "paragraph", "list_item", "row", "cell")

_KIND_SET = frozenset(KINDS)
ROOT_ADDRESS = "/"
UNIT_SEPARATOR = "\x1f"
_DICT_KEYS: tuple[str, ...] = ("kind", "label", "text", "level", "attrs", "children")
_STEP = re.compile(r"/(document|section|heading|paragraph|list_item|table|row|cell)\[([1-9][0-9]*)\]")
_WS = re.compile(r"\s+")
_CHILDREN = attrgetter("children")


def is_renumber(source_label: str | None, test_label: str | None) -> bool:
    """A renumber is a number that changed: both labels present and different.

    A label that appears or disappears (a bullet item that became `3.`, a clause that lost its
    number) says nothing about numbering; the engine reports it as a modification and the scorer
    counts it in no renumber set, so no renumber ever has an empty label on either side.
    """
    return bool(source_label) and bool(test_label) and source_label != test_label


def normalise(text: str) -> str:
    """Collapse every whitespace run to one space and strip the ends; case is kept."""
    return _WS.sub(" ", text).strip()


def digest_of(label: str | None, normalised_text: str) -> str:
    """First 16 hex chars of sha256 over ``label \\x1f text`` (or the text alone without a label)."""
    payload = normalised_text if not label else f"{label}{UNIT_SEPARATOR}{normalised_text}"
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


# Separates a container's kind from its children's digests; no text block's payload starts with it.
CONTAINER_SEPARATOR = "\x1d"


def container_digest_of(kind: str, child_digests: Iterable[str]) -> str:
    """First 16 hex chars of sha256 over ``\x1d kind \x1d`` and the children's digests joined by ``\x1f``."""
    payload = f"{CONTAINER_SEPARATOR}{kind}{CONTAINER_SEPARATOR}{UNIT_SEPARATOR.join(child_digests)}"
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


def parse_address(address: str) -> tuple[tuple[str, int], ...]:
    """Split an address into ``(kind, n)`` steps; ``/`` is the empty tuple."""
    if address == ROOT_ADDRESS:
        return ()
    steps: list[tuple[str, int]] = []
    pos = 0
    while pos < len(address):
        match = _STEP.match(address, pos)
        if match is None:
            raise AlignbenchError(
                f"bad address {address!r}: expected '/' or steps like '/section[2]/list_item[3]'"
            )
        steps.append((match.group(1), int(match.group(2))))
        pos = match.end()
    if not steps:
        raise AlignbenchError(f"bad address {address!r}: expected '/' or '/<kind>[n]' steps")
    return tuple(steps)


def format_address(steps: tuple[tuple[str, int], ...] | list[tuple[str, int]]) -> str:
    """Inverse of :func:`parse_address`."""
    if not steps:
        return ROOT_ADDRESS
    return "".join(f"/{kind}[{n}]" for kind, n in steps)


class _EmptyAttrs(dict):  # type: ignore[type-arg]
    """An empty ``attrs`` that cannot be filled: most blocks have no attributes, and one shared
    instance spares a 20,000-clause pair 45,000 empty dicts. A plain dict to every reader (equal to
    ``{}``, JSON-encodable, picklable); only mutation is refused, as blocks are immutable."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("a block's attrs are immutable")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]
    __ior__ = _refuse  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "{}"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_EmptyAttrs, ())


# Shared by every block built without attributes (the readers use it; ``Block(...)`` still defaults
# to a fresh dict).
EMPTY_ATTRS: Mapping[str, Any] = _EmptyAttrs()


@dataclass(frozen=True, slots=True)
class Block:
    """One node of a document tree.

    ``label`` is the document's own clause label as written (trimmed, one trailing full stop
    removed) or ``None``; ``text`` never contains it. Containers carry no text of their own.
    ``address`` is filled in by :class:`BlockTree`; a free-standing block has ``""``.
    Slotted: a 20,000-clause pair holds about 45,000 blocks, and a per-block ``__dict__`` was a
    fifth of the process's memory.
    """

    kind: str
    label: str | None = None
    text: str = ""
    level: int = 0
    attrs: Mapping[str, Any] = field(default_factory=dict)
    children: tuple[Block, ...] = ()
    address: str = field(default="", compare=False)
    _digest: str | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in _KIND_SET:
            raise AlignbenchError(f"unknown block kind {self.kind!r}; expected one of {', '.join(KINDS)}")
        if self.kind in CONTAINER_KINDS and self.text:
            raise AlignbenchError(f"{self.kind} blocks are containers and carry no text")
        if not isinstance(self.children, tuple):
            object.__setattr__(self, "children", tuple(self.children))

    __hash__ = None  # type: ignore[assignment]  # attrs is a dict; key blocks by address instead

    @property
    def is_container(self) -> bool:
        return self.kind in CONTAINER_KINDS

    @property
    def normalised_text(self) -> str:
        """Normalised own text; for a row, its cells' normalised texts joined with ``\\x1f``."""
        if self.kind == "row":
            return UNIT_SEPARATOR.join(normalise(c.text) for c in self.children if c.kind == "cell")
        return normalise(self.text)

    @property
    def digest(self) -> str:
        """Content hash: label and text for a text block or row; kind and children for a container.

        Computed on first use and kept: aligning never needs it, labelling and printing do."""
        digest = self._digest
        if digest is None:
            if self.kind in CONTAINER_KINDS and self.kind != "row":
                digest = container_digest_of(self.kind, (child.digest for child in self.children))
            else:
                digest = digest_of(self.label, self.normalised_text)
            object.__setattr__(self, "_digest", digest)
        return digest

    def to_dict(self) -> dict[str, Any]:
        """Fixed key order: kind, label, text, level, attrs, children."""
        return {
            "kind": self.kind,
            "label": self.label,
            "text": self.text,
            "level": self.level,
            "attrs": {k: self.attrs[k] for k in sorted(self.attrs)},
            "children": [child.to_dict() for child in self.children],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Block:
        if not isinstance(data, Mapping):
            raise AlignbenchError(f"block must be a mapping, got {type(data).__name__}")
        unknown = sorted(set(data) - set(_DICT_KEYS))
        if unknown:
            raise AlignbenchError(f"unknown block key(s): {', '.join(unknown)}")
        if "kind" not in data:
            raise AlignbenchError("block is missing required key 'kind'")
        return cls(
            kind=data["kind"],
            label=data.get("label"),
            text=data.get("text", ""),
            level=int(data.get("level", 0)),
            attrs=dict(data.get("attrs") or {}),
            children=tuple(cls.from_dict(c) for c in data.get("children", ())),
        )


# Each slot's setter, by field (the dataclass's field order): a frozen dataclass refuses plain
# assignment, and these fill a new block's slots directly (``trusted_block``, the stage cache's
# unpickling; the readers' tree builder inlines the same calls).
SLOT_FIELDS: tuple[str, ...] = ("kind", "label", "text", "level", "attrs", "children", "address", "_digest")
SLOT_SETTERS = tuple(Block.__dict__[name].__set__ for name in SLOT_FIELDS)
_new_object = object.__new__


def trusted_block(
    kind: str,
    label: str | None,
    text: str,
    level: int,
    attrs: Mapping[str, Any],
    children: tuple[Block, ...],
    address: str,
) -> Block:
    """A block built from parts already known valid (a reader's builder, a re-addressed block): the
    frozen dataclass's ``__init__`` sets each slot through ``object.__setattr__`` and then validates,
    which was half the cost of freezing a tree; this fills the slots directly, once each."""
    block = _new_object(Block)
    set_kind, set_label, set_text, set_level, set_attrs, set_children, set_address, set_digest = SLOT_SETTERS
    set_kind(block, kind)
    set_label(block, label)
    set_text(block, text)
    set_level(block, level)
    set_attrs(block, attrs)
    set_children(block, children)
    set_address(block, address)
    set_digest(block, None)
    return block


def _with_addresses(block: Block, address: str) -> Block:
    counts: dict[str, int] = {}
    children = []
    prefix = "" if address == ROOT_ADDRESS else address
    for child in block.children:
        counts[child.kind] = counts.get(child.kind, 0) + 1
        children.append(_with_addresses(child, f"{prefix}/{child.kind}[{counts[child.kind]}]"))
    # Direct construction, not dataclasses.replace: this runs once per block of every tree read.
    return trusted_block(
        block.kind, block.label, block.text, block.level, block.attrs, tuple(children), address
    )


class BlockTree:
    """A document as a tree of blocks, with addresses assigned and an index for lookup.

    ``dropped`` counts what the reader discarded (HTML blocks, thematic breaks, images ...),
    so nothing disappears without a trace.
    """

    def __init__(
        self,
        root: Block,
        *,
        dropped: Mapping[str, int] | None = None,
        drops: Sequence[tuple[str, int, str]] = (),
        format: str | None = None,
        profile: str | None = None,
        addressed: bool = False,
    ) -> None:
        """``addressed=True`` promises every block already carries its address (the readers build
        them that way, saving a second copy of every block); otherwise addresses are assigned here."""
        if root.kind != "document":
            raise AlignbenchError(f"a tree's root must be a document block, got {root.kind!r}")
        self.root: Block = (
            root if addressed and root.address == ROOT_ADDRESS else _with_addresses(root, ROOT_ADDRESS)
        )
        self.dropped: dict[str, int] = {k: int(dropped[k]) for k in sorted(dropped or {})}
        # Each drop's (kind, 1-based source line or 0, source text), in document order (readers.drops).
        self.drops: tuple[tuple[str, int, str], ...] = tuple(drops)
        self.format = format
        self.profile = profile
        self._order: list[Block] = _preorder(self.root)
        # Built on the first lookup: aligning walks the tree and never looks a block up by address.
        self._index: dict[str, Block] | None = None

    @property
    def _by_address(self) -> dict[str, Block]:
        index = self._index
        if index is None:
            index = self._index = {b.address: b for b in self._order}
        return index

    def blocks(self) -> Iterator[Block]:
        """Every block, the root first, in document (pre-)order."""
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)

    def find(self, address: str) -> Block:
        block = self._by_address.get(address)
        if block is None:
            parse_address(address)  # a malformed address gets the clearer message
            raise AlignbenchError(f"no block at address {address}")
        return block

    def get(self, address: str) -> Block | None:
        return self._by_address.get(address)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "profile": self.profile,
            "dropped": dict(self.dropped),
            "drops": [{"kind": k, "line": n, "text": t} for k, n, t in self.drops],
            "root": self.root.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BlockTree:
        unknown = sorted(set(data) - {"format", "profile", "dropped", "drops", "root"})
        if unknown:
            raise AlignbenchError(f"unknown tree key(s): {', '.join(unknown)}")
        return cls(
            Block.from_dict(data["root"]),
            dropped=data.get("dropped") or {},
            drops=_drops_from(data.get("drops", [])),
            format=data.get("format"),
            profile=data.get("profile"),
        )


def _drops_from(items: Any) -> list[tuple[str, int, str]]:
    """A tree dict's ``drops`` (``readers.drops``): each a kind, a line and the dropped text."""
    drops: list[tuple[str, int, str]] = []
    if items is None:
        return drops
    for index, item in enumerate(items if isinstance(items, list) else [items]):
        if not (
            isinstance(item, Mapping)
            and isinstance(item.get("kind"), str)
            and isinstance(item.get("line"), int)
            and not isinstance(item.get("line"), bool)
            and isinstance(item.get("text"), str)
        ):
            raise AlignbenchError(f"tree drops[{index}]: expected {{kind: text, line: integer, text: text}}")
        drops.append((item["kind"], item["line"], item["text"]))
    return drops


def _preorder(root: Block) -> list[Block]:
    """Every block under ``root`` (itself first) in document pre-order. Iterative, so no tree meets a
    recursion limit; a block whose children are all leaves hands them over in one ``extend`` (most
    blocks are leaves in such runs: a section of clauses), only a child with children of its own is
    stacked."""
    order: list[Block] = []
    append, extend = order.append, order.extend
    stack = [root]
    pop, push = stack.pop, stack.extend
    while stack:
        block = pop()
        append(block)
        kids = block.children
        if kids:
            if any(map(_CHILDREN, kids)):
                push(reversed(kids))
            else:
                extend(kids)
    return order
