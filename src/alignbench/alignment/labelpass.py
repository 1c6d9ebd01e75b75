"""Pass 2, label: unpaired siblings that carry the same label pair, best similarity first.

A label says where a clause sits; the text says what it is. When a new 8.2 is inserted before an
edited old 8.2 (now 8.3), the labels agree on 8.2/8.2 at a similarity of 0.5 while old 8.2 reads
0.95 against new 8.3: the label must not outvote the text (issue #29, class 4). So a label pair is
refused when either block has another unpaired partner of its kind class in the group, within the
fuzzy window, more similar by ``label_text_margin`` and at least ``fuzzy_min_similarity``; the fuzzy
pass then pairs by text. A label pair already within the margin of 1.0 cannot be outvoted and is not
checked, so the common case (a renumbered clause whose text barely changed) costs nothing more.

A defined term is a label too. In a definitions list the term names the clause ('"Work" means the
copyrightable work ...' became '"Work" means the literary and/or artistic work ...', similarity 0.10),
however the definition was rewritten; a lawyer reads both as "the definition of Work". So, after the
labels, two unpaired text blocks of one group that define the same term (quoted, or one to four
capitalised words, followed by "means", "shall mean" or "has the meaning"; case aside), each the only
block of its side's leftovers defining it, pair - under the same text veto. And two definitions of
different terms never pair by their labels: a definitions list re-lettered when a term was added
("e" defined "Work" and now defines "Licensor") would otherwise pair every definition with its
neighbour's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from alignbench.alignment.clause_names import defined_term, named_once

if TYPE_CHECKING:
    from alignbench.alignment.engine import Walk
    from alignbench.alignment.flat import FlatDocument

Candidate = tuple[float, int, int, int]  # (-score, nearness, source, test)


def label_pass(walk: Walk, left_s: list[int], left_t: list[int]) -> None:
    src, tst, sim = walk.src, walk.tst, walk.sim
    floor = walk.config.label_min_similarity
    by_label: dict[tuple[int, str], list[int]] = {}
    for t in left_t:
        lab = tst.effective_label[t]
        if lab:
            by_label.setdefault((tst.cls[t], lab), []).append(t)
    candidates: list[Candidate] = []
    for s in left_s:
        lab = src.effective_label[s]
        if not lab:
            continue
        for t in by_label.get((src.cls[s], lab), ()):
            if not sim.charge():
                break
            score = walk.similarity(s, t, floor)
            if score is not None and not _defines_another_term(src.text[s], tst.text[t]):
                candidates.append((-score, walk.nearness(s, t), s, t))
    if candidates:
        candidates.sort()
        outvoted = _outvoted_by_text(walk, candidates, left_s, left_t)
        for neg, _, s, t in candidates:
            if walk.s2t[s] == -1 and walk.t2s[t] == -1 and (s, t) not in outvoted:
                walk.pair(s, t, "label", -neg)
    _defined_terms(walk, left_s, left_t)


def _defines_another_term(a: str, b: str) -> bool:
    """Both texts are definitions, of different terms: a re-lettered definitions list ("e" was "Work",
    is now "Licensor") must not pair by its letters."""
    term_a = defined_term(a)
    return term_a is not None and (term_b := defined_term(b)) is not None and term_a != term_b


def _defined_terms(walk: Walk, left_s: list[int], left_t: list[int]) -> None:
    src, tst = walk.src, walk.tst
    terms_s = _terms(src, [s for s in left_s if walk.s2t[s] == -1])
    if not terms_s:
        return
    terms_t = _terms(tst, [t for t in left_t if walk.t2s[t] == -1])
    candidates: list[Candidate] = []
    for term, s in terms_s.items():
        t = terms_t.get(term)
        if t is not None and walk.sim.charge():
            candidates.append((-walk.score(s, t), walk.nearness(s, t), s, t))
    if not candidates:
        return
    candidates.sort()
    outvoted = _outvoted_by_text(walk, candidates, left_s, left_t)
    for neg, _, s, t in candidates:
        if (s, t) not in outvoted:
            walk.pair(s, t, "label", -neg)


def _terms(doc: FlatDocument, blocks: list[int]) -> dict[str, int]:
    """Term -> the one block of ``blocks`` defining it (terms defined twice are left out)."""
    return named_once(doc, blocks, defined_term)


def _outvoted_by_text(
    walk: Walk, candidates: list[Candidate], left_s: list[int], left_t: list[int]
) -> set[tuple[int, int]]:
    """The label candidates a much better text match outvotes (see the module docstring)."""
    config, src, tst = walk.config, walk.src, walk.tst
    margin, floor, window = config.label_text_margin, config.fuzzy_min_similarity, config.fuzzy_window
    if -candidates[-1][0] + margin > 1.0:  # sorted best first: if the weakest cannot be outvoted, none can
        return set()
    rank_s = {s: k for k, s in enumerate(left_s)}
    rank_t = {t: k for k, t in enumerate(left_t)}
    out: set[tuple[int, int]] = set()

    # Rivals are read, not searched for: the label comparison that made the candidate was charged, the
    # rivals lie within the fuzzy window, and their ratios add to the run's cost tally. Charging them
    # too would make the comparison count depend on the scores (a candidate within the margin of 1.0
    # reads no rival), and both backends must make the same comparisons.
    def reaches(s: int, t: int, need: float) -> bool:
        return not walk.sim.budget_exhausted and walk.similarity(s, t, need) is not None

    for neg, _, s, t in candidates:
        need = max(floor, -neg + margin)
        if need > 1.0:
            continue
        rivals_t = left_t[max(0, rank_t[t] - window) : rank_t[t] + window + 1]
        rivals_s = left_s[max(0, rank_s[s] - window) : rank_s[s] + window + 1]
        if any(r != t and tst.cls[r] == src.cls[s] and reaches(s, r, need) for r in rivals_t) or any(
            r != s and src.cls[r] == tst.cls[t] and reaches(r, t, need) for r in rivals_s
        ):
            out.add((s, t))
    return out
