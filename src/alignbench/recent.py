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
    """``fn``'s answers for the last ``keep`` objects, found by identity. The objects are held, so no id
    is reused while an answer is kept; callers must not mutate the answers."""

    def __init__(self, fn: Callable[[Any], T], keep: int = 4) -> None:
        self._fn = fn
        self._keep = keep
        self._recent: list[tuple[Any, T]] = []

    def __call__(self, obj: Any) -> T:
        for seen, value in self._recent:
            if seen is obj:
                return value
        value = self._fn(obj)
        self._recent.append((obj, value))
        del self._recent[: -self._keep]
        return value
