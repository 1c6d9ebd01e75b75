"""The headings of two sections that already correspond: when they pair though their names drifted,
and when a wrapper's name says they must not. Run by the positional pass for each paired group."""

from __future__ import annotations

from typing import TYPE_CHECKING

from alignbench.alignment.lift import wholly_carried

if TYPE_CHECKING:
    from alignbench.alignment.engine import Walk


def headings_of_paired_sections(walk: Walk, ps: int, pt: int) -> int:
    """Two corresponding sections whose headings carry the same label and are both still unpaired
    pair those headings, however far the wording drifted ("14 Disclaimer of Warranties" -> "14
    Disclaimers"): the label pass refuses them under ``label_min_similarity``, but inside sections
    that already correspond, the label is the heading's identity. Unlabelled headings are left to
    the similarity floors - two sections paired wrongly would otherwise drag their names along -
    unless the sections' own contents pair them (``fuzzy_min_similarity`` or above, by a pass that
    reads content), or the container lift paired them and their names share a word or the section
    went whole (:func:`_lift_names_them`): a moved section renamed and renumbered ("6 Confidentiality"
    -> "1 Confidential Information") keeps its name's place, and its move is then reported once, at
    its heading."""
    src, tst = walk.src, walk.tst
    if src.kind[ps] != "section" or tst.kind[pt] != "section":
        return 0
    hs, ht = src.heading_child(ps), tst.heading_child(pt)
    if hs is None or ht is None or walk.s2t[hs] != -1 or walk.t2s[ht] != -1:
        return 0
    same_label = bool(src.label[hs]) and src.label[hs] == tst.label[ht]
    close = walk.confidence[ps] >= walk.config.fuzzy_min_similarity
    by_content = (walk.matched_by[ps] in ("fuzzy", "label") and close) or (
        walk.matched_by[ps] == "move" and (close or _lift_names_them(walk, hs, ht, ps, pt))
    )
    if not (same_label or by_content):
        return 0
    if not same_label and _wrapper_named_better(walk, hs, ht, ps, pt):
        return 0
    walk.pair(hs, ht, "positional", walk.score(hs, ht))
    return 1


def _lift_names_them(walk: Walk, hs: int, ht: int, ps: int, pt: int) -> bool:
    """Two sections the container lift paired on their children's moves, under the content floor, give
    their headings to each other when the names share a word ("More Information on Data Release and
    Retention" -> "User Information Management") or the section went whole ("Contact" -> "Reach", its
    one clause with it). A lift on a few children alone (a "NOT allowed" sub-list whose items went into
    "Youth Sexual and Physical Abuse") does not drag a name along."""
    return (walk.headings.name_similarity(hs, ht, 0.0) or 0.0) > 0.0 or wholly_carried(walk, ps, pt)


def _wrapper_named_better(walk: Walk, hs: int, ht: int, ps: int, pt: int) -> bool:
    """A wrapper inserted over a section takes the section's old name ("How We Use Information" ->
    "How And Why We Use Information" over a new "Purposes for Using Information", the old clauses
    below it), and a wrapper removed gives it back: when the unpaired heading of the parent on one
    side reads more like the other heading, by ``label_text_margin`` and at ``fuzzy_min_similarity``,
    than the two headings paired here do, the name went with the wrapper, and the two headings are
    left to the passes that read them (the sequence pass pairs the old name with the wrapper's)."""
    src, tst, config = walk.src, walk.tst, walk.config
    here = walk.headings.name_similarity(hs, ht, 0.0) or 0.0
    floor = max(config.fuzzy_min_similarity, here + config.label_text_margin)
    wrapper_t = tst.heading_child(tst.parent[pt]) if tst.parent[pt] > 0 else None
    if (
        wrapper_t is not None
        and walk.t2s[wrapper_t] == -1
        and walk.headings.name_similarity(hs, wrapper_t, floor) is not None
    ):
        return True
    wrapper_s = src.heading_child(src.parent[ps]) if src.parent[ps] > 0 else None
    return (
        wrapper_s is not None
        and walk.s2t[wrapper_s] == -1
        and walk.headings.name_similarity(wrapper_s, ht, floor) is not None
    )
