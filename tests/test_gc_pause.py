"""The collector pause around reading, aligning and loading cached trees: it leaves the collector as
the caller had it, leaves no backlog of young objects for the next allocation to traverse, and loses
no garbage: a cycle the caller dropped before is still collected by the next full collection."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from alignbench.alignment import align
from alignbench.gc_pause import paused_collector
from alignbench.readers import read

DOCUMENT = "\n\n".join(f"{n}. Clause {n} of the agreement, with some words in it." for n in range(1, 400))


class _Cyclic:
    def __init__(self) -> None:
        self.me = self


def _young() -> int:
    return gc.get_count()[0]


@contextmanager
def _collections() -> Iterator[list[int]]:
    """The generations of the collections that start inside the block, recorded from its first step."""
    seen: list[int] = []

    def record(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.collect(0)  # no backlog of the test's own: any collection below is the code's
    gc.callbacks.append(record)
    try:
        yield seen
    finally:
        gc.callbacks.remove(record)


@pytest.fixture(autouse=True, scope="module")
def _collector_as_a_fresh_process_has_it():
    """Python's default thresholds and nothing frozen, as in a process of a user's; the test run's
    own settings after (a stage's thresholds, and everything alive after collection frozen: conftest)."""
    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count() > 0
    gc.set_threshold(700, 10, 10)
    gc.unfreeze()
    yield
    gc.set_threshold(*thresholds)
    if frozen:
        gc.collect()
        gc.freeze()


@pytest.fixture(autouse=True)
def _collector_on():
    assert gc.isenabled()
    yield
    gc.enable()


def test_what_the_block_made_is_not_left_young() -> None:
    with _collections() as seen:
        with paused_collector():
            assert not gc.isenabled()
            made = [[i] for i in range(20_000)]  # 20,000 tracked lists, counted as young while paused
        assert gc.isenabled()
        more = [[] for _ in range(50)]  # without the move: these set off a collection of all 20,000
    assert seen == []
    assert len(made) == 20_000 and len(more) == 50


def test_reading_and_aligning_a_pair_sets_off_no_collection() -> None:
    align(
        read(DOCUMENT, format="markdown"), read(DOCUMENT, format="markdown")
    )  # first use: imports, profiles
    with _collections() as seen:
        tree = read(DOCUMENT, format="markdown")
        other = read(DOCUMENT.replace("Clause 7 ", "Clause seven "), format="markdown")
        result = align(tree, other)
        more = [[] for _ in range(50)]
    assert seen == []
    assert len(result.pairs) > 399 and len(more) == 50


def test_garbage_dropped_before_is_collected_by_the_next_full_collection() -> None:
    gc.collect(0)
    cycle = _Cyclic()
    gone = weakref.finalize(cycle, lambda: None)
    del cycle
    with paused_collector():
        made = [[i] for i in range(1_000)]
    assert gone.alive  # moved to the oldest generation, not collected
    gc.collect()
    assert not gone.alive
    assert made


def test_a_caller_that_paused_the_collector_keeps_it_paused_with_its_counts() -> None:
    gc.disable()
    try:
        before = _young()
        with paused_collector():
            made = [[i] for i in range(5_000)]
        assert not gc.isenabled()
        assert _young() > before + 4_000  # what the block made is still young: the caller's to collect
        assert made
    finally:
        gc.enable()


def test_a_caller_that_froze_objects_keeps_them_frozen() -> None:
    kept = ["frozen by the caller"]
    gc.freeze()
    try:
        with paused_collector():
            made = [[i] for i in range(1_000)]  # a collection is due: the move would unfreeze ``kept``
        assert gc.isenabled()
        assert not any(o is kept for generation in range(3) for o in gc.get_objects(generation=generation))
        assert gc.get_freeze_count() > 0
        assert made
    finally:
        gc.unfreeze()


def test_an_error_in_the_block_turns_the_collector_back_on() -> None:
    with pytest.raises(ZeroDivisionError), paused_collector():
        _ = 1 / 0
    assert gc.isenabled()


def test_nothing_is_moved_when_no_collection_is_due() -> None:
    gc.collect(0)
    young = ["made before the block"]
    with paused_collector():
        made = [[i] for i in range(10)]  # far fewer than the 700 that make a collection due
    assert any(o is young for o in gc.get_objects(generation=0))
    assert made
