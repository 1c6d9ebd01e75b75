"""The move pass: the only global search, over blocks the scoped descent left unmatched.

It stays silent unless the evidence is unambiguous - text unique on both sides, or a fuzzy best that
clears ``move_min_similarity`` and beats the runner-up by ``move_tie_margin`` in both directions -
because a wrong move costs a reader more trust than a missed one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from alignbench.alignment.engine import Walk

_EPSILON = 1e-9  # scores are ratios of small integers; keep 0.9 - 0.8 >= 0.1 true


def _candidates(walk: Walk, side: str) -> list[int]:
    doc = walk.src if side == "source" else walk.tst
    matched = walk.s2t if side == "source" else walk.t2s
    kinds = walk.config.move_kinds
    min_tokens = walk.config.move_min_tokens
    return [
        i
        for i in range(1, len(doc))
        if matched[i] == -1 and doc.kind[i] in kinds and len(doc.tokens(i)) >= min_tokens
    ]


def move_pass(walk: Walk) -> int:
    """Pair leftovers globally; every pair goes back on the descent queue. Returns the pair count."""
    made = _exact_stage(walk)
    return made + _fuzzy_stage(walk)


def _exact_stage(walk: Walk) -> int:
    src, tst, sim = walk.src, walk.tst, walk.sim
    sources = _candidates(walk, "source")
    tests = _candidates(walk, "test")
    count_s: dict[tuple[int, str], int] = {}
    for s in sources:
        k = (src.cls[s], src.text[s])
        count_s[k] = count_s.get(k, 0) + 1
    unique_t: dict[tuple[int, str], int] = {}
    count_t: dict[tuple[int, str], int] = {}
    for t in tests:
        k = (tst.cls[t], tst.text[t])
        count_t[k] = count_t.get(k, 0) + 1
        unique_t[k] = t
    made = 0
    for s in sources:
        k = (src.cls[s], src.text[s])
        if count_s[k] != 1 or count_t.get(k) != 1:
            continue
        if not sim.charge():
            break
        walk.pair(s, unique_t[k], "move", 1.0)
        made += 1
    return made


def _fuzzy_stage(walk: Walk) -> int:
    src, tst, sim, config = walk.src, walk.tst, walk.sim, walk.config
    sources = _candidates(walk, "source")
    tests = _candidates(walk, "test")
    if not sources or not tests or sim.budget_exhausted:
        return 0
    # A pair below this can be neither a winner nor a runner-up close enough to veto one.
    floor = max(0.0, config.move_min_similarity - config.move_tie_margin)
    by_class: dict[int, list[int]] = {}
    for t in tests:
        by_class.setdefault(tst.cls[t], []).append(t)
    scored: list[tuple[float, int, int, int]] = []  # (-score, nearness, s, t)
    for s in sources:
        a = src.tokens(s)
        for t in by_class.get(src.cls[s], ()):
            if not sim.charge():
                break
            score = sim.bounded(a, tst.tokens(t), s, ~t, floor)
            if score is not None:
                scored.append((-score, walk.nearness(s, t), s, t))
        if sim.budget_exhausted:
            break
    scored.sort()
    best_s: dict[int, tuple[float, int]] = {}
    best_t: dict[int, tuple[float, int]] = {}
    second_s: dict[int, float] = {}
    second_t: dict[int, float] = {}
    for neg, _, s, t in scored:  # best first, so the first seen per block is its best
        if s not in best_s:
            best_s[s] = (-neg, t)
        elif s not in second_s:
            second_s[s] = -neg
        if t not in best_t:
            best_t[t] = (-neg, s)
        elif t not in second_t:
            second_t[t] = -neg
    made = 0
    margin = config.move_tie_margin - _EPSILON
    for s in sources:
        if s not in best_s:
            continue
        score, t = best_s[s]
        if best_t[t][1] != s or score < config.move_min_similarity:
            continue
        if score - second_s.get(s, 0.0) < margin or score - second_t.get(t, 0.0) < margin:
            continue
        walk.pair(s, t, "move", score)
        made += 1
    return made
