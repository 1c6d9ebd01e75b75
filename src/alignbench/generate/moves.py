"""Move operators: one clause into another run, crossing reorders within a run, a whole section
elsewhere; each relabels what the move renumbers and rewrites the citations that follow."""

from __future__ import annotations

from random import Random

from alignbench.generate.model import Document, Unit
from alignbench.generate.numbering import relabel, run_forms
from alignbench.generate.operator_kit import Record, _cite_changes, _contains, _labels, _runs, _shift
from alignbench.generate.text_edits import _clip

# ---------------------------------------------------------------- moves


def _movable(unit: Unit) -> bool:
    return unit.words >= 8


def relocate_into_run(
    doc: Document, rng: Random, parent: Unit, index: int, end: int, run: tuple[Unit, int, int]
) -> Unit:
    """Take clause ``index`` out of its run (closing the gap) and insert it into ``run``, renumbered.

    It lands at a random place in the destination run and adopts that run's numbering there; the
    clauses after it shift up, those after its old place shift down.
    """
    dest, d_start, d_end = run
    unit = parent.children[index]
    del parent.children[index]
    _shift(parent, index, end - 1, -1)
    d_forms = run_forms(dest.children[d_start:d_end])
    assert d_forms is not None
    position = rng.randrange(d_start, d_end + 1)
    value = d_forms[position - d_start].value if position < d_end else d_forms[-1].value + 1
    _shift(dest, position, d_end, +1)
    relabel(unit, unit, d_forms[0].with_value(value), {})
    dest.children.insert(position, unit)
    doc.moved.append(unit.uid)
    return unit


def move_block(doc: Document, rng: Random, style: str = "clause") -> Record | None:
    """Move a clause and its subtree into another run elsewhere; it adopts the destination's numbers."""
    runs = _runs(doc, min_len=1)
    sources = [(p, s, e, k) for p, s, e in runs for k in range(s, e) if _movable(p.children[k])]
    sources = [x for x in sources if x[0].children[x[3]].uid not in doc.locked]
    if not sources:
        return None
    parent, _start, end, index = rng.choice(sources)
    unit = parent.children[index]
    form_key = run_forms([unit])
    assert form_key is not None
    destinations = []
    for dest, d_start, d_end in runs:
        if dest is parent or _contains(unit, dest):
            continue
        forms = run_forms(dest.children[d_start:d_end])
        if forms is None or (forms[0].style, forms[0].upper, forms[0].suffix) != (
            form_key[0].style,
            form_key[0].upper,
            form_key[0].suffix,
        ):
            continue
        destinations.append((dest, d_start, d_end))
    if not destinations:
        return None
    dest, d_start, d_end = rng.choice(destinations)
    before = _labels(doc)
    old_label = unit.label
    relocate_into_run(doc, rng, parent, index, end, (dest, d_start, d_end))
    cited = _cite_changes(doc, before)
    return Record(
        "move_block",
        style,
        {"unit": unit.uid, "from": old_label, "to": unit.label, "into": dest.uid, "cited": cited},
    )


def _positional_relabel(holders: list[Unit], scopes: list[Unit], labels: list[str | None]) -> None:
    for holder, scope, label in zip(holders, scopes, labels, strict=True):
        if label is not None and holder.label != label:
            relabel(holder, scope, label, {})


def _crossing_moves(doc: Document, parent: Unit, start: int, end: int) -> list[tuple[int, int]]:
    """(from, to) index pairs of a movable clause jumping at least three places inside the run."""
    pairs = [(i, j) for i in range(start, end) for j in range(start, end) if abs(i - j) >= 3]
    settled = set(doc.locked) | set(doc.moved)  # a clause moved once is not moved back by a later step
    return [
        (i, j) for i, j in pairs if _movable(parent.children[i]) and parent.children[i].uid not in settled
    ]


def reorder(doc: Document, rng: Random, style: str = "crossing") -> Record | None:
    """Move one clause to a distant place among its own siblings (a crossing move); labels stay in place."""
    choices: list[tuple[Unit, int, int]] = []
    for parent, start, end in _runs(doc, min_len=5):
        choices.append((parent, start, end))
    if not choices:
        # unlabelled paragraph runs with distinct texts still give a crossing move
        for _, unit in doc.walk():
            paras = [i for i, c in enumerate(unit.children) if c.kind == "paragraph" and not c.children]
            texts = [" ".join(unit.children[i].text.split()) for i in paras]
            if (
                len(paras) >= 5
                and len(set(texts)) == len(texts)
                and paras == list(range(paras[0], paras[-1] + 1))
            ):
                choices.append((unit, paras[0], paras[-1] + 1))
    # only runs that offer a crossing move at all, so a drawn run never turns the pair into a no-op
    choices = [c for c in choices if _crossing_moves(doc, *c)]
    if not choices:
        return None
    parent, start, end = rng.choice(choices)
    i, j = rng.choice(_crossing_moves(doc, parent, start, end))
    before = _labels(doc)
    labels = [c.label for c in parent.children[start:end]]
    unit = parent.children.pop(i)
    parent.children.insert(j, unit)
    run = parent.children[start:end]
    _positional_relabel(run, run, labels)
    doc.moved.append(unit.uid)
    cited = _cite_changes(doc, before)
    return Record(
        "reorder", style, {"unit": unit.uid, "from": before[unit.uid], "to": unit.label, "cited": cited}
    )


def section_move(doc: Document, rng: Random, style: str = "section") -> Record | None:
    """Move a whole headed section to a distant place among its sibling sections."""
    choices = []
    for _, unit in doc.walk():
        sections = [
            i
            for i, c in enumerate(unit.children)
            if c.kind == "section" and c.children and c.children[0].kind == "heading"
        ]
        for i in sections:
            for j in sections:
                if abs(sections.index(i) - sections.index(j)) >= 2:
                    choices.append((unit, i, j, sections))
    if not choices:
        return None
    parent, i, j, sections = rng.choice(choices)
    before = _labels(doc)
    headings_before = [parent.children[k].children[0].label for k in sections]
    section = parent.children[i]
    order = [parent.children[k] for k in sections]
    order.remove(section)
    order.insert(sections.index(j), section)
    for slot, moved in zip(sections, order, strict=True):
        parent.children[slot] = moved
    headings = [s.children[0] for s in order]
    if run_forms(headings) is not None:
        _positional_relabel(headings, order, headings_before)
    heading = section.children[0]
    doc.section_moves.append(heading.uid)
    cited = _cite_changes(doc, before)
    return Record(
        "section_move",
        style,
        {
            "heading": heading.uid,
            "text": _clip(heading.text),
            "to_slot": sections.index(j) + 1,
            "cited": cited,
        },
    )
