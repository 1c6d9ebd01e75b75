"""Flags and changes read off a finished walk equal their block-by-block definitions: the engine's
move flags are the move rule applied by address to its labelled pairs (``moverule.classify_links``,
the code path labels and the scorer use), and its change list is the block-by-block list."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.alignment import AlignmentConfig
from alignbench.alignment.changes import build_records
from alignbench.alignment.engine import Walk
from alignbench.alignment.flat import FlatDocument
from alignbench.alignment.similarity import Vocabulary
from alignbench.blocks import LABELLED_KINDS, is_renumber
from alignbench.moverule import classify_links
from alignment_fixtures.strategies import tree_pairs
from property_budget import examples


def _walk(source, test, backend):
    vocabulary = Vocabulary()
    walk = Walk(
        FlatDocument(source, vocabulary), FlatDocument(test, vocabulary), AlignmentConfig(similarity=backend)
    )
    walk.run()
    return walk


@settings(max_examples=examples(150), deadline=None)
@given(tree_pairs(), st.sampled_from(("difflib", "rapidfuzz")))
def test_crossing_inserts_and_changes_equal_their_definitions(trees, backend):
    """One test per generated pair and backend: drawing the pair costs hypothesis more than the walk
    and both checks (they were two tests of 150 examples each drawing the same pairs)."""
    walk = _walk(*trees, backend)
    assert_inserts_equal_their_definition(walk)
    assert_changes_picked_by_columns_equal_the_block_by_block_list(walk)
    assert_flags_equal_the_rule_by_address(walk, *trees)


def assert_inserts_equal_their_definition(walk):
    inserts = [c.test for c in build_records(walk)[1] if c.kind == "insert"]
    tst, t2s = walk.tst, walk.t2s
    expected = [tst.address[t] for t in range(1, len(tst)) if t2s[t] == -1 and t2s[tst.parent[t]] != -1]
    assert inserts == expected


def assert_changes_picked_by_columns_equal_the_block_by_block_list(walk):
    pairs, changes = build_records(walk)
    assert [tuple(c) for c in changes] == _reference_changes(walk, _flags_of(walk, pairs))


def _reference_flags(walk, source, test):
    """(moved, renumbered) of every pair: the move rule over the labelled pairs by address; a section
    container carries its heading's flag; a renumber is a changed number on a pair that did not move."""
    src, tst, s2t = walk.src, walk.tst, walk.s2t
    links = [
        (src.address[s], tst.address[t])
        for s, t in enumerate(s2t)
        if t > 0 and src.kind[s] in LABELLED_KINDS and tst.kind[t] in LABELLED_KINDS
    ]
    moved = classify_links(source, test, links).moved
    flags = {}
    for s, t in enumerate(s2t):
        if t == -1:
            continue
        if _opens_paired_section(walk, s):
            kid = src.children[s][0]
            head_moved = (src.address[kid], tst.address[s2t[kid]]) in moved
            flags[s] = (head_moved, not head_moved and is_renumber(src.label[s], tst.label[t]))
            continue
        parent = src.parent[s]
        is_moved = (src.address[s], tst.address[t]) in moved and not (
            _opens_paired_section(walk, parent) and src.children[parent][0] == s
        )
        flags[s] = (is_moved, not is_moved and is_renumber(src.label[s], tst.label[t]))
    return flags


def assert_flags_equal_the_rule_by_address(walk, source, test):
    pairs, _ = build_records(walk)
    assert _flags_of(walk, pairs) == _reference_flags(walk, source, test)


def _opens_paired_section(walk, s):
    """A section whose heading's partner opens the section the container paired with."""
    src, tst, s2t = walk.src, walk.tst, walk.s2t
    kids = src.children[s] if s >= 0 else ()
    if src.kind[s] != "section" or not kids or src.kind[kids[0]] != "heading":
        return False
    th, ts = s2t[kids[0]], s2t[s]
    return th > 0 and ts > 0 and tst.parent[th] == ts and tst.children[ts][0] == th


def _flags_of(walk, pairs):
    """(moved, renumbered) of each paired source block, read back off the pairs (source order)."""
    paired = [s for s, t in enumerate(walk.s2t) if t != -1]
    assert [p.source_path for p in pairs] == [walk.src.address[s] for s in paired]
    return {s: (p.moved, p.renumbered) for s, p in zip(paired, pairs, strict=True)}


def _reference_changes(walk, flags):
    """The change list block by block: every source block in document order, then the inserts."""
    src, tst, s2t, t2s = walk.src, walk.tst, walk.s2t, walk.t2s
    out = []
    for s in range(1, len(src)):
        t = s2t[s]
        if t == -1:
            if s2t[src.parent[s]] != -1:
                out.append(("delete", src.address[s], None, src.label[s], None, False))
            continue
        moved, renumbered = flags[s]
        changed = src.text[s] != tst.text[t] or src.label[s] != tst.label[t]
        kind = "move" if moved else "renumber" if renumbered else "modify" if changed else None
        # Modified whatever the kind: the text, or a label gained or lost (a changed number is a renumber).
        edited = src.text[s] != tst.text[t] or (
            src.label[s] != tst.label[t] and not is_renumber(src.label[s], tst.label[t])
        )
        if kind:
            out.append((kind, src.address[s], tst.address[t], src.label[s], tst.label[t], edited))
    for t in range(1, len(tst)):
        if t2s[t] == -1 and t2s[tst.parent[t]] != -1:
            out.append(("insert", None, tst.address[t], None, tst.label[t], False))
    return out
