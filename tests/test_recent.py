"""The per-stage memo by identity: an equal but distinct object is a new question, and only the last few
objects are kept (a stage walks thousands of trees and must not hold them all)."""

from __future__ import annotations

from alignbench.recent import RecentByIdentity


def test_answers_by_identity_and_keeps_only_the_last_few() -> None:
    calls: list[object] = []

    def derive(obj: list[int]) -> int:
        calls.append(obj)
        return sum(obj)

    memo = RecentByIdentity(derive, keep=2)
    a, a_twin, b, c = [1, 2], [1, 2], [3], [4]
    assert memo(a) == 3 and memo(a) == 3
    assert len(calls) == 1  # the same object: answered from the memo
    assert memo(a_twin) == 3
    assert len(calls) == 2  # equal but not the same object: derived again
    memo(b), memo(c)  # a and a_twin fall out (keep=2)
    assert memo(a) == 3
    assert len(calls) == 5


def test_the_object_used_last_stays_while_new_ones_come_and_go() -> None:
    """A run of pairs asks for its shared source between new test objects: the source must stay."""
    calls: list[object] = []

    def derive(obj: list[int]) -> int:
        calls.append(obj)
        return len(obj)

    memo = RecentByIdentity(derive, keep=2)
    source, tests = [0], [[1], [2], [3], [4]]
    for test in tests:
        memo(source), memo(test)
    assert [call for call in calls if call is source] == [source]  # derived once, never evicted
    assert len(calls) == 1 + len(tests)
