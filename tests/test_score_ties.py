"""Tie-set move credit (issue #27): an engine that names a different but equally small set of moves for
the same links has described the same revision, on swaps, a 3-cycle and alphabetised sections."""

from __future__ import annotations

from alignbench import read
from alignbench.moverule import classify_links
from alignbench.score import count_pair
from alignbench.score.ties import credited_moves, read_truth
from alignbench.score.truth import Truth


def _truth(links, moves) -> Truth:
    empty: frozenset = frozenset()
    return Truth(frozenset(links), frozenset(moves), empty, empty, empty, empty, empty, 0, 0, 0)


def _linked(source_md: str, test_md: str):
    """Both trees and every block linked to the block of the same text on the other side."""
    source, test = read(source_md, format="markdown"), read(test_md, format="markdown")
    by_text = {b.text: b.address for b in test.blocks() if b.text}
    links = {b.text: (b.address, by_text[b.text]) for b in source.blocks() if b.text in by_text}
    reading = classify_links(source, test, links.values())
    return source, test, links, _truth(links.values(), reading.moved)


def test_swap_either_partner_is_credited_once() -> None:
    source, test, links, truth = _linked(
        "# Terms\n\n1. Alpha clause.\n2. Beta clause.\n3. Gamma clause.\n",
        "# Terms\n\n1. Beta clause.\n2. Alpha clause.\n3. Gamma clause.\n",
    )
    a, b = links["Alpha clause."], links["Beta clause."]
    assert truth.moves == {b}  # the later one in the source jumped back
    ties = read_truth(truth, source, test).tie_group
    assert ties[a] == ties[b] and links["Gamma clause."] not in ties
    assert credited_moves(truth.moves, {a}, ties) == 1
    assert credited_moves(truth.moves, {a, b}, ties) == 1  # both reported: one hit, two reports
    assert credited_moves(truth.moves, {links["Gamma clause."]}, ties) == 0


def test_three_cycle_has_one_minimal_move_and_no_tie() -> None:
    source, test, links, truth = _linked(
        "# T\n\nAlpha text.\n\nBeta text.\n\nGamma text.\n",
        "# T\n\nBeta text.\n\nGamma text.\n\nAlpha text.\n",
    )
    alpha = links["Alpha text."]
    assert truth.moves == {alpha}
    ties = read_truth(truth, source, test).tie_group
    assert not ties  # keeping beta and gamma is the only longest chain
    assert credited_moves(truth.moves, {links["Beta text."], links["Gamma text."]}, ties) == 0


def test_swapped_section_headings_are_credited() -> None:
    """The old swap credit keyed partners by parent, so a section-heading swap was never credited."""
    source, test, links, truth = _linked(
        "# T\n\n## One\n\nFirst body.\n\n## Two\n\nSecond body.\n",
        "# T\n\n## Two\n\nSecond body.\n\n## One\n\nFirst body.\n",
    )
    one, two = links["One"], links["Two"]
    assert truth.moves == {two}
    ties = read_truth(truth, source, test).tie_group
    assert credited_moves(truth.moves, {one}, ties) == 1


def test_alphabetised_sections_credit_any_equally_small_move_set() -> None:
    names = ["Term", "Payment", "Warranty", "Liability", "Notices", "Assignment", "Confidentiality"]
    body = {n: f"The {n.lower()} clause applies." for n in names}
    source_md = "# Agreement\n\n" + "".join(f"## {n}\n\n{body[n]}\n\n" for n in names)
    test_md = "# Agreement\n\n" + "".join(f"## {n}\n\n{body[n]}\n\n" for n in sorted(names))
    source, test, links, truth = _linked(source_md, test_md)
    ties = read_truth(truth, source, test).tie_group
    heads = {n: links[n] for n in names}
    # source order T P W L N A C, test order A C L N P T W (places 5 4 6 2 3 0 1): every longest
    # in-order chain keeps two sections (T W, P W, L N or A C), so five moved whichever is kept; the
    # rule keeps the earliest in the source (T W)
    assert truth.moves == {
        heads[n] for n in ("Payment", "Liability", "Notices", "Assignment", "Confidentiality")
    }
    other = {heads[n] for n in ("Term", "Payment", "Warranty", "Liability", "Notices")}  # keeps A C
    assert credited_moves(truth.moves, other, ties) == 5  # another longest chain: full credit
    too_many = other | {heads["Assignment"]}
    assert credited_moves(truth.moves, too_many, ties) == 5  # an extra move costs precision only
    pairs = [{"source": s, "test": t} for s, t in sorted(truth.links)]
    changes = [{"kind": "move", "source": s, "test": t} for s, t in sorted(other)]
    counted = count_pair(
        truth, {"pairs": pairs, "changes": changes}, "all", reading=read_truth(truth, source, test)
    )
    assert (counted.hit_moves, counted.reported_moves, counted.labelled_moves) == (5, 5, 5)
    plain = count_pair(truth, {"pairs": pairs, "changes": changes}, "all")
    assert plain.hit_moves < 5  # without the tie sets the same report would look wrong
