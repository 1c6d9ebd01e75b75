"""Token similarity with two selectable backends behind one set of prefilters.

Both backends compute 2*M/(len(a)+len(b)) over token sequences (difflib's greedy matching blocks,
rapidfuzz's true LCS), so they can differ slightly; what they must never differ on is which pairs
are looked at. Every candidate is charged to the one run-wide budget (:meth:`Similarity.charge`)
and goes through backend-independent upper bounds before any ratio runs.

The budget counts cost as well as comparisons. A ratio over token sequences of lengths m and n costs
up to m*n steps (difflib's matcher is quadratic on text with frequent words: 0.35 s at 4,000 tokens a
side, over a minute for a 1 MB paragraph), so counting a 1 MB pair as one comparison let a single
pair run unbounded. Every ratio now adds its cost (:func:`pair_cost`) to a run-wide tally, and the
budget is spent when either the comparisons or the cost run out (``budget_exhausted``). One pair is
bounded too: above :data:`PAIR_COST_CAP` it is scored on content-defined chunks (:func:`chunked_ratio`).
"""

from __future__ import annotations

import importlib.util
import re
import zlib
from collections.abc import Callable, Sequence
from functools import cache
from itertools import islice
from math import isqrt

from alignbench.alignment.config import BACKENDS, AlignmentConfigError

try:  # CPython's difflib compiled: same algorithm, junk and tie rules, so the same blocks and ratios
    from cydifflib import SequenceMatcher
except ImportError:  # pragma: no cover - the lock installs it; the standard library gives identical results
    from difflib import SequenceMatcher

# The redlines tokenizer's tokens with their trailing whitespace stripped: the units the leaf diff reports.
_TOKEN = re.compile(r"[^()\s]+|[().?!-]")


# A ratio over m x n tokens costs m*n; above this one pair is scored on chunks. 4,096 tokens a side:
# above every pair of the committed corpus (the largest is 2,989 a side), so no result changes.
PAIR_COST_CAP = 1 << 24
# The run-wide cost budget is ``max_comparisons`` comparisons of this cost (a 32 x 32-token clause
# pair): the default 2M comparisons allow 2e9 token steps, 50 times the costliest committed pair run.
COST_UNIT = 1 << 10
# Above this token product the multiset bound is counted (linear) rather than found as the LCS of the
# sorted sequences (bit-parallel, so m*n/64 steps: microseconds for clauses, 0.4 s for a 1 MB paragraph).
SORTED_LCS_CAP = 1 << 22
# Past the chunk match, at most this many caps are spent re-scoring the unmatched stretches of one pair.
_REGION_CAPS = 4
_MIX = 2654435761  # Knuth's multiplicative hash: spreads small vocabulary ids over the chunk widths


def pair_cost(la: int, lb: int) -> int:
    """What comparing two sequences costs the budget: the token steps of a quadratic matcher."""
    return la * lb


