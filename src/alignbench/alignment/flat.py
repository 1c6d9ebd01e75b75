"""A block tree flattened into arrays indexed by document order, computed once per run.

The walk then works on integers only: parents, children, sibling positions, kind classes, match
keys, labels and token sequences are all looked up by index, never recomputed.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import attrgetter

from alignbench.alignment.names import name_words
from alignbench.alignment.similarity import Vocabulary, tokenise
from alignbench.blocks import UNIT_SEPARATOR, Block, BlockTree

# Blocks only ever pair within a kind class; paragraph and list_item share one on purpose.
KIND_CLASS: dict[str, int] = {
    "heading": 0,
    "paragraph": 1,
    "list_item": 1,
    "section": 2,
    "document": 2,
    "table": 3,
    "row": 4,
    "cell": 5,
}
CLASS_HEADING, CLASS_TEXT, CLASS_SECTION, CLASS_TABLE, CLASS_ROW, CLASS_CELL = range(6)
_CONTAINER_KINDS = frozenset({"document", "section", "table", "row"})
_TEXT_KINDS = frozenset({"paragraph", "list_item"})
_SECTION_KINDS = frozenset({"section", "document"})
_CONTAINER_CLASSES = frozenset({CLASS_SECTION, CLASS_TABLE, CLASS_ROW})
# Classes whose blocks have a name (a heading, or a section/document headed by one).
NAMED_CLASSES = frozenset({CLASS_HEADING, CLASS_SECTION})
Names = tuple[tuple[str, ...], tuple[str, ...]]


# The children of a leaf: one shared empty tuple rather than an empty list per block.
_LEAF: tuple[int, ...] = ()
# One getter per column, each mapped over the block list at C speed. A single five-field getter
# transposed by ``zip(*rows)`` was slower, and at 20,000 blocks twice as slow: the transposition calls
# next() on one iterator per block, five times over, and those iterators and row tuples (megabytes)
# no longer fit in the cache.
_COLUMN_GETTERS = tuple(map(attrgetter, ("address", "kind", "text", "label", "children")))


def _structure(
    kids_of: Sequence[Sequence[Block]],
) -> tuple[list[int], list[int], list[Sequence[int]], list[int]]:
    """Each block's parent, sibling position and children, and the blocks with children in document
    order, from the children column of a pre-order block list (``BlockTree.blocks()``, a list the tree
    already holds): no block is visited again, only the blocks with children (a few in a hundred).

    They are taken last first. In pre-order a block's first child comes right after it, and each
    later child after the subtree of the one before, so when the next block with children lies beyond
    a block's ``count`` following places, those places are its children, all leaves, and its columns
    are filled a slice at a time; otherwise each child's place is the last one's plus that child's
    subtree size, known already (a subtree comes after its root). A childless container is a leaf."""
    n = len(kids_of)
    parents = list(compress(range(n), kids_of))
    parent = [-1] * n
    position = [0] * n
    children: list[Sequence[int]] = [_LEAF] * n
    size: dict[int, int] = {}  # the subtree size of each block with children
    after = n  # the next block with children, in document order
    for p in reversed(parents):
        count = len(kids_of[p])
        first = p + 1
        end = first + count
        if after >= end:
            children[p] = list(range(first, end))
            parent[first:end] = [p] * count
            position[first:end] = range(count)
            size[p] = count + 1
        else:
            own: list[int] = []
            j = first
            for k in range(count):
                own.append(j)
                parent[j] = p
                position[j] = k
                j += size.get(j, 1)
            children[p] = own
            size[p] = j - p
        after = p
    return parent, position, children, parents


def unmatched(partner: list[int]) -> list[int]:
    """The blocks with no partner (``partner[i] == -1``), the root left out, in document order.

    The passes after the descent look only at leftovers, a few in a hundred blocks: ``list.index``
    finds each one at C speed (an identity test per block: -1 is one cached int), so the bytecode
    runs once per leftover rather than once per block."""
    found: list[int] = []
    index, append = partner.index, found.append
    i = 0
    try:
        while True:
            i = index(-1, i + 1)
            append(i)
    except ValueError:
        return found


def fast_normalise(text: str) -> str:
    """Same result as :func:`alignbench.blocks.normalise` (str.split and regex ``\\s`` agree on
    whitespace; a test holds them equal), at a fraction of the cost on 20,000 blocks. Text that is
    already normalised (most of it) is returned as the same object, so no second copy stays alive.

    Every character ``str.split`` splits on is a control or a separator, which ``isprintable`` turns
    down, while the ASCII space is the one separator it accepts: printable text with no double,
    leading or trailing space is already normalised, and one C scan says so without splitting it into
    words and joining them again (a clause's text splits into 25 strings)."""
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    normalised = " ".join(text.split())
    return text if normalised == text else normalised


# The ASCII characters ``str.split`` splits on, the space left out.
_ASCII_SPACES = ("\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f")


def _no_space_but_the_space(text: str) -> bool:
    """No white space in ``text`` other than the ASCII space. ASCII text (a flag on the string, no
    scan) is searched for the nine other ASCII white-space characters, each search at memchr speed;
    other text is asked ``isprintable``, which turns down every white space but the space."""
    if text.isascii():
        return not any(space in text for space in _ASCII_SPACES)
    return text.isprintable()


def normalised_texts(texts: list[str]) -> list[str]:
    """``[fast_normalise(t) for t in texts]``, each already normalised text the same object.

    A reader's texts are nearly all normalised already, which the whole list shows at once: the
    non-empty texts joined by one space have no white space but spaces, no double space and no space
    at an end exactly when no text has white space but spaces, or a double, leading or trailing space
    (a text's leading or trailing space would meet the joining space): when every text is already
    normalised. A few C scans of one string then stand in for a call per block, and only one of them
    looks for two characters (a two-character search is hundreds of times slower than ``memchr``);
    any other list takes the per-text path."""
    joined = " ".join(filter(None, texts))
    if _no_space_but_the_space(joined) and "  " not in joined and joined[:1] != " " and joined[-1:] != " ":
        return list(texts)
    return list(map(fast_normalise, texts))


class FlatDocument:
    """One side of a comparison. ``key[i]`` is None for a keyless container."""

    def __init__(self, tree: BlockTree, vocabulary: Vocabulary) -> None:
        blocks = list(tree.blocks())
        n = len(blocks)
        # Five columns, each one getter mapped over the blocks (_COLUMN_GETTERS); the tree's shape comes
        # from the children column alone, and containers (a few per hundred) are fixed after.
        addresses, kind_column, texts, label_column, kids_of = (
            list(map(get, blocks)) for get in _COLUMN_GETTERS
        )
        parent, position, children, parents = _structure(kids_of)
        self.blocks = blocks
        self.parent = parent
        self.position = position
        self.children = children
        self.parents = parents  # the blocks with children, in document order
        self.address = addresses
        self.kind = kinds = kind_column
        self.cls = list(map(KIND_CLASS.__getitem__, kinds))
        self.has_cells = CLASS_CELL in self.cls
        containers = list(compress(range(n), map(_CONTAINER_KINDS.__contains__, kinds)))
        # A container carries no text: its entry is set to "" below, as its own text always is.
        self.text = text = normalised_texts(texts)
        self.vocabulary = vocabulary  # shared by both documents of a comparison
        self._tokens: list[tuple[int, ...] | None] = [None] * n
        self.label = labels = label_column
        self.key: list[str | None] = list(text)
        self.effective_label: list[str | None] = list(labels)
        for i in containers:
            text[i] = ""
        key, effective_label = self.key, self.effective_label
        for i in containers:
            if kinds[i] in _SECTION_KINDS:
                # The key (_key) and the effective label (the heading's) share one search for the heading.
                h = self.heading_child(i)
                key[i] = self._section_key(i, h)
                if not labels[i]:
                    effective_label[i] = None if h is None else labels[h]
            else:
                key[i] = self._key(i)
        self._subtree_tokens: dict[int, tuple[int, ...]] = {}
        self._names: dict[int, Names | None] = {}

    def __len__(self) -> int:
        return len(self.blocks)

    def heading_child(self, i: int) -> int | None:
        """The first heading among a section's (or the document's) children: what names it."""
        if self.kind[i] not in ("section", "document"):
            return None
        for c in self.children[i]:
            if self.kind[c] == "heading":
                return c
        return None

    def _key(self, i: int) -> str | None:
        kind = self.kind[i]
        if kind == "row":
            cells = [c for c in self.children[i] if self.kind[c] == "cell"]
            return UNIT_SEPARATOR.join(self.text[c] for c in cells) if cells else None
        if kind in ("section", "document"):
            return self._section_key(i, self.heading_child(i))
        if kind == "table":
            return None
        return self.text[i]

    def _section_key(self, i: int, h: int | None) -> str | None:
        """The key of section (or document) ``i`` headed by ``h``: the heading's label and title."""
        if h is None:
            return None
        title = self.text[h]
        if not title:
            # A label-only heading ("SEC. 552." with its text below) names nothing by itself: keyed
            # on the number alone, two different provisions that share a number would pair exactly.
            # The first text block after the heading stands in for the title.
            body = next(
                (c for c in self.children[i] if c != h and self.kind[c] in _TEXT_KINDS and self.text[c]),
                None,
            )
            title = "" if body is None else UNIT_SEPARATOR + self.text[body]
        return f"{self.label[h] or ''}{UNIT_SEPARATOR}{title}"

    def names(self, i: int) -> Names | None:
        """A heading's (or a headed container's) name as words: without and with its label.

        A clause number may sit in the label on one side and in the text on the other ("1" +
        "Definitions" against "Section 1 - Definitions."), which the labelled reading meets.
        ``None`` when there is no heading or its text has no words.
        """
        if i in self._names:
            return self._names[i]
        h = i if self.kind[i] == "heading" else self.heading_child(i)
        found: Names | None = None
        if h is not None:
            bare = name_words(self.text[h])
            if bare:
                found = (bare, name_words(f"{self.label[h] or ''} {self.text[h]}"))
        self._names[i] = found
        return found

    def heading_names(self) -> list[tuple[str, ...]]:
        """The bare name of every heading, in document order: what name weights are counted over."""
        return [names[0] for i in range(len(self)) if self.kind[i] == "heading" and (names := self.names(i))]

    def name_label(self, i: int) -> str | None:
        """The label of the heading that names block ``i`` (itself, for a heading)."""
        h = i if self.kind[i] == "heading" else self.heading_child(i)
        return None if h is None else self.label[h]

    def tokens(self, i: int) -> tuple[int, ...]:
        """Own tokens, computed on first use: most blocks pair exactly and are never tokenised.

        Case-folded: "IS NOT A LAW FIRM" re-set as "is not a law firm" keeps its words (issue #29),
        and key equality (the exact pass) still sees the change."""
        toks = self._tokens[i]
        if toks is None:
            text = self.text[i]
            toks = self._tokens[i] = self.vocabulary.encode(tokenise(text.casefold())) if text else ()
        return toks

    def is_container(self, i: int) -> bool:
        return self.cls[i] in _CONTAINER_CLASSES

    def sim_tokens(self, i: int) -> tuple[int, ...]:
        """What similarity compares: own tokens for text blocks, the whole subtree's for containers."""
        if self.cls[i] not in _CONTAINER_CLASSES:
            return self.tokens(i)
        cached = self._subtree_tokens.get(i)
        if cached is None:
            parts: list[int] = []
            stack = list(reversed(self.children[i]))
            while stack:
                j = stack.pop()
                parts.extend(self.tokens(j))
                stack.extend(reversed(self.children[j]))
            cached = self._subtree_tokens[i] = tuple(parts)
        return cached
