"""The flattened document (``alignment.flat``) equals its per-block definition on any tree.

``FlatDocument`` fills its columns a run of leaves at a time and fixes containers afterwards; these
tests hold every column equal to what a plain walk over ``BlockTree.blocks()`` gives block by block.
"""

from __future__ import annotations

from itertools import islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.alignment import AlignmentConfig, flat
from alignbench.alignment.engine import Walk
from alignbench.alignment.exact import exact_pass, pair_by_buckets
from alignbench.alignment.flat import (
    _ASCII_SPACES,
    KIND_CLASS,
    FlatDocument,
    fast_normalise,
    normalised_texts,
    unmatched,
)
from alignbench.alignment.lis import lis_indices
from alignbench.alignment.order import nearest_order_preserving
from alignbench.alignment.similarity import Vocabulary
from alignbench.blocks import CONTAINER_KINDS, Block, BlockTree, normalise
from property_budget import examples

TEXT = st.sampled_from(("", "Fees.", "  Fees  are due. ", "Term\tand\nrenewal", "Notices", "(a) x"))
LABEL = st.sampled_from((None, "", "1", "1.1", "(a)"))


# A node spec: (kind, label, text, child count). Kinds 0-2 are leaves (_LEAF_KINDS), 3 a table, 4 a row,
# 5 a section, 6 a labelled list item with children.
_SPEC = st.tuples(st.integers(0, 6), LABEL, TEXT, st.integers(0, 4))
_LEAF_KINDS = ("paragraph", "list_item", "heading")


@st.composite
def _documents(draw: st.DrawFn) -> BlockTree:
    """A tree decoded in pre-order from a flat list of node specs: leaves of three kinds, tables of rows
    of cells, rows on their own, and sections (up to four children) and labelled list items (up to
    three) holding any of these, at most five top-level blocks and 48 blocks below the root. The shapes
    ``st.recursive`` drew (with at most 16 leaves per top-level block), drawn 3.5 times faster: drawing
    the documents was nearly all of this module's time."""
    specs = iter(draw(st.lists(_SPEC, max_size=48)))

    def children(count: int, make) -> tuple[Block, ...]:
        return tuple(make(spec) for spec in islice(specs, count))  # each child's own children first

    def cell(spec) -> Block:
        return Block("cell", label=spec[1], text=spec[2])

    def row(spec) -> Block:
        return Block("row", children=children(min(spec[3], 3), cell))

    def block(spec) -> Block:
        kind, label, text, count = spec
        if kind < 3:
            return Block(_LEAF_KINDS[kind], label=label, text=text)
        if kind == 3:
            return Block("table", children=children(min(count, 3), row))
        if kind == 4:
            return row(spec)
        if kind == 5:
            return Block("section", label=label, children=children(count, block))
        return Block("list_item", label=label, text=text, children=children(min(count, 3), block))

    return BlockTree(Block("document", children=children(5, block)))


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(-1, 3)))
def test_unmatched_is_every_unpaired_block_but_the_root(partner):
    assert unmatched(partner) == [i for i in range(1, len(partner)) if partner[i] == -1]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(" |ab\t\n\xa0\u200b"), max_size=6), max_size=6))
def test_normalised_texts_is_fast_normalise_of_each(texts):
    result = normalised_texts(texts)
    assert result == [fast_normalise(t) for t in texts]
    assert all(r is t for r, t in zip(result, texts, strict=True) if fast_normalise(t) == t)


@pytest.mark.parametrize(
    "texts",
    [[" a", "b"], ["a", "b "], ["a", " b"], ["a ", "b"], ["a  b"], ["", " a", ""], ["a", "", "b "], [" "]],
)
def test_normalised_texts_normalises_a_space_at_either_end_of_any_text(texts):
    assert normalised_texts(texts) == [fast_normalise(t) for t in texts]


def test_normalised_texts_asks_nothing_per_text_of_a_normalised_list(monkeypatch):
    """Empty texts (every container's) do not send a normalised list to the per-text path."""

    def per_text(text):
        raise AssertionError(f"{text!r} was normalised one by one")

    monkeypatch.setattr(flat, "fast_normalise", per_text)
    texts = ["", "Fees are due.", "", "a b", "x"]
    assert normalised_texts(texts) == texts


def test_the_ascii_white_space_list_is_complete():
    assert sorted(_ASCII_SPACES) == sorted(chr(c) for c in range(128) if chr(c).isspace() and c != 32)


def _reference_exact_buckets(walk, left_s, left_t):
    """The exact pass's buckets as first written: a list per (kind class, key), in document order."""
    buckets_t, buckets_s = {}, {}
    for t in left_t:
        if walk.tst.key[t] is not None:
            buckets_t.setdefault((walk.tst.cls[t], walk.tst.key[t]), []).append(t)
    for s in left_s:
        bucket = (walk.src.cls[s], walk.src.key[s])
        if walk.src.key[s] is not None and bucket in buckets_t:
            buckets_s.setdefault(bucket, []).append(s)
    return [(bucket, sources, buckets_t[bucket]) for bucket, sources in buckets_s.items()]


