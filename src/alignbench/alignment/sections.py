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
vocabulary (``section_body_min_similarity`` or above). A name alone is not enough ("Definitions" heads
sections of different documents), nor is a little shared vocabulary (unrelated sections of a bill
share most of their boilerplate); a body alone is, when it reads ``fuzzy_min_similarity`` alike ("General
Terms" renamed "Other Miscellaneous Provisions" over the same clauses, each a third reworded) and
neither heading names another unmatched container (:func:`lift.named_elsewhere`: a wrapper whose
name is elsewhere is that one). The pair must be each side's unique best by ``move_tie_margin`` (the
move pass's own bar for ambiguity). Sections only: a table or row is paired by its cells, and a
headingless container has no name. Each pair goes back on the descent queue, so the heading and the
clauses align inside it; the move rule then reports the section once, at its heading, when it changed
place in reading order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from alignbench.alignment.flat import CLASS_SECTION, unmatched
from alignbench.alignment.lift import named_elsewhere, unmatched_headed
from alignbench.alignment.moves import rank_scored

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
    open_s = {s: _body(src, s, walk.s2t) for s in sources}
    open_t = {t: _body(tst, t, walk.t2s) for t in tests}
    scored: list[tuple[float, int, int, int]] = []  # (-score, nearness, s, t), as the move pass ranks
    body_only: dict[int, set[int]] = {}
    for s in sources:
        for t in tests:
            if not sim.charge():
                break
            name = walk.headings.name_similarity(s, t, name_floor)
            if name is not None:
                body = sim.bounded(body_s[s], body_t[t], len(src) + s, ~(len(tst) + t), body_floor)
                if body is not None:
                    scored.append((-(name + body) / 2, walk.nearness(s, t), s, t))
                continue
            # A body alone counts only in the clauses nothing has paired yet: one clause that moved on
            # its own (and is paired) must not drag the section it left along with it.
            body = _open_similarity(walk, open_s[s], open_t[t], name_floor)
            if body is not None:
                scored.append((-body, walk.nearness(s, t), s, t))
                body_only.setdefault(s, set()).add(t)
        if sim.budget_exhausted:
            break
    best_s, best_t, second_s, second_t = rank_scored(scored)
    margin = config.move_tie_margin
    made = 0
    named = None
    for s in sources:  # each side's unique best, ahead of its runner-up by the margin
        if s not in best_s:
            continue
        score, t = best_s[s]
        if (
            best_t[t][1] != s
            or second_s.get(s, -1.0) > score - margin
            or second_t.get(t, -1.0) > score - margin
        ):
            continue
        if s in body_only:
            # A body alone does not outvote a name: a wrapper whose heading names another unmatched
            # container ("Terms of Service:" while a "Terms of Service" waits) is that one.
            named = named or (unmatched_headed(walk, "source"), unmatched_headed(walk, "test"))
            if t in body_only[s] and (
                named_elsewhere(walk, s, t, *named) or _name_left_elsewhere(walk, s, t)
            ):
                continue
        walk.pair(s, t, "move", score)
        made += 1
    return made


def _name_left_elsewhere(walk: Walk, s: int, t: int) -> bool:
    """Either heading's very words wait unpaired on the other side in another block (a heading demoted
    to a plain line, a line promoted to a heading): the name is there, so these bodies are look-alikes
    (boilerplate sections share their clauses), not one section renamed."""
    src, tst = walk.src, walk.tst
    hs, ht = src.heading_child(s), tst.heading_child(t)
    if hs is None or ht is None:
        return False
    name_s, name_t = src.text[hs], tst.text[ht]
    return any(tst.text[j] == name_s for j in unmatched(walk.t2s) if j != ht) or any(
        src.text[i] == name_t for i in unmatched(walk.s2t) if i != hs
    )


def _open_similarity(walk: Walk, a: tuple[int, ...], b: tuple[int, ...], floor: float) -> float | None:
    """The similarity of two open bodies (:func:`_body` with a partner column), if >= ``floor``."""
    if not a or not b or 2 * min(len(a), len(b)) < floor * (len(a) + len(b)):
        return None
    score = walk.sim.ratio(a, b)
    return score if score >= floor else None


def _body(doc: FlatDocument, section: int, partner: list[int] | None = None) -> tuple[int, ...]:
    """The tokens of the section's clauses, its heading aside; with ``partner``, of the still-unpaired
    clauses only (the open body)."""
    heading = doc.heading_child(section)
    return tuple(
        tok
        for c in doc.children[section]
        if c != heading and (partner is None or partner[c] == -1)
        for tok in doc.sim_tokens(c)
    )
