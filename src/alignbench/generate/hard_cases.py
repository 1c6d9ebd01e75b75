"""Operators for the failure classes of issue #14, each one a revision engines get wrong on unseen text.

Like :mod:`alignbench.generate.operators`, each draws only from explicitly ordered lists with the pair's
``random.Random``, mutates the document in place and returns a :class:`Record`, or ``None`` when the
document has nothing for it to act on (the plan's ``requires`` feature keeps such documents out):

- ``short_move``: a short clause (under eight words) moved into another run of the same style;
- ``move_edit``: a clause moved into another run *and* reworded (moved-and-edited text);
- ``nested_storm``: the first item of a nested (a)/(i) run deleted, the rest renumbered, and the
  run's numbering restyled alpha <-> roman - every sibling renumbers while its parent stays;
- ``twin_move``: one of several byte-identical sibling paragraphs moved into another section;
- ``sibling_swap``: two adjacent clauses of a run swap places, their labels staying in place;
- ``label_only_rewrite``: the body text under a label-only heading ("Schedule 1") rewritten whole.
"""

from __future__ import annotations

from random import Random

from alignbench.generate import banks
from alignbench.generate.model import Document, Unit
from alignbench.generate.moves import _positional_relabel, relocate_into_run
from alignbench.generate.numbering import LabelForm, relabel, run_forms
from alignbench.generate.operator_kit import (
    TEXT_KINDS,
    Record,
    _cite_changes,
    _contains,
    _entries,
    _labels,
    _new_sentence,
    _runs,
    _shift,
)
from alignbench.generate.text_edits import edit_text

SHORT_WORDS = 8  # the engine's move_min_tokens default: below it only an exact move can find a clause


RunStyle = tuple[str, bool, str, bool]


def _style(forms: list[LabelForm] | None) -> RunStyle | None:
    """The numbering style a run's first label sets (None for a run without one style)."""
    if forms is None:
        return None
    first = forms[0]
    return (first.style, first.upper, first.suffix, first.prefix == "")


def _destinations(
    runs: list[tuple[Unit, int, int]],
    parent: Unit,
    unit: Unit,
    styles: list[RunStyle | None] | None = None,
) -> list[tuple[Unit, int, int]]:
    """Runs elsewhere whose numbering style matches ``unit``'s (where it can be moved and renumbered).

    ``styles`` are the runs' own styles, when the caller asks about many units of one document."""
    style = _style(run_forms([unit]))
    if style is None:
        return []
    if styles is None:
        styles = [_style(run_forms(dest.children[s:e])) for dest, s, e in runs]
    found = []
    for (dest, d_start, d_end), dest_style in zip(runs, styles, strict=True):
        if dest is parent or _contains(unit, dest):
            continue
        if dest_style == style:
            found.append((dest, d_start, d_end))
    return found


def _move_into_run(doc: Document, rng: Random, movable) -> tuple[Unit, str | None] | None:
    """Move one clause accepted by ``movable`` into another run of its label style; (unit, old label)."""
    runs = _runs(doc, min_len=1)
    styles = [_style(run_forms(dest.children[s:e])) for dest, s, e in runs]  # once, not per clause
    options = []
    for p, s, e in runs:
        for k in range(s, e):
            unit = p.children[k]
            if movable(unit) and unit.uid not in doc.locked and unit.uid not in doc.moved:
                found = _destinations(runs, p, unit, styles)
                if found:
                    options.append((p, e, k, found))
    if not options:
        return None
    parent, end, index, destinations = rng.choice(options)
    old_label = parent.children[index].label
    run = rng.choice(destinations)
    return relocate_into_run(doc, rng, parent, index, end, run), old_label


def short_move(doc: Document, rng: Random, style: str = "clause") -> Record | None:
    """Move a short leaf clause (under eight words) into another run."""
    before = _labels(doc)
    moved = _move_into_run(doc, rng, lambda u: 1 <= u.words < SHORT_WORDS and not u.children)
    if moved is None:
        return None
    unit, old = moved
    cited = _cite_changes(doc, before)
    return Record("short_move", style, {"unit": unit.uid, "from": old, "to": unit.label, "cited": cited})


def move_edit(doc: Document, rng: Random, style: str = "word_substitute") -> Record | None:
    """Move a clause into another run, then reword it (``style`` is the edit_text style)."""
    before = _labels(doc)
    moved = _move_into_run(doc, rng, lambda u: u.words >= SHORT_WORDS)
    if moved is None:
        return None
    unit, old = moved
    text = unit.text
    probe = Document(Unit("probe", "document", children=[Unit("probe-1", unit.kind, None, text)]))
    if edit_text(probe, rng, style) is None:
        unit.text = text + " " + _new_sentence(rng)  # nothing for that style to change: add a sentence
    else:
        unit.text = probe.root.children[0].text
    cited = _cite_changes(doc, before, skip=(unit.uid,))
    return Record("move_edit", style, {"unit": unit.uid, "from": old, "to": unit.label, "cited": cited})


def _nested_runs(doc: Document) -> list[tuple[Unit, int, int]]:
    """Runs of (a)/(i)-style clauses nested under a clause, at least three long."""
    found = []
    for parent, start, end in _runs(doc, min_len=3):
        if parent.kind not in TEXT_KINDS:
            continue
        forms = run_forms(parent.children[start:end])
        if forms is not None and forms[0].style in ("alpha", "roman"):
            found.append((parent, start, end))
    return found