@settings(max_examples=examples(200), deadline=None)
@given(_documents(), _documents())
def test_flat_columns_and_the_exact_pass_equal_their_definitions_on_generated_pairs(source, test):
    """One test per generated pair: drawing two documents costs hypothesis more than these checks cost,
    so the flat columns of both sides, the exact pass against its buckets, and the unique-key shortcut
    against the bucket rule are all checked on each pair (they were three tests drawing 200 documents,
    100 pairs and 200 pairs; now 200 pairs, 400 documents, serve all three)."""
    for tree in (source, test):
        assert_flat_columns_equal_a_block_by_block_walk(tree)
    walks = []
    for run in (assert_the_exact_pass_pairs_what_its_buckets_say, pair_by_buckets):
        vocabulary = Vocabulary()
        walk = Walk(FlatDocument(source, vocabulary), FlatDocument(test, vocabulary), AlignmentConfig())
        left = run(walk, list(walk.src.children[0]), list(walk.tst.children[0]))
        walks.append((left, walk.s2t, walk.matched_by, list(walk.queue), walk.ambiguous, walk.ambiguous_keys))
    # exact_pass pairs a group of unique keys through one dict; the bucket rule must agree on every
    # group, pair by pair and in the order the pairs were made (the descent queue's order)
    assert walks[0] == walks[1]


def assert_the_exact_pass_pairs_what_its_buckets_say(
    walk: Walk, left_s: list[int], left_t: list[int]
) -> tuple[list[int], list[int]]:
    """Runs the exact pass (``exact_pass``, with its unique-key shortcut) on the fresh
    ``walk``, checks its pairs against the reference buckets, and returns what it left unpaired."""
    buckets = _reference_exact_buckets(walk, left_s, left_t)
    pos_s, pos_t = walk.src.position, walk.tst.position
    expected = {s[0]: t[0] for _bucket, s, t in buckets if len(s) == len(t) == 1}
    # Copies are placed by their nearest preceding anchor (a unique pair on the longest in-order chain):
    # that anchor's test position plus the copy's distance below it in the source (issue #29 class 1).
    anchors = sorted((pos_s[s], pos_t[t]) for s, t in expected.items())
    kept = [anchors[i] for i in lis_indices([a[1] for a in anchors])]

    def place(s: int) -> int:
        before = [a for a in kept if a[0] < pos_s[s]]
        return before[-1][1] + pos_s[s] - before[-1][0] if before else pos_s[s]

    for _bucket, sources, tests in buckets:
        if len(sources) > 1 or len(tests) > 1:
            expected.update(nearest_order_preserving(sources, tests, {s: place(s) for s in sources}, pos_t))
    left = exact_pass(walk, left_s, left_t)
    assert {s: walk.s2t[s] for s in left_s if walk.s2t[s] != -1} == expected
    assert all(walk.matched_by[s] == "exact" for s in expected)
    return left


def assert_flat_columns_equal_a_block_by_block_walk(tree: BlockTree) -> None:
    flat = FlatDocument(tree, Vocabulary())
    blocks = list(tree.blocks())
    index = {id(b): i for i, b in enumerate(blocks)}
    parent, position, children = [-1] * len(blocks), [0] * len(blocks), [[] for _ in blocks]
    for i, block in enumerate(blocks):
        for k, child in enumerate(block.children):
            j = index[id(child)]
            parent[j], position[j] = i, k
            children[i].append(j)
    assert [id(b) for b in flat.blocks] == [id(b) for b in blocks]
    assert flat.parent == parent and flat.position == position
    assert [list(c) for c in flat.children] == children
    assert flat.parents == [i for i, c in enumerate(children) if c]
    assert flat.address == [b.address for b in blocks]
    assert flat.kind == [b.kind for b in blocks]
    assert flat.cls == [KIND_CLASS[b.kind] for b in blocks]
    assert flat.label == [b.label for b in blocks]
    assert flat.text == ["" if b.kind in CONTAINER_KINDS else normalise(b.text) for b in blocks]
    for i, block in enumerate(blocks):
        container = block.kind in CONTAINER_KINDS
        assert flat.key[i] == (flat._key(i) if container else flat.text[i])
        sectionlike = block.kind in ("section", "document") and not block.label
        assert flat.effective_label[i] == (_reference_label(flat, i) if sectionlike else block.label)


def _reference_label(flat: FlatDocument, i: int) -> str | None:
    """An unlabelled section's label is its heading's (``FlatDocument`` derives it inline)."""
    h = flat.heading_child(i)
    return None if h is None else flat.label[h]


def test_equal_text_of_another_class_is_no_exact_partner():
    heading, paragraph = Block("heading", text="Fees"), Block("paragraph", text="Fees")
    table = Block("table", children=(Block("row", children=(Block("cell", text="a"),)),))
    source = BlockTree(Block("document", children=(heading, table)))
    test = BlockTree(Block("document", children=(paragraph, table)))
    vocabulary = Vocabulary()
    walk = Walk(FlatDocument(source, vocabulary), FlatDocument(test, vocabulary), AlignmentConfig())
    assert exact_pass(walk, [1, 2], [1, 2]) == ([1, 2], [1, 2])  # the table is keyless: not exact either
    assert walk.s2t[1:] == [-1, -1, -1, -1]
