"""``changes.previous_paired`` walks back from one block instead of tabulating every block: it must
name, for any block, the nearest earlier block with a partner, as the table did."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.alignment.changes import previous_paired
from property_budget import examples


def _table(matched: list[int]) -> list[int]:
    """The former table: each block's nearest earlier block with a partner (-1 if none)."""
    out, last = [], -1
    for i, partner in enumerate(matched):
        out.append(last)
        if partner != -1:
            last = i
    return out


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(-1, 5), max_size=40))
def test_previous_paired_is_the_table_entry_of_every_block(matched):
    assert [previous_paired(matched, i) for i in range(len(matched))] == _table(matched)


def test_previous_paired_skips_a_run_of_unpaired_blocks_and_stops_at_the_start():
    matched = [0, -1, -1, 7, -1, 3]
    assert previous_paired(matched, 3) == 0
    assert previous_paired(matched, 5) == 3
    assert previous_paired(matched, 0) == -1
    assert previous_paired([-1, -1, 4], 2) == -1
