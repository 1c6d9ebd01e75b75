"""The loose move round: moved *and* edited clauses the strict move pass is right to refuse alone.

A clause that moves and gains a sentence reads 0.6 against its old self, far under
``move_min_similarity``, yet nothing else in either document resembles it. The strict pass cannot know
that; this round, run after it (and after the container lift) over what is still unmatched, can:

1. every leftover pair of one kind class scoring at least ``move_loose_min_similarity`` is a candidate
   (``move_min_tokens`` applies, both sides - a fuzzy match of a short text proves nothing);
2. a candidate must be the unique best of both of its blocks, ahead of each runner-up by
   ``move_tie_margin`` (the strict pass's own ambiguity bar);
3. and it needs one more piece of evidence that is not the ratio itself:
   - section context: the two blocks sit in corresponding parents (a swap or reorder inside one
     section that fuzzy's gap could not reach), or carry the same label, or a neighbour (the previous
     or next sibling) of one is paired with a neighbour of the other; or
   - a local edit: the matching token blocks cover at least ``move_loose_min_containment`` of the
     shorter text - words were added or dropped around an intact clause, not rewritten through it.

Every comparison is charged to the run-wide budget; the round stops where the budget does. The
containment reading uses difflib for both backends, so both look at the same evidence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from alignbench.alignment.flat import unmatched
from alignbench.alignment.moves import rank_candidates
from alignbench.alignment.similarity import SequenceMatcher

if TYPE_CHECKING:
    from alignbench.alignment.engine import Walk

_EPSILON = 1e-9


def _leftovers(walk: Walk, side: str) -> list[int]:
    doc = walk.src if side == "source" else walk.tst
    matched = walk.s2t if side == "source" else walk.t2s
    kinds = walk.config.move_kinds
    floor = walk.config.move_min_tokens
    blocked = walk.ambiguous_keys[0] | walk.ambiguous_keys[1]
    return [
        i
        for i in unmatched(matched)
        if doc.kind[i] in kinds and len(doc.tokens(i)) >= floor and (doc.cls[i], doc.text[i]) not in blocked
    ]


def containment(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """Share of the shorter token sequence covered by the blocks it has in common with the longer."""
    if not a or not b:
        return 0.0
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    shared = sum(block.size for block in matcher.get_matching_blocks())
    return shared / min(len(a), len(b))


def _neighbours_agree(walk: Walk, s: int, t: int) -> bool:
    """The previous or the next sibling of ``s`` is paired with the same-side sibling of ``t``."""
    src, tst = walk.src, walk.tst
    kids_s, kids_t = src.children[src.parent[s]], tst.children[tst.parent[t]]
    ps, pt = src.position[s], tst.position[t]
    for step in (-1, 1):
        a, b = ps + step, pt + step
        if 0 <= a < len(kids_s) and 0 <= b < len(kids_t) and walk.s2t[kids_s[a]] == kids_t[b]:
            return True
    return False


def _context_agrees(walk: Walk, s: int, t: int) -> bool:
    src, tst = walk.src, walk.tst
    if walk.s2t[src.parent[s]] == tst.parent[t]:
        return True
    if src.label[s] and src.label[s] == tst.label[t]:
        return True
    return _neighbours_agree(walk, s, t)


def loose_move_pass(walk: Walk) -> int:
    """Pair mutually unique, context- or containment-backed leftovers. Returns the pair count."""
    src, tst, sim, config = walk.src, walk.tst, walk.sim, walk.config
    sources, tests = _leftovers(walk, "source"), _leftovers(walk, "test")
    if not sources or not tests or sim.budget_exhausted:
        return 0
    floor = max(0.0, config.move_loose_min_similarity - config.move_tie_margin)
    best_s, best_t, second_s, second_t = rank_candidates(walk, sources, tests, floor)
    margin = config.move_tie_margin - _EPSILON
    made = 0
    for s in sources:
        if s not in best_s:
            continue
        score, t = best_s[s]
        if best_t[t][1] != s or score < config.move_loose_min_similarity - _EPSILON:
            continue
        if score - second_s.get(s, 0.0) < margin or score - second_t.get(t, 0.0) < margin:
            continue
        if not (
            _context_agrees(walk, s, t)
            or containment(src.tokens(s), tst.tokens(t)) >= config.move_loose_min_containment - _EPSILON
        ):
            continue
        walk.pair(s, t, "move", score)
        made += 1
    return made
