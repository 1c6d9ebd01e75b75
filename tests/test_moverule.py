"""The move rule (issue #27): a move is a change of place in reading order.

Two kinds of test. Worked cases of the rule, each on a small document pair. And an independent
recomputation over every committed label file: no labelled move keeps its reading order (each crosses
some other correspondence), the correspondences outside every moved subtree never cross, and there
are never more moves than correspondences off a longest in-order chain - computed here by patience
sorting over addresses, without the package's rule code.
"""

from __future__ import annotations

from bisect import bisect_left
from pathlib import Path

import pytest

from alignbench import read
from alignbench.moverule import classify_links, kept_in_order, tie_groups
from alignbench.runs import load_pair
from alignbench.tiers import discover

ROOT = Path(__file__).resolve().parents[1]


def _reading(source_md: str, test_md: str):
    source, test = read(source_md, format="markdown"), read(test_md, format="markdown")
    by_text = {b.text: b.address for b in test.blocks() if b.text}
    links = {b.text: (b.address, by_text[b.text]) for b in source.blocks() if b.text in by_text}
    return links, classify_links(source, test, links.values())


def test_a_heading_promoted_in_place_is_reparented_not_moved() -> None:
    links, r = _reading(
        "# Title\n\n## Scope\n\nThe scope clause.\n\nAnother clause.\n",
        "# Title\n\n# Scope\n\nThe scope clause.\n\nAnother clause.\n",
    )
    assert not r.moved and r.reparented == {links["Scope"]}


def test_a_wrapper_heading_inserted_above_moves_nothing() -> None:
    links, r = _reading(
        "## Fees\n\nPay on time.\n\n## Term\n\nOne year.\n",
        "# Agreement\n\n## Fees\n\nPay on time.\n\n## Term\n\nOne year.\n",
    )
    assert not r.moved and r.reparented == {links["Fees"], links["Term"]}


def test_a_title_underline_change_moves_nothing() -> None:
    _, r = _reading(
        "Terms\n=====\n\nIntro text.\n\nPart\n----\n\nBody text.\n",
        "Terms\n-----\n\nIntro text.\n\nPart\n----\n\nBody text.\n",
    )
    assert not r.moved


def test_a_list_reindented_in_place_is_not_a_move() -> None:
    _, r = _reading(
        "- First item here\n- Second item here\n- Third item here\n",
        "- First item here\n    - Second item here\n- Third item here\n",
    )
    assert not r.moved


def test_a_moved_section_is_one_move_at_its_heading() -> None:
    links, r = _reading(
        "# T\n\n## A\n\nA one.\n\nA two.\n\n## B\n\nB body.\n\n## C\n\nC body.\n\n## D\n\nD body.\n",
        "# T\n\n## B\n\nB body.\n\n## C\n\nC body.\n\n## D\n\nD body.\n\n## A\n\nA one.\n\nA two.\n",
    )
    assert r.moved == {links["A"]}
    assert r.travelled == {links["A one."], links["A two."]}


def test_a_clause_moved_out_of_a_moved_section_is_its_own_move() -> None:
    links, r = _reading(
        "# T\n\n## A\n\nA one.\n\nA two.\n\n## B\n\nB body.\n\n## C\n\nC body.\n\n## D\n\nD body.\n",
        "# T\n\n## B\n\nB body.\n\nA two.\n\n## C\n\nC body.\n\n## D\n\nD body.\n\n## A\n\nA one.\n",
    )
    assert r.moved == {links["A"], links["A two."]}


def test_ties_prefer_the_block_whose_section_changed_then_the_later_one() -> None:
    assert kept_in_order([2, 1]) == [True, False]  # a swap: the later source block moved
    assert kept_in_order([2, 1], keep_bonus=[0, 1]) == [False, True]  # unless the earlier changed section
    assert tie_groups([2, 1, 3]) == [0, 0, -1]
    assert tie_groups([1, 2, 3]) == [-1, -1, -1]
    assert tie_groups([3, 1, 2]) == [-1, -1, -1]  # one longest chain (1 2): no choice


def _longest_chain(values: list[int]) -> int:
    tails: list[int] = []
    for v in values:
        k = bisect_left(tails, v)
        tails[k : k + 1] = [v]
    return len(tails)


def _unit(address: str) -> str:
    """A heading stands for its section: the subtree that travels with it."""
    parent, _, last = address.rpartition("/")
    return (
        parent
        if last.startswith("heading[1]") and parent.rsplit("/", 1)[-1].startswith("section[")
        else address
    )


def _inside(address: str, unit: str) -> bool:
    return address == unit or address.startswith(unit + "/")


def _label_files() -> list:
    return [tp for tp in discover(ROOT) if (ROOT / tp.labels_path).is_file()]


@pytest.mark.parametrize("tier", ["real", "synthetic"])
def test_every_labelled_move_changes_reading_order(tier: str) -> None:
    checked = moves_seen = 0
    for tp in (tp for tp in _label_files() if tp.tier == tier):
        loaded = load_pair(ROOT, tp)
        source_at = {b.address: i for i, b in enumerate(loaded.source.blocks())}
        test_at = {b.address: i for i, b in enumerate(loaded.test.blocks())}
        rows = [
            r for r in loaded.labels["correspondences"] if r["source"] in source_at and r["test"] in test_at
        ]
        links = sorted((source_at[r["source"]], test_at[r["test"]], r) for r in rows)
        moves = [(s, t, r) for s, t, r in links if r["kind"] == "move"]
        for s, t, r in moves:
            crossed = any((s2 < s) != (t2 < t) for s2, t2, _ in links if s2 != s)
            assert crossed, f"{tp.pair}: {r['source']} -> {r['test']} is a move but keeps its reading order"
        units = [(_unit(r["source"]), _unit(r["test"])) for _, _, r in moves]
        outside = [
            (s, t)
            for s, t, r in links
            if not any(_inside(r["source"], us) and _inside(r["test"], ut) for us, ut in units)
        ]
        targets = [t for _, t in outside]
        assert targets == sorted(targets), f"{tp.pair}: correspondences outside every move cross"
        assert len(moves) <= len(links) - _longest_chain([t for _, t, _ in links]) or not moves
        checked += 1
        moves_seen += len(moves)
    assert checked > 0 and moves_seen > 0


def test_move_verdicts_are_one_row_per_distinct_move_on_the_real_tier() -> None:
    """Issue #27: a verdict rules on a move (addresses plus both blocks' digests), not on an engine
    build, so the real tier holds one row per distinct move (it held 1,478 rows for 67 moves), and each
    row still names the blocks it ruled on."""
    rows = moves = 0
    for tp in (tp for tp in _label_files() if tp.tier == "real"):
        loaded = load_pair(ROOT, tp)
        verdicts = loaded.labels["move_verdicts"]
        keys = [(v["source"], v["test"]) for v in verdicts]
        assert len(keys) == len(set(keys)), f"{tp.pair}: more than one verdict row for a move"
        for v in verdicts:
            assert loaded.source.find(v["source"]).digest == v["source_digest"], tp.pair
            assert loaded.test.find(v["test"]).digest == v["test_digest"], tp.pair
        rows += len(verdicts)
        moves += len(set(keys))
    assert rows == moves and 0 < rows < 200
