"""Flags and changes read off a finished walk equal their block-by-block definitions (the shortcuts in
``alignment.changes`` skip work, never decide differently)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.alignment import AlignmentConfig
from alignbench.alignment.changes import _heads, build_records, crossing_sources, renested, section_partners
from alignbench.alignment.engine import Walk
from alignbench.alignment.flat import FlatDocument
from alignbench.alignment.lis import lis_indices
from alignbench.alignment.similarity import Vocabulary
from alignbench.blocks import is_renumber
from alignment_fixtures.strategies import tree_pairs
from property_budget import examples


def _walk(source, test, backend):
    vocabulary = Vocabulary()
    walk = Walk(
        FlatDocument(source, vocabulary), FlatDocument(test, vocabulary), AlignmentConfig(similarity=backend)
    )
    walk.run()
    return walk


def _reference_crossing(walk, s2t):
    """Every group's children paired inside the partner group, less those on the LIS of their places."""
    src, tst = walk.src, walk.tst
    crossing = set()
    for ps in range(len(src)):
        pt = s2t[ps]
        if pt == -1:
            continue
        inside = [c for c in src.children[ps] if s2t[c] != -1 and tst.parent[s2t[c]] == pt]
        kept = {inside[i] for i in lis_indices([tst.position[s2t[c]] for c in inside])}
        crossing.update(c for c in inside if c not in kept)
    return crossing


@settings(max_examples=examples(150), deadline=None)
@given(tree_pairs(), st.sampled_from(("difflib", "rapidfuzz")))
def test_crossing_inserts_and_changes_equal_their_definitions(trees, backend):
    """One test per generated pair and backend: drawing the pair costs hypothesis more than the walk
    and both checks (they were two tests of 150 examples each drawing the same pairs)."""
    walk = _walk(*trees, backend)
    assert_crossing_and_inserts_equal_their_definitions(walk)
    assert_changes_picked_by_columns_equal_the_block_by_block_list(walk)
    assert_flags_equal_the_general_rule(walk)


def assert_crossing_and_inserts_equal_their_definitions(walk):
    for partners in (walk.s2t, section_partners(walk)):
        assert crossing_sources(walk, partners) == _reference_crossing(walk, partners)
    inserts = [c.test for c in build_records(walk)[1] if c.kind == "insert"]
    tst, t2s = walk.tst, walk.t2s
    expected = [tst.address[t] for t in range(1, len(tst)) if t2s[t] == -1 and t2s[tst.parent[t]] != -1]
    assert inserts == expected


def _reference_changes(walk, flags):
    """The change list block by block: every source block in document order, then the inserts."""
    src, tst, s2t, t2s = walk.src, walk.tst, walk.s2t, walk.t2s
    out = []
    for s in range(1, len(src)):
        t = s2t[s]
        if t == -1:
            if s2t[src.parent[s]] != -1:
                out.append(("delete", src.address[s], None, src.label[s], None))
            continue
        moved, renumbered = flags[s]
        changed = src.text[s] != tst.text[t] or src.label[s] != tst.label[t]
        kind = "move" if moved else "renumber" if renumbered else "modify" if changed else None
        if kind:
            out.append((kind, src.address[s], tst.address[t], src.label[s], tst.label[t]))
    for t in range(1, len(tst)):
        if t2s[t] == -1 and t2s[tst.parent[t]] != -1:
            out.append(("insert", None, tst.address[t], None, tst.label[t]))
    return out


def _flags_of(walk, pairs):
    """(moved, renumbered) of each paired source block, read back off the pairs (source order)."""
    paired = [s for s, t in enumerate(walk.s2t) if t != -1]
    assert [p.source_path for p in pairs] == [walk.src.address[s] for s in paired]
    return {s: (p.moved, p.renumbered) for s, p in zip(paired, pairs, strict=True)}


def assert_changes_picked_by_columns_equal_the_block_by_block_list(walk):
    pairs, changes = build_records(walk)
    assert [tuple(c) for c in changes] == _reference_changes(walk, _flags_of(walk, pairs))


def _reference_flags(walk):
    """(moved, renumbered) of every pair by the general rule alone, with no shortcut for the common
    pair: a heading whose section was paired elsewhere is judged at its section; a pair is moved when
    its parents do not correspond (unless re-nested while renumbered) or it crosses its siblings."""
    src, tst, s2t = walk.src, walk.tst, walk.s2t
    eff = section_partners(walk)
    crossing = crossing_sources(walk, eff)
    flags = {}
    for s, t in enumerate(s2t):
        if t == -1:
            continue
        if s == 0:
            flags[s] = (False, False)
            continue
        relabelled = is_renumber(src.label[s], tst.label[t])
        ps, pt, at = s, t, s
        section = src.parent[s]
        if _heads(walk, s) and s2t[section] != eff[section] and eff[section] == tst.parent[t]:
            ps, pt, at = section, tst.parent[t], section
        corresponds = eff[src.parent[ps]] == tst.parent[pt] or (relabelled and renested(walk, s, t))
        flags[s] = ((not corresponds) or at in crossing, corresponds and relabelled)
    return flags


def assert_flags_equal_the_general_rule(walk):
    """build_records settles most pairs by a shortcut (same label, parent's partner, not crossing, not a
    heading judged at its section); every pair's flags must be what the general rule says."""
    pairs, _ = build_records(walk)
    assert _flags_of(walk, pairs) == _reference_flags(walk)
