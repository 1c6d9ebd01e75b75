"""The move pass: the only global search, over blocks the scoped descent left unmatched.

It stays silent unless the evidence is unambiguous - text unique on both sides, or a fuzzy best that
clears ``move_min_similarity`` and beats the runner-up by ``move_tie_margin`` in both directions -
because a wrong move costs a reader more trust than a missed one.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from alignbench.alignment.flat import CLASS_HEADING, unmatched

if TYPE_CHECKING:
    from alignbench.alignment.engine import Walk

_EPSILON = 1e-9  # scores are ratios of small integers; keep 0.9 - 0.8 >= 0.1 true


def _candidates(walk: Walk, side: str, min_tokens: int | None = None) -> list[int]:
    """Unmatched blocks of a movable kind with at least ``min_tokens`` tokens (default: the config's)."""
    doc = walk.src if side == "source" else walk.tst
    matched = walk.s2t if side == "source" else walk.t2s
    kinds = walk.config.move_kinds
    floor = walk.config.move_min_tokens if min_tokens is None else min_tokens
    return [i for i in unmatched(matched) if doc.kind[i] in kinds and len(doc.tokens(i)) >= floor]


def move_pass(walk: Walk) -> int:
    """Pair leftovers globally; every pair goes back on the descent queue. Returns the pair count."""
    made = _exact_stage(walk)
    made += _cross_kind_stage(walk)
    made += _clause_name_stage(walk)
    return made + _fuzzy_stage(walk)


def _clause_name_stage(walk: Walk) -> int:
    """A clause named once in each whole document (a definition's term, a run-in title:
    :mod:`alignbench.alignment.clause_names`), both left unpaired, pairs however it was reworded and
    wherever it went: the definitions section of a contract moved and redrafted ('"Agreement" means
    the Standard Terms, the Order Form ...' -> '"Agreement" means ..., where reasonably practicable
    ...') keeps its terms, its general terms keep "Assignment." and "Notices.", and a lawyer reads each
    as the same clause. The label pass pairs defined terms inside one group; across the document the
    name must be unique in both whole documents, and the two texts must still share words
    (``sequence_min_similarity``), so a name re-used for something else entirely is not a move."""
    from alignbench.alignment.clause_names import clause_names

    src, tst, sim = walk.src, walk.tst, walk.sim
    names_s = clause_names(src, _candidates(walk, "source", min_tokens=1))
    if not names_s:
        return 0
    names_t = clause_names(tst, _candidates(walk, "test", min_tokens=1))
    shared = [(name, s, names_t[name]) for name, s in names_s.items() if name in names_t]
    if not shared:
        return 0
    # Whole-document uniqueness, read only when a leftover on each side carries the name (the few
    # leftovers are read first, so most runs never scan every block).
    once_s = clause_names(src, [i for i in range(1, len(src)) if src.kind[i] in walk.config.move_kinds])
    once_t = clause_names(tst, [i for i in range(1, len(tst)) if tst.kind[i] in walk.config.move_kinds])
    floor = walk.config.sequence_min_similarity
    made = 0
    for name, s, t in shared:
        if once_s.get(name) != s or once_t.get(name) != t or not sim.charge():
            continue
        score = sim.bounded(src.tokens(s), tst.tokens(t), s, ~t, floor)
        if score is not None:
            walk.pair(s, t, "move", score)
            made += 1
    return made


def _cross_kind_stage(walk: Walk) -> int:
    """A heading and a paragraph or list item of the same words, each the only block with that text in
    its whole document, pair (issue #29 class 6: a heading demoted to a plain line, or a bold line
    promoted to a heading, that also changed place). Within one kind class the exact stage already did
    this; across the heading/text divide only whole-document uniqueness is safe, since short titles
    ("Definitions") recur."""
    src, tst = walk.src, walk.tst
    kinds = walk.config.move_kinds
    if "heading" not in kinds or not ({"paragraph", "list_item"} & set(kinds)):
        return 0
    tests: dict[tuple[bool, str], int] = {}
    for t in _candidates(walk, "test", min_tokens=1):
        tests[(tst.cls[t] == CLASS_HEADING, tst.text[t])] = t
    whole_s: Counter[str] | None = None
    whole_t: Counter[str] | None = None
    made = 0
    for s in _candidates(walk, "source", min_tokens=1):
        text = src.text[s]
        t = tests.get((src.cls[s] != CLASS_HEADING, text))
        if t is None or walk.t2s[t] != -1:
            continue
        if whole_s is None or whole_t is None:  # counted only when a candidate needs them, at C speed
            whole_s, whole_t = Counter(src.text), Counter(tst.text)
        if whole_s[text] != 1 or whole_t[text] != 1:
            continue
        if not walk.sim.charge():
            break
        walk.pair(s, t, "move", 1.0)
        made += 1
    return made


def _text_counts(walk: Walk, side: str) -> dict[tuple[int, str], int]:
    """(kind class, text) -> how many blocks of one whole document carry it (matched or not)."""
    doc = walk.src if side == "source" else walk.tst
    counts: dict[tuple[int, str], int] = {}
    kinds = walk.config.move_kinds
    for i in range(1, len(doc)):
        if doc.kind[i] in kinds and doc.text[i]:
            k = (doc.cls[i], doc.text[i])
            counts[k] = counts.get(k, 0) + 1
    return counts


def _exact_stage(walk: Walk) -> int:
    """Byte-identical text unique among the leftovers on both sides is a move, whatever its length.

    ``move_min_tokens`` guards fuzzy moves only: a short text that matches exactly is as safe as a long
    one when it is unique. A short text must be unique in the whole document on both sides, though, not
    only among leftovers: "Reserved." deleted in one place and written anew in another is boilerplate,
    not a move, and a whole-document twin says the text is that kind of text. A text that a bucket of
    byte-identical siblings left over (``walk.ambiguous_keys``) is never moved: which twin is the
    leftover was decided by order alone, so the move would be a guess.
    """
    src, tst, sim = walk.src, walk.tst, walk.sim
    sources = _candidates(walk, "source", min_tokens=1)
    tests = _candidates(walk, "test", min_tokens=1)
    if not sources or not tests:
        return 0
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
    short = walk.config.move_min_tokens
    whole_s = whole_t = None
    blocked_s, blocked_t = walk.ambiguous_keys
    made = 0
    for s in sources:
        k = (src.cls[s], src.text[s])
        if count_s[k] != 1 or count_t.get(k) != 1 or k in blocked_s or k in blocked_t:
            continue
        if len(src.tokens(s)) < short:
            if whole_s is None or whole_t is None:
                whole_s, whole_t = _text_counts(walk, "source"), _text_counts(walk, "test")
            if whole_s.get(k) != 1 or whole_t.get(k) != 1:
                continue
        if not sim.charge():
            break
        walk.pair(s, unique_t[k], "move", 1.0)
        made += 1
    return made


Best = dict[int, tuple[float, int]]
Ranking = tuple[Best, Best, dict[int, float], dict[int, float]]


def rank_candidates(walk: Walk, sources: list[int], tests: list[int], floor: float) -> Ranking:
    """Each block's best partner and runner-up score among same-class leftovers on the other side.

    Every comparison is charged to the run-wide budget. Returns ``(best_s, best_t, second_s,
    second_t)``: best maps a block to ``(score, partner)``, second to the runner-up's score; ties on
    score go to the nearer pair (``walk.nearness``), then to document order.
    """
    src, tst, sim = walk.src, walk.tst, walk.sim
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
    return rank_scored(scored)


def rank_scored(scored: list[tuple[float, int, int, int]]) -> Ranking:
    """:func:`rank_candidates`'s ranking of candidates already scored, ``(-score, nearness, s, t)``."""
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
    return best_s, best_t, second_s, second_t


def _fuzzy_stage(walk: Walk) -> int:
    src, tst, sim, config = walk.src, walk.tst, walk.sim, walk.config
    blocked = walk.ambiguous_keys[0] | walk.ambiguous_keys[1]
    sources = [s for s in _candidates(walk, "source") if (src.cls[s], src.text[s]) not in blocked]
    tests = [t for t in _candidates(walk, "test") if (tst.cls[t], tst.text[t]) not in blocked]
    if not sources or not tests or sim.budget_exhausted:
        return 0
    # A pair below this can be neither a winner nor a runner-up close enough to veto one.
    floor = max(0.0, config.move_min_similarity - config.move_tie_margin)
    best_s, best_t, second_s, second_t = rank_candidates(walk, sources, tests, floor)
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
