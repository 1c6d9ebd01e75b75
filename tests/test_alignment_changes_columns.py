"""``build_pairs`` and ``build_changes`` read most flags off whole columns and visit only the pairs that
can differ; these tests hold them equal to the pair-by-pair definition they replaced (kept here as the
reference), on generated tree pairs, on revisions of one tree, and on the benchmark's workload."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.alignment import AlignmentConfig
from alignbench.alignment.changes import (
    _heads,
    build_changes,
    build_pairs,
    crossing_sources,
    previous_paired,
    renested,
    section_partners,
)
from alignbench.alignment.engine import Walk
from alignbench.alignment.flat import FlatDocument
from alignbench.alignment.model import AlignedPair, Change
from alignbench.alignment.similarity import Vocabulary
from alignbench.blocks import Block, BlockTree, is_renumber
from alignbench.workloads import mutate, revised_pair, sections, to_tree
from test_alignment_flat import _documents


def _reference_pairs(walk: Walk) -> tuple[list[AlignedPair], dict[int, tuple[bool, bool]]]:
    src, tst, s2t = walk.src, walk.tst, walk.s2t
    eff = section_partners(walk)
    crossing = crossing_sources(walk, eff)
    prev_s, prev_t = previous_paired(s2t), previous_paired(walk.t2s)
    pairs, flags = [], {}
    for s, t in enumerate(s2t):
        if t == -1:
            continue
        if s == 0:
            moved = renumbered = False
        else:
            relabelled = src.label[s] != tst.label[t] and is_renumber(src.label[s], tst.label[t])
            ps, pt, at = s, t, s
            section = src.parent[s]
            if (
                src.kind[s] == "heading"
                and _heads(walk, s)
                and s2t[section] != eff[section]
                and eff[section] == tst.parent[t]
            ):
                ps, pt, at = section, tst.parent[t], section
            corresponds = eff[src.parent[ps]] == tst.parent[pt] or (
                relabelled and renested(walk, s, t, prev_s, prev_t)
            )
            moved = (not corresponds) or at in crossing
            renumbered = corresponds and relabelled
        flags[s] = (moved, renumbered)
        pairs.append(
            AlignedPair(
                src.address[s],
                tst.address[t],
                walk.matched_by[s],
                walk.confidence[s],
                moved,
                renumbered,
                s in walk.ambiguous,
            )
        )
    return pairs, flags


def _reference_changes(walk: Walk, flags: dict[int, tuple[bool, bool]]) -> list[Change]:
    src, tst, s2t, t2s = walk.src, walk.tst, walk.s2t, walk.t2s
    out = []
    for s in range(1, len(src)):
        t = s2t[s]
        if t == -1:
            if s2t[src.parent[s]] != -1:
                out.append(Change("delete", src.address[s], None, src.label[s], None))
            continue
        moved, renumbered = flags[s]
        if moved:
            kind = "move"
        elif renumbered:
            kind = "renumber"
        elif src.text[s] != tst.text[t] or src.label[s] != tst.label[t]:
            kind = "modify"
        else:
            continue
        out.append(Change(kind, src.address[s], tst.address[t], src.label[s], tst.label[t]))
    for t in range(1, len(tst)):
        if t2s[t] == -1 and t2s[tst.parent[t]] != -1:
            out.append(Change("insert", None, tst.address[t], None, tst.label[t]))
    return out


def _assert_same_as_reference(source: BlockTree, test: BlockTree, shuffle: int | None = None) -> None:
    vocabulary = Vocabulary()
    walk = Walk(FlatDocument(source, vocabulary), FlatDocument(test, vocabulary), AlignmentConfig())
    walk.run()
    if shuffle is not None:
        _repair(walk, random.Random(shuffle))
    pairs, flags = build_pairs(walk)
    expected_pairs, expected_flags = _reference_pairs(walk)
    assert pairs == expected_pairs
    assert [type(v) for p in pairs for v in p] == [
        type(v) for p in expected_pairs for v in p
    ]  # bools stay bools
    assert list(flags.items()) == list(expected_flags.items())
    assert build_changes(walk, flags) == _reference_changes(walk, expected_flags)


def _repair(walk: Walk, rng: random.Random) -> None:
    """Unpair some pairs and pair some leftovers at random (one-to-one, the roots kept): states the
    engine rarely leaves, such as a section unpaired under a paired heading, or a heading paired into
    another section, which the flags must still read as the written rule does."""
    for s in range(1, len(walk.s2t)):
        t = walk.s2t[s]
        if t != -1 and rng.random() < 0.3:
            walk.s2t[s] = walk.t2s[t] = -1
    free_t = [t for t in range(1, len(walk.t2s)) if walk.t2s[t] == -1]
    rng.shuffle(free_t)
    for s in range(1, len(walk.s2t)):
        if walk.s2t[s] == -1 and free_t and rng.random() < 0.5:
            t = free_t.pop()
            walk.s2t[s], walk.t2s[t] = t, s
            walk.matched_by[s], walk.confidence[s] = "fuzzy", 0.5


def _relabelled(block: Block, rng: random.Random) -> Block:
    """``block`` with some labels renumbered and some subtrees swapped, dropped or re-hung."""
    kids = [_relabelled(child, rng) for child in block.children]
    if len(kids) > 1 and rng.random() < 0.3:
        i, j = rng.sample(range(len(kids)), 2)
        kids[i], kids[j] = kids[j], kids[i]
    if kids and rng.random() < 0.15:
        del kids[rng.randrange(len(kids))]
    if len(kids) > 1 and rng.random() < 0.15 and kids[0].kind in ("section", "list_item"):
        moved = kids.pop()
        kids[0] = Block(
            kids[0].kind, kids[0].label, kids[0].text, kids[0].level, {}, (*kids[0].children, moved)
        )
    label = block.label
    if label and rng.random() < 0.3:
        label = label + "0"
    return Block(block.kind, label, block.text, block.level, dict(block.attrs), tuple(kids))


@settings(max_examples=150, deadline=None)
@given(_documents(), _documents(), st.integers(0, 2**32 - 1))
def test_pairs_and_changes_equal_the_pair_by_pair_rule(source, test, seed):
    """On any two trees, on any pairing of them, and on a revision of the first (drawing trees costs
    hypothesis more than the checks, so each draw serves all four)."""
    _assert_same_as_reference(source, test)
    _assert_same_as_reference(source, test, shuffle=seed)
    revision = BlockTree(_relabelled(source.root, random.Random(seed)))
    _assert_same_as_reference(source, revision)
    _assert_same_as_reference(source, revision, shuffle=seed)


def test_pairs_and_changes_equal_the_pair_by_pair_rule_on_the_benchmark_workload():
    base, revised = revised_pair(40)
    _assert_same_as_reference(to_tree(base), to_tree(revised))
    rng = random.Random(7)
    base = sections(rng, 30)
    renumbered = [(title, clauses) for title, clauses in reversed(mutate(rng, base, 0.2, 0.1, 10))]
    _assert_same_as_reference(to_tree(base), to_tree(renumbered))