def chunks(seq: Sequence[int], width: int, marks: Sequence[int] | None = None) -> list[tuple[int, ...]]:
    """Content-defined chunks of about ``width`` tokens (between width/2 and 4*width).

    A chunk ends after a token whose mixed mark falls on a multiple of ``width``, so an edit shifts only
    the chunks around it and the two sides re-synchronise after it; the length limits keep the chunk
    count within 2*len/width whatever the vocabulary (a text of one repeated word still chunks). A
    token's mark is ``marks[token]`` (:meth:`Vocabulary.marks`, drawn from the token's text), or the
    token itself without ``marks``."""
    out: list[tuple[int, ...]] = []
    start = 0
    low, high = max(1, width // 2), 4 * width
    for i, tok in enumerate(seq):
        size = i + 1 - start
        mark = tok if marks is None else marks[tok]
        if (size >= low and ((mark * _MIX) >> 7) % width == 0) or size >= high:
            out.append(tuple(seq[start : i + 1]))
            start = i + 1
    if start < len(seq):
        out.append(tuple(seq[start:]))
    return out


def chunked_ratio(
    a: Sequence[int],
    b: Sequence[int],
    ratio: Callable[[Sequence[int], Sequence[int]], float],
    cap: int,
    marks: Sequence[int] | None = None,
) -> tuple[float, int]:
    """(score, cost) of a pair too long to compare token by token: a bounded stand-in for ``ratio``.

    Both sides are cut into content-defined chunks sized so that chunks x chunks <= ``cap``; equal
    chunks are matched by difflib, and each stretch between matched chunks is re-scored token by token
    with ``ratio`` while it fits the cap. The matches form one common subsequence, so the score never
    exceeds the true LCS ratio; on a revised text (few, local edits) it is within a hair of it.
    """
    la, lb = len(a), len(b)
    width = 2 * isqrt(la * lb // cap) + 2
    ca, cb = chunks(a, width, marks), chunks(b, width, marks)
    cost = pair_cost(len(ca), len(cb))
    region_budget = _REGION_CAPS * cap
    matched = 0.0
    for op, i1, i2, j1, j2 in SequenceMatcher(None, ca, cb, autojunk=False).get_opcodes():
        if op == "equal":
            matched += sum(len(c) for c in ca[i1:i2])
        elif op == "replace":
            ra = [tok for c in ca[i1:i2] for tok in c]
            rb = [tok for c in cb[j1:j2] for tok in c]
            step = pair_cost(len(ra), len(rb))
            if step <= cap and step <= region_budget:
                region_budget -= step
                cost += step
                matched += ratio(ra, rb) * (len(ra) + len(rb)) / 2.0
    return 2.0 * matched / (la + lb), cost


def tokenise(text: str) -> list[str]:
    """``_TOKEN.findall(text)``, a test holds them equal: its first branch takes every run of
    characters that are neither white space nor a parenthesis (``.?!-`` included), so only a
    parenthesis ever reaches the second, and the tokens are the white-space-separated words with each
    parenthesis cut out as a token of its own. ``str.split`` and the regex's ``\\s`` share one
    definition of white space, and splitting is a tenth of the cost of the regex scan."""
    if "(" in text or ")" in text:
        text = text.replace("(", " ( ").replace(")", " ) ")
    return text.split()


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
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def ratio_function(resolved: str) -> Callable[[Sequence[int], Sequence[int]], float]:
    if resolved == "difflib":
        return _difflib_ratio
    from rapidfuzz.distance import Indel

    scorer = Indel.normalized_similarity

    def _rapidfuzz_ratio(a: Sequence[int], b: Sequence[int]) -> float:
        return float(scorer(a, b))

    return _rapidfuzz_ratio


class _Ids(dict):  # type: ignore[type-arg]
    """Token -> id, a new token getting the count of tokens seen before it. A lookup is the dict's own
    C subscript; only a token seen for the first time reaches ``__missing__``."""

    __slots__ = ()

    def __missing__(self, token: str) -> int:
        value = self[token] = len(self)
        return value


class Vocabulary:
    """Token -> small int, assigned in first-seen order, so sequences compare as int lists."""

    def __init__(self) -> None:
        self._ids = _Ids()
        self._lookup = self._ids.__getitem__
        self._marks: list[int] = []

    def encode(self, tokens: Sequence[str]) -> tuple[int, ...]:
        return tuple(map(self._lookup, tokens))

    def marks(self) -> list[int]:
        """Each token id's chunk mark (:func:`chunks`): the CRC-32 of the token's text.

        An id says only in which order a token was first seen, which depends on what the run compared
        before; a chunk boundary drawn from the id would make a long pair's score depend on that order
        (and differ between a fresh run and one sharing a :class:`PairMemo`). Only long pairs ask for
        marks, so they are computed then, for the tokens seen since the last call."""
        known = self._marks
        if len(known) < len(self._ids):
            new_tokens = islice(self._ids, len(known), None)  # a dict iterates in id order
            known.extend(zlib.crc32(tok.encode("utf-8", "surrogatepass")) for tok in new_tokens)
        return known


def length_bound(la: int, lb: int) -> float:
    """difflib's real_quick_ratio: no two sequences can share more than the shorter one."""
    total = la + lb
    return 1.0 if total == 0 else 2.0 * min(la, lb) / total


def multiset_bound(counts_a: dict[int, int], counts_b: dict[int, int], total: int) -> float:
    """difflib's quick_ratio: matches are bounded by the multiset intersection of the tokens."""
    return 1.0 if total == 0 else 2.0 * _shared_by_counts(counts_a, counts_b) / total


def shared_tokens_by_counts(a: Sequence[int], b: Sequence[int]) -> int:
    """The size of the multiset intersection of two token sequences (in any order), in pure Python:
    linear in their lengths, where the LCS of sorted sequences (:func:`shared_token_counter`) is not."""
    return _shared_by_counts(token_counts(a), token_counts(b))


def _shared_by_counts(counts_a: dict[int, int], counts_b: dict[int, int]) -> int:
    if len(counts_a) > len(counts_b):
        counts_a, counts_b = counts_b, counts_a
    shared = 0
    get = counts_b.get
    for tok, n in counts_a.items():
        m = get(tok)
        if m:
            shared += n if n < m else m
    return shared


@cache
def shared_token_counter() -> Callable[[Sequence[int], Sequence[int]], int]:
    """How many tokens two *sorted* sequences share as multisets: what :func:`multiset_bound` counts.

    Two sorted sequences' longest common subsequence is exactly their multiset intersection (equal
    tokens sit in one run on each side, so a common subsequence takes min(count) of every token and
    can take no more), and rapidfuzz finds it bit-parallel in C: a few microseconds for a clause pair,
    where the two count dicts cost several times the ratio they guard. Without rapidfuzz (the difflib
    backend does not need it) the counts are taken in Python; both give the same integer."""
    if importlib.util.find_spec("rapidfuzz") is None:  # pragma: no cover - the lock installs it
        return shared_tokens_by_counts
    from rapidfuzz.distance.LCSseq import similarity

    return similarity


def token_counts(tokens: Sequence[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for tok in tokens:
        counts[tok] = counts.get(tok, 0) + 1
    return counts


class PairMemo:
    """What comparing one document pair found, for every later alignment of the same pair to reuse.

    The score stage aligns each pair again with each pass left out, and those runs compare mostly the
    same block pairs. Keys are block keys as :meth:`Similarity.bounded` takes them (a source index, or
    ``~index`` of a test block), each naming one token sequence of one document pair (its
    ``sim_tokens``), so a memo serves only the pair (and the :class:`Vocabulary`) it was filled with.
    Bounds are backend-independent; ratios are kept per resolved backend, with the cost each one
    added, so a run that reuses a ratio still charges its budget exactly as if it had computed it.
    """

    def __init__(self, vocabulary: Vocabulary | None = None) -> None:
        self.vocabulary = vocabulary
        self.sorted_tokens: dict[int, list[int]] = {}
        self.shared_tokens: dict[tuple[int, int], int] = {}
        self.ratios: dict[str, dict[tuple[int, int], tuple[float, int]]] = {}


class Similarity:
    """One run's scorer: the resolved backend, the shared prefilters and the run-wide budget.

    ``memo`` carries bounds and ratios over from earlier runs on the same document pair (see
    :class:`PairMemo`); without one the run keeps its own, so a block pair met twice is scored once."""

    def __init__(
        self, requested: str, max_comparisons: int, max_cost: int | None = None, memo: PairMemo | None = None
    ) -> None:
        self.requested = requested
        self.resolved = resolve_backend(requested)
        self._ratio = ratio_function(self.resolved)
        self.max_comparisons = max_comparisons
        self.max_cost = max_comparisons * COST_UNIT if max_cost is None else max_cost
        self.comparisons = 0
        self.cost = 0
        self.budget_exhausted = False
        self._shared_tokens = shared_token_counter()
        memo = PairMemo() if memo is None else memo
        self._vocabulary = memo.vocabulary
        self._sorted = memo.sorted_tokens
        self._shared = memo.shared_tokens
        self._ratios = memo.ratios.setdefault(self.resolved, {})

    def ratio(self, a: Sequence[int], b: Sequence[int]) -> float:
        """A score with no gate (pairs already decided, floors), its cost added to the run's tally."""
        if not a and not b:
            return 1.0
        if not a or not b:
            return 0.0
        if a == b:
            return 1.0
        cost = pair_cost(len(a), len(b))
        if cost <= PAIR_COST_CAP:
            self.cost += cost
            return self._ratio(a, b)
        marks = None if self._vocabulary is None else self._vocabulary.marks()
        score, cost = chunked_ratio(a, b, self._ratio, PAIR_COST_CAP, marks)
        self.cost += cost
        return score

    def keyed_ratio(self, a: Sequence[int], b: Sequence[int], key_a: int, key_b: int) -> float:
        """:meth:`ratio` of two keyed sequences (see :meth:`bounded`), computed once per memo: a
        repeat adds the cost the first computation added, so the budget runs as if it were computed."""
        key = (key_a, key_b)
        known = self._ratios.get(key)
        if known is None:
            before = self.cost
            score = self.ratio(a, b)
            self._ratios[key] = (score, self.cost - before)
            return score
        self.cost += known[1]
        return known[0]

    def charge(self) -> bool:
        """Take one comparison from the run-wide budget; False (and the flag set) when either the
        comparisons or the cost of the ratios run so far (:func:`pair_cost`) have run out."""
        if self.comparisons >= self.max_comparisons or self.cost >= self.max_cost:
            self.budget_exhausted = True
            return False
        self.comparisons += 1
        return True

    def bounded(
        self, a: Sequence[int], b: Sequence[int], key_a: int, key_b: int, floor: float
    ) -> float | None:
        """The score if it can reach ``floor``, else None; pruning is identical under both backends.

        ``key_a``/``key_b`` identify the sequences (for the cached bounds and ratios, see
        :class:`PairMemo`); source keys are non-negative and test keys negative so the two documents
        never share a cache slot.
        """
        la, lb = len(a), len(b)
        total = la + lb
        # length_bound and multiset_bound, written out: this runs for every candidate of every pass.
        if total and 2.0 * (la if la < lb else lb) / total < floor:
            return None
        key = (key_a, key_b)
        shared = self._shared.get(key)
        if shared is None and la * lb > SORTED_LCS_CAP:
            shared = self._shared[key] = shared_tokens_by_counts(a, b)
        elif shared is None:
            cache = self._sorted
            sa = cache.get(key_a)
            if sa is None:
                sa = cache[key_a] = sorted(a)
            sb = cache.get(key_b)
            if sb is None:
                sb = cache[key_b] = sorted(b)
            shared = self._shared[key] = self._shared_tokens(sa, sb)
        if total and 2.0 * shared / total < floor:
            return None
        score = self.keyed_ratio(a, b, key_a, key_b)
        return score if score >= floor else None
