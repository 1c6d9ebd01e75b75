"""Swap partners: an engine that names the other partner of a labelled swap found the same event."""

from __future__ import annotations

from alignbench import read
from alignbench.score import count_pair
from alignbench.score.swaps import credited_moves, swap_partners
from alignbench.score.truth import Truth

SOURCE = "# Terms\n\n1. Alpha clause text here.\n2. Beta clause text here.\n3. Gamma clause text here.\n"
TEST = "# Terms\n\n1. Beta clause text here.\n2. Alpha clause text here.\n3. Gamma clause text here.\n"


def _trees():
    return read(SOURCE, format="markdown"), read(TEST, format="markdown")


def _addresses(tree, prefix: str) -> str:
    return next(b.address for b in tree.blocks() if b.text.startswith(prefix))


def _truth(links, moves) -> Truth:
    empty: frozenset = frozenset()
    return Truth(frozenset(links), frozenset(moves), empty, empty, empty, empty, empty, 0, 0, 0)


def _swap_truth():
    source, test = _trees()
    a = (_addresses(source, "Alpha"), _addresses(test, "Alpha"))
    b = (_addresses(source, "Beta"), _addresses(test, "Beta"))
    c = (_addresses(source, "Gamma"), _addresses(test, "Gamma"))
    heading = (_addresses(source, "Terms"), _addresses(test, "Terms"))
    return source, test, a, b, c, _truth({a, b, c, heading}, {b})


def test_partners_are_the_crossed_siblings_only() -> None:
    source, test, a, b, _c, truth = _swap_truth()
    assert swap_partners(truth, source, test) == {b: frozenset({a})}  # gamma kept its place


def test_reporting_the_other_partner_is_credited_once() -> None:
    source, test, a, b, _, truth = _swap_truth()
    partners = swap_partners(truth, source, test)
    assert credited_moves({b}, {a}, partners) == 1
    assert credited_moves({b}, {b}, partners) == 1
    assert credited_moves({b}, {a, b}, partners) == 1  # both partners reported: one hit, two reports
    assert credited_moves({b}, set(), partners) == 0


def test_count_pair_applies_swap_credit_to_precision_and_recall() -> None:
    source, test, a, _b, _, truth = _swap_truth()
    pairs = [{"source": s, "test": t} for s, t in sorted(truth.links)]
    alignment = {"pairs": pairs, "changes": [{"kind": "move", "source": a[0], "test": a[1]}]}
    plain = count_pair(truth, alignment, "all")
    credited = count_pair(truth, alignment, "all", swap_partners=swap_partners(truth, source, test))
    assert (plain.hit_moves, plain.reported_moves, plain.labelled_moves) == (0, 1, 1)
    assert (credited.hit_moves, credited.reported_moves, credited.labelled_moves) == (1, 1, 1)