def nested_storm(doc: Document, rng: Random, style: str = "delete_first") -> Record | None:
    """Delete the first item of a nested run and renumber the rest, then restyle the run alpha <-> roman."""
    locked = set(doc.locked)
    runs = [(p, s, e) for p, s, e in _nested_runs(doc) if not any(c.uid in locked for c in p.children[s:e])]
    if not runs:
        return None
    parent, start, end = rng.choice(runs)
    before = _labels(doc)
    gone = parent.children[start]
    del parent.children[start]
    _shift(parent, start, end - 1, -1)
    run = parent.children[start : end - 1]
    forms = run_forms(run)
    assert forms is not None
    target = "roman" if forms[0].style == "alpha" else "alpha"
    scratch: dict[str, str] = {}
    for k, form in enumerate(forms):
        relabel(
            run[k],
            run[k],
            LabelForm(form.prefix, k + 1, target, form.upper, form.suffix).with_value(k + 1),
            scratch,
        )
    cited = _cite_changes(doc, before)
    return Record(
        "nested_storm", style, {"parent": parent.uid, "deleted": gone.uid, "to": target, "cited": cited}
    )


def twin_move(doc: Document, rng: Random, style: str = "paragraph") -> Record | None:
    """Move one of several byte-identical sibling paragraphs into another section."""
    candidates: list[tuple[Unit, int]] = []
    sections = [u for _p, _i, u in _entries(doc, ("section",)) if u.children]
    for section in sections:
        texts: dict[str, int] = {}
        for child in section.children:
            if child.kind == "paragraph" and not child.label and not child.children:
                key = " ".join(child.text.split())
                texts[key] = texts.get(key, 0) + 1
        for index, child in enumerate(section.children):
            key = " ".join(child.text.split())
            if child.kind == "paragraph" and not child.label and not child.children and texts.get(key, 0) > 1:
                candidates.append((section, index))
    if not candidates:
        return None
    parent, index = rng.choice(candidates)
    destinations = [s for s in sections if s is not parent and not _contains(parent.children[index], s)]
    destinations = [s for s in destinations if any(c.kind in ("heading", "paragraph") for c in s.children)]
    if not destinations:
        return None
    dest = rng.choice(destinations)
    # only after a heading or a plain paragraph: after a clause, the reader would read the paragraph
    # as that clause's continuation
    slots = [
        k
        for k in range(1, len(dest.children) + 1)
        if dest.children[k - 1].kind == "heading"
        or (dest.children[k - 1].kind == "paragraph" and not dest.children[k - 1].children)
    ]
    if not slots:
        return None
    unit = parent.children.pop(index)
    dest.children.insert(rng.choice(slots), unit)
    doc.moved.append(unit.uid)
    return Record("twin_move", style, {"unit": unit.uid, "into": dest.uid})


def sibling_swap(doc: Document, rng: Random, style: str = "adjacent") -> Record | None:
    """Swap two adjacent clauses of a run; the labels stay in place (each takes the other's number)."""
    choices = [(p, k) for p, s, e in _runs(doc, min_len=2) for k in range(s, e - 1)]
    choices = [
        (p, k)
        for p, k in choices
        if not {p.children[k].uid, p.children[k + 1].uid} & (set(doc.locked) | set(doc.moved))
        and " ".join(p.children[k].text.split()) != " ".join(p.children[k + 1].text.split())
    ]
    if not choices:
        return None
    parent, k = rng.choice(choices)
    before = _labels(doc)
    labels = [parent.children[k].label, parent.children[k + 1].label]
    first, second = parent.children[k], parent.children[k + 1]
    parent.children[k], parent.children[k + 1] = second, first
    pair = parent.children[k : k + 2]
    _positional_relabel(pair, pair, labels)
    # A swap is symmetric; the labelling convention (docs/LABELLING.md, "swaps") names the earlier clause
    # as the one that moved - it stepped down past its successor - so exactly one row is a move.
    doc.moved.append(first.uid)
    cited = _cite_changes(doc, before)
    return Record("sibling_swap", style, {"unit": first.uid, "over": second.uid, "cited": cited})


def label_only_rewrite(doc: Document, rng: Random, style: str = "body") -> Record | None:
    """Rewrite the first paragraph under a label-only heading ("Schedule 1" with no text) whole."""
    candidates = []
    for _p, _i, section in _entries(doc, ("section",)):
        kids = section.children
        if not kids or kids[0].kind != "heading" or not kids[0].label or kids[0].text.strip():
            continue
        body = [c for c in kids[1:] if c.kind in TEXT_KINDS and c.words >= 4 and c.uid not in doc.locked]
        if body:
            candidates.append(body[0])
    if not candidates:
        return None
    unit = rng.choice(candidates)
    old = unit.text
    unit.text = " ".join(_new_sentence(rng) for _ in range(2)) + " " + rng.choice(banks.EXTRA_SENTENCES)
    return Record("label_only_rewrite", style, {"unit": unit.uid, "before": " ".join(old.split())[:60]})


HARD_OPERATORS = {
    "short_move": short_move,
    "move_edit": move_edit,
    "nested_storm": nested_storm,
    "twin_move": twin_move,
    "sibling_swap": sibling_swap,
    "label_only_rewrite": label_only_rewrite,
}
HARD_STYLES: dict[str, tuple[str, ...]] = {
    "short_move": ("clause",),
    "move_edit": ("word_substitute", "sentence_insert"),
    "nested_storm": ("delete_first",),
    "twin_move": ("paragraph",),
    "sibling_swap": ("adjacent",),
    "label_only_rewrite": ("body",),
}
