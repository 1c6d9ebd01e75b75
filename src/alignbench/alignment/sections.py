"""Sections by name and body: a moved section whose heading and body were both edited (issue #29).

The container lift pairs a moved section through its children's pairs, or by a heading name that is
byte-for-byte unique on both sides with a body that still reads alike. A section that moved *and* was
revised throughout - "Requests for Takedown of Other Content" -> "Requests for Takedown of Content",
its two paragraphs merged and reworded; "Responsibility of Visitors." -> "Responsibility of Visitors
and Users", one paragraph grown into ten items - has neither: no child clears the move pass's 0.80,
the heading is too short to move on its own (``move_min_tokens``), and fuzzy is gap-scoped, so it
cannot reach a section that crossed its siblings. Every pass then leaves both sides unpaired, and a
reviewer is told a section was deleted and another inserted.

Two pieces of evidence together pair it: the names read alike (``fuzzy_min_similarity`` or above, by
:meth:`HeadingReadings.name_similarity`, rare words weighing more) *and* the whole bodies share
vocabulary (``section_body_min_similarity`` or above). Neither alone is enough - unrelated sections
of a bill share most of their boilerplate, and "Definitions" heads sections of different documents -
and the pair must be each side's unique best by ``move_tie_margin`` (the move pass's own bar for
ambiguity). Sections only: a table or row is paired by its cells, and a headingless container has no
name. Each pair goes back on the descent queue, so the heading and the clauses align inside it; the
move rule then reports the section once, at its heading, when it changed place in reading order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from alignbench.alignment.flat import CLASS_SECTION, unmatched

if TYPE_CHECKING:
    from alignbench.alignment.engine import Walk
    from alignbench.alignment.flat import FlatDocument


def _named_sections(walk: Walk, side: int) -> list[int]:
    """Unmatched sections of one side whose heading has words and is unpaired."""
    doc = walk.src if side == 0 else walk.tst
    partner = walk.s2t if side == 0 else walk.t2s
    out = []
    for i in unmatched(partner):
        if doc.cls[i] != CLASS_SECTION:
            continue
        h = doc.heading_child(i)
        if h is not None and partner[h] == -1 and doc.names(i) is not None:
            out.append(i)
    return out


def pair_sections_by_name_and_body(walk: Walk) -> int:
    """Pair every mutually, uniquely best (name, body) section pair; returns the pairs made."""
    sources = _named_sections(walk, 0)
    if not sources:
        return 0
    tests = _named_sections(walk, 1)
    if not tests:
        return 0
    config, sim, src, tst = walk.config, walk.sim, walk.src, walk.tst
    name_floor, body_floor = config.fuzzy_min_similarity, config.section_body_min_similarity
    # Bodies without their headings: a shared name must not count twice. Keyed past every block of
    # their document, so they never share a memo slot with a block's own tokens.
    body_s = {s: _body(src, s) for s in sources}
    body_t = {t: _body(tst, t) for t in tests}
    scored: list[tuple[float, int, int]] = []
    for s in sources:
        for t in tests:
            if not sim.charge():
                break
            name = walk.headings.name_similarity(s, t, name_floor)
            if name is None:
                continue
            body = sim.bounded(body_s[s], body_t[t], len(src) + s, ~(len(tst) + t), body_floor)
            if body is not None:
                scored.append(((name + body) / 2, s, t))
        if sim.budget_exhausted:
            break
    made = 0
    margin = config.move_tie_margin
    for score, s, t in _unique_best(scored, margin):
        walk.pair(s, t, "move", score)
        made += 1
    return made


def _body(doc: FlatDocument, section: int) -> tuple[int, ...]:
    heading = doc.heading_child(section)
    return tuple(tok for c in doc.children[section] if c != heading for tok in doc.sim_tokens(c))


def _unique_best(scored: list[tuple[float, int, int]], margin: float) -> list[tuple[float, int, int]]:
    """The (score, s, t) that are the best of both their source's and their test's candidates, each
    ahead of that side's runner-up by ``margin``; in source order."""
    by_s: dict[int, list[float]] = {}
    by_t: dict[int, list[float]] = {}
    best_s: dict[int, tuple[float, int]] = {}
    best_t: dict[int, tuple[float, int]] = {}
    for score, s, t in scored:
        by_s.setdefault(s, []).append(score)
        by_t.setdefault(t, []).append(score)
        if s not in best_s or score > best_s[s][0]:
            best_s[s] = (score, t)
        if t not in best_t or score > best_t[t][0]:
            best_t[t] = (score, s)
    out = []
    for score, s, t in scored:
        if best_s[s] != (score, t) or best_t[t] != (score, s):
            continue
        if _runner_up(by_s[s]) > score - margin or _runner_up(by_t[t]) > score - margin:
            continue
        out.append((score, s, t))
    return sorted(out, key=lambda c: (c[1], c[2]))


def _runner_up(scores: list[float]) -> float:
    return sorted(scores, reverse=True)[1] if len(scores) > 1 else -1.0
