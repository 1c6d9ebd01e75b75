"""Token similarity with two selectable backends behind one set of prefilters.

Both backends compute 2*M/(len(a)+len(b)) over token sequences (difflib's greedy matching blocks,
rapidfuzz's true LCS), so they can differ slightly; what they must never differ on is which pairs
are looked at. Every candidate goes through :meth:`Similarity.consider`, which charges the one
run-wide comparison budget and applies backend-independent upper bounds before any ratio runs.
"""

from __future__ import annotations

import difflib
import importlib.util
import re
from collections.abc import Callable, Sequence

from alignbench.alignment.config import BACKENDS, AlignmentConfigError

# The redlines tokenizer's tokens with their trailing whitespace stripped: the units the leaf diff reports.
_TOKEN = re.compile(r"[^()\s]+|[().?!-]")


def tokenise(text: str) -> list[str]:
    return _TOKEN.findall(text)


def resolve_backend(requested: str) -> str:
    """``auto`` means rapidfuzz when importable, else difflib; the other two are taken literally."""
    if requested not in BACKENDS:
        raise AlignmentConfigError(
            f"similarity backend {requested!r} is unknown; use one of {', '.join(BACKENDS)}"
        )
    if requested != "auto":
        if requested == "rapidfuzz" and importlib.util.find_spec("rapidfuzz") is None:
            raise AlignmentConfigError(
                "similarity backend 'rapidfuzz' is not installed; pip install rapidfuzz or use difflib"
            )
        return requested
    return "rapidfuzz" if importlib.util.find_spec("rapidfuzz") is not None else "difflib"


def _difflib_ratio(a: Sequence[int], b: Sequence[int]) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def ratio_function(resolved: str) -> Callable[[Sequence[int], Sequence[int]], float]:
    if resolved == "difflib":
        return _difflib_ratio
    from rapidfuzz.distance import Indel

    scorer = Indel.normalized_similarity

    def _rapidfuzz_ratio(a: Sequence[int], b: Sequence[int]) -> float:
        return float(scorer(a, b))

    return _rapidfuzz_ratio


class Vocabulary:
    """Token -> small int, assigned in first-seen order, so sequences compare as int lists."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}

    def encode(self, tokens: Sequence[str]) -> tuple[int, ...]:
        ids = self._ids
        setdefault = ids.setdefault
        return tuple([setdefault(tok, len(ids)) for tok in tokens])


def length_bound(la: int, lb: int) -> float:
    """difflib's real_quick_ratio: no two sequences can share more than the shorter one."""
    total = la + lb
    return 1.0 if total == 0 else 2.0 * min(la, lb) / total


def multiset_bound(counts_a: dict[int, int], counts_b: dict[int, int], total: int) -> float:
    """difflib's quick_ratio: matches are bounded by the multiset intersection of the tokens."""
    if total == 0:
        return 1.0
    if len(counts_a) > len(counts_b):
        counts_a, counts_b = counts_b, counts_a
    shared = 0
    get = counts_b.get
    for tok, n in counts_a.items():
        m = get(tok)
        if m:
            shared += n if n < m else m
    return 2.0 * shared / total


def token_counts(tokens: Sequence[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for tok in tokens:
        counts[tok] = counts.get(tok, 0) + 1
    return counts


class Similarity:
    """One run's scorer: the resolved backend, the shared prefilters and the run-wide budget."""

    def __init__(self, requested: str, max_comparisons: int) -> None:
        self.requested = requested
        self.resolved = resolve_backend(requested)
        self._ratio = ratio_function(self.resolved)
        self.max_comparisons = max_comparisons
        self.comparisons = 0
        self.budget_exhausted = False
        self._counts: dict[int, dict[int, int]] = {}

    def ratio(self, a: Sequence[int], b: Sequence[int]) -> float:
        """A plain score, no budget: for pairs already decided (confidence) and for floors."""
        if not a and not b:
            return 1.0
        if not a or not b:
            return 0.0
        if a == b:
            return 1.0
        return self._ratio(a, b)

    def charge(self) -> bool:
        """Take one comparison from the run-wide budget; False (and the flag set) when it is spent."""
        if self.comparisons >= self.max_comparisons:
            self.budget_exhausted = True
            return False
        self.comparisons += 1
        return True

    def bounded(
        self, a: Sequence[int], b: Sequence[int], key_a: int, key_b: int, floor: float
    ) -> float | None:
        """The score if it can reach ``floor``, else None; pruning is identical under both backends.

        ``key_a``/``key_b`` identify the sequences (for the cached token counts); source keys are
        non-negative and test keys negative so the two documents never share a cache slot.
        """
        la, lb = len(a), len(b)
        if length_bound(la, lb) < floor:
            return None
        counts = self._counts
        ca = counts.get(key_a)
        if ca is None:
            ca = counts[key_a] = token_counts(a)
        cb = counts.get(key_b)
        if cb is None:
            cb = counts[key_b] = token_counts(b)
        if multiset_bound(ca, cb, la + lb) < floor:
            return None
        score = self.ratio(a, b)
        return score if score >= floor else None
