"""What a stage derives from a tree, kept for the last few trees it saw.

``alignbench.stagecache.read_tree`` hands consecutive pairs of one base document the same tree object,
so a stage that derives something from each tree (the floor's flat text, score's twin classes) can make
it once per run of pairs, found by identity rather than by hashing the tree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class RecentByIdentity(Generic[T]):
    """``fn``'s answers for the ``keep`` objects used last, found by identity. The objects are held, so
    no id is reused while an answer is kept; callers must not mutate the answers.

    Least recently *used* goes first, not least recently added: a run of pairs asks for its shared
    source object between each new test object, and a first-come list of two would push the source
    out every second pair."""

    def __init__(self, fn: Callable[[Any], T], keep: int = 4) -> None:
        self._fn = fn
        self._keep = keep
        self._recent: list[tuple[Any, T]] = []

    def __call__(self, obj: Any) -> T:
        recent = self._recent
        for index, (seen, value) in enumerate(recent):
            if seen is obj:
                if index != len(recent) - 1:
                    recent.append(recent.pop(index))
                return value
        value = self._fn(obj)
        self._recent.append((obj, value))
        del self._recent[: -self._keep]
        return value
