"""The mutation operators: one function each, mutating a :class:`Document` in place.

Every operator draws only from explicitly ordered lists with the pair's ``random.Random`` and returns
a :class:`Record` of exactly what it did, or ``None`` when the document offers it no target. Identity
facts that unit ids cannot carry (moves, splits, merges) are written onto the document itself, so a
rollback (restoring the copy taken before the operator) undoes them too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from random import Random
from typing import Any

from alignbench.generate import banks
from alignbench.generate.model import Document, Unit, walk
from alignbench.generate.numbering import LabelForm, labelled_runs, relabel, rewrite_citations, run_forms

TEXT_KINDS: tuple[str, ...] = ("paragraph", "list_item")
_SENTENCE_BREAK = re.compile(r"(?<=[.;])\s+(?=[A-Z])")
_NUMBER = re.compile(r"(?<![\w.§])(\d{1,4})(?![\w.]\d|\d)")
_NUMBER_PAIR = re.compile(r"\b([a-z]+) \((\d+)\)")
_DURATION = re.compile(r"\b(\d+|[a-z]+ \(\d+\)) (business days|days|months|years|day|month|year)\b")
_CITED = re.compile(r"(?:Sections?|sections?|[Cc]lauses?|Articles?|Schedules?|Paragraphs?|§)\s*$")


@dataclass
class Record:
    """What one operator did, in JSON-able form (unit ids, labels, styles)."""

    op: str
    style: str
    detail: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------- helpers


def _entries(doc: Document, kinds: tuple[str, ...]) -> list[tuple[Unit, int, Unit]]:
    """``(parent, index, unit)`` for every unlocked unit of ``kinds``, in document order."""
    found: list[tuple[Unit, int, Unit]] = []
    locked = set(doc.locked)

    def visit(parent: Unit) -> None:
        for index, child in enumerate(parent.children):
            if child.kind in kinds and child.uid not in locked:
                found.append((parent, index, child))
            visit(child)

    visit(doc.root)
    return found


def _runs(doc: Document, min_len: int = 1) -> list[tuple[Unit, int, int]]:
    """Every consistently numbered run of clauses as ``(parent, start, end)``, in document order."""
    found: list[tuple[Unit, int, int]] = []
    for _, unit in doc.walk():
        for start, end in labelled_runs(unit):
            if end - start >= min_len:
                found.append((unit, start, end))
    return found


def _labels(doc: Document) -> dict[str, str | None]:
    return {unit.uid: unit.label for _, unit in doc.walk()}


def _contains(unit: Unit, target: Unit) -> bool:
    if unit is target:
        return True
    return any(_contains(child, target) for child in unit.children)


def _cite_changes(doc: Document, before: dict[str, str | None], skip: tuple[str, ...] = ()) -> list[str]:
    """Rewrite prose citations of every label that changed, where the old label was unambiguous."""
    counts: dict[str, int] = {}
    for label in before.values():
        if label:
            counts[label] = counts.get(label, 0) + 1
    mapping: dict[str, str] = {}
    for _, unit in doc.walk():
        old = before.get(unit.uid)
        if old and unit.label and old != unit.label and counts.get(old) == 1:
            mapping[old] = unit.label
    return rewrite_citations(doc.root, {k: mapping[k] for k in sorted(mapping)}, skip)


def _shift(parent: Unit, start: int, end: int, delta: int) -> None:
    """Add ``delta`` to the number of every clause in ``parent.children[start:end]``, carrying prefixes."""
    run = parent.children[start:end]
    forms = run_forms(run)
    if forms is None:
        return
    order = range(len(run) - 1, -1, -1) if delta > 0 else range(len(run))
    scratch: dict[str, str] = {}
    for k in order:
        relabel(run[k], run[k], forms[k].with_value(forms[k].value + delta), scratch)


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_BREAK.split(" ".join(text.split())) if s]


def _new_sentence(rng: Random) -> str:
    party = rng.choice(banks.PARTIES)
    verb = rng.choice(banks.VERBS)
    obj = rng.choice(banks.OBJECTS)
    days = rng.choice((5, 10, 14, 15, 30, 45, 60, 90))
    event = rng.choice(banks.EVENTS)
    sentence = f"{party} shall {verb} {obj} within {days} days of {event}."
    return sentence[0].upper() + sentence[1:]


def _uncited_numbers(text: str) -> list[re.Match[str]]:
    return [m for m in _NUMBER.finditer(text) if not _CITED.search(text[: m.start()])]


# ---------------------------------------------------------------- edit_text


def _edit_number_pair(text: str, rng: Random) -> str | None:
    pairs = list(_NUMBER_PAIR.finditer(text))
    pairs = [m for m in pairs if m.group(1) in banks.NUMBER_WORDS]
    if pairs:
        match = rng.choice(pairs)
        old = int(match.group(2))
        new = rng.choice([n for n in range(1, len(banks.NUMBER_WORDS)) if n != old])
        return text[: match.start()] + f"{banks.NUMBER_WORDS[new]} ({new})" + text[match.end() :]
    numbers = _uncited_numbers(text)
    if not numbers:
        return None
    match = rng.choice(numbers)
    new_value = int(match.group(1)) + rng.choice((1, 2, 5, 10, 30))
    return text[: match.start()] + str(new_value) + text[match.end() :]


def _edit_duration(text: str, rng: Random) -> str | None:
    matches = list(_DURATION.finditer(text))
    if not matches:
        return None
    match = rng.choice(matches)
    unit = match.group(2)
    plural = unit if unit.endswith("s") else unit + "s"
    new_unit = rng.choice([u for u in banks.DURATION_UNITS if u != plural])
    return text[: match.start(2)] + new_unit + text[match.end(2) :]


def _edit_party_swap(text: str, rng: Random) -> str | None:
    present = [pair for pair in banks.PARTY_PAIRS if re.search(rf"\b({pair[0]}|{pair[1]})\b", text)]
    if not present:
        return None
    first, second = rng.choice(present)
    swap = {first: second, second: first}
    return re.sub(rf"\b({first}|{second})\b", lambda m: swap[m.group(1)], text)


def _edit_sentence_insert(text: str, rng: Random) -> str | None:
    sentences = _sentences(text)
    position = rng.randrange(1, len(sentences) + 1)
    extra = rng.choice(banks.EXTRA_SENTENCES) if rng.random() < 0.5 else _new_sentence(rng)
    return " ".join([*sentences[:position], extra, *sentences[position:]])


def _edit_sentence_drop(text: str, rng: Random) -> str | None:
    sentences = _sentences(text)
    if len(sentences) < 2:
        return None
    drop = rng.randrange(1, len(sentences))  # never the first: it may carry the clause's heading words
    return " ".join(sentences[:drop] + sentences[drop + 1 :])


def _edit_word_substitute(text: str, rng: Random) -> str | None:
    present = [(old, new) for old, new in banks.SUBSTITUTIONS if re.search(rf"\b{old}\b", text)]
    if not present:
        return None
    old, new = rng.choice(present)
    matches = list(re.finditer(rf"\b{old}\b", text))
    match = rng.choice(matches)
    return text[: match.start()] + new + text[match.end() :]


EDIT_STYLES: dict[str, Callable[[str, Random], str | None]] = {
    "number_pair": _edit_number_pair,
    "duration": _edit_duration,
    "party_swap": _edit_party_swap,
    "sentence_insert": _edit_sentence_insert,
    "sentence_drop": _edit_sentence_drop,
    "word_substitute": _edit_word_substitute,
}


@lru_cache(maxsize=1 << 16)
def _edit_applies(style: str, text: str) -> bool:
    """Whether ``style`` can edit ``text`` at all: its edit under a throwaway generator, kept per text.

    An edit is a pure function of the text and the generator, so the verdict is too; ``edit_text``
    probes every clause of the document on each attempt, and the same texts recur across a base
    document's pairs and attempts (the probes were ~10% of the generate stage)."""
    return EDIT_STYLES[style](text, Random(0)) is not None


def edit_text(doc: Document, rng: Random, style: str) -> Record | None:
    """Change the wording of one clause or paragraph; its identity (and label) stay."""
    edit = EDIT_STYLES[style]
    candidates = []
    for _parent, _index, unit in _entries(doc, TEXT_KINDS):
        if unit.words < 4:
            continue
        # probe with a throwaway generator so the pair's stream only advances for the chosen target
        if _edit_applies(style, unit.text):
            candidates.append(unit)
    if not candidates:
        return None
    unit = rng.choice(candidates)
    new_text = edit(unit.text, rng)
    if new_text is None or " ".join(new_text.split()) == " ".join(unit.text.split()):
        return None
    old_text, unit.text = unit.text, new_text
    return Record("edit_text", style, {"unit": unit.uid, "before": _clip(old_text), "after": _clip(new_text)})


def _clip(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= 60 else flat[:57] + "..."


# ---------------------------------------------------------------- whitespace_only


_LINE_START_UNSAFE = re.compile(r"^([#>|*+\-=`~\d(§]|[A-Za-z]{1,6}[.)]|[A-Z][a-z]*\s*$)")


def whitespace_only(doc: Document, rng: Random, style: str = "rewrap") -> Record | None:
    """Rewrap one clause over several lines: a negative control, its digest cannot change."""
    candidates = [u for _p, _i, u in _entries(doc, TEXT_KINDS) if u.words >= 8 and "\n" not in u.text]
    if not candidates:
        return None
    unit = rng.choice(candidates)
    words = unit.text.split()
    lines: list[list[str]] = [[words[0]]]
    for word in words[1:]:
        if len(lines[-1]) >= rng.randrange(3, 9) and not _LINE_START_UNSAFE.match(word):
            lines.append([word])
        else:
            lines[-1].append(word)
    if len(lines) < 2:
        return None
    unit.text = "\n".join(" ".join(line) for line in lines)
    return Record("whitespace_only", style, {"unit": unit.uid, "lines": len(lines)})


# ---------------------------------------------------------------- insert / delete


def insert_clause(doc: Document, rng: Random, style: str = "clause") -> Record | None:
    """Insert a new clause into a numbered run, renumber the rest of the run and the citations."""
    runs = _runs(doc, min_len=2)
    before = _labels(doc)
    if runs:
        parent, start, end = rng.choice(runs)
        forms = run_forms(parent.children[start:end])
        assert forms is not None
        position = rng.randrange(start, end + 1)
        value = forms[position - start].value if position < end else forms[-1].value + 1
        label = forms[0].with_value(value)
        _shift(parent, position, end, +1)
        template = parent.children[start]
        unit = Unit(doc.new_uid(), "list_item", label, _new_sentence(rng), template.level, {})
    else:
        paragraphs = _entries(doc, ("paragraph",))
        if not paragraphs:
            return None
        parent, position, template = rng.choice(paragraphs)
        position += rng.randrange(0, 2)
        unit = Unit(doc.new_uid(), "paragraph", None, _new_sentence(rng), template.level, {})
    parent.children.insert(position, unit)
    cited = _cite_changes(doc, before, skip=(unit.uid,))
    return Record(
        "insert_clause", style, {"unit": unit.uid, "label": unit.label, "parent": parent.uid, "cited": cited}
    )


def delete_block(doc: Document, rng: Random, style: str = "clause") -> Record | None:
    """Delete a clause (with its subtree) or a paragraph; renumber the run and the citations."""
    locked = set(doc.locked)
    candidates = [
        (p, i, u) for p, i, u in _entries(doc, TEXT_KINDS) if not any(d.uid in locked for _, d in walk(u))
    ]
    if not candidates:
        return None
    parent, index, unit = rng.choice(candidates)
    before = _labels(doc)
    run_end = None
    for start, end in labelled_runs(parent):
        if start <= index < end:
            run_end = end
    del parent.children[index]
    if run_end is not None:
        _shift(parent, index, run_end - 1, -1)
    cited = _cite_changes(doc, before)
    return Record("delete_block", style, {"unit": unit.uid, "label": unit.label, "cited": cited})


# ---------------------------------------------------------------- relabel_run


def relabel_run(doc: Document, rng: Random, style: str) -> Record | None:
    """Renumber a whole run without touching any text: ``shift`` the numbers or ``change_style``."""
    runs = _runs(doc, min_len=2)
    if style == "change_style":
        runs = [
            (p, s, e)
            for p, s, e in runs
            if (forms := run_forms(p.children[s:e])) is not None and forms[0].style in ("alpha", "roman")
        ]
    if not runs:
        return None
    parent, start, end = rng.choice(runs)
    forms = run_forms(parent.children[start:end])
    assert forms is not None
    run = parent.children[start:end]
    scratch: dict[str, str] = {}
    if style == "shift":
        delta = rng.choice((1, 2, 3))
        for k in range(len(run) - 1, -1, -1):
            relabel(run[k], run[k], forms[k].with_value(forms[k].value + delta), scratch)
        detail: dict[str, Any] = {"delta": delta}
    else:
        target = "roman" if forms[0].style == "alpha" else "alpha"
        for k, form in enumerate(forms):
            new_form = LabelForm(form.prefix, k + 1, target, form.upper, form.suffix)
            relabel(run[k], run[k], new_form.with_value(k + 1), scratch)
        detail = {"to": target}
    detail.update({"parent": parent.uid, "first": run[0].uid, "count": len(run)})
    return Record("relabel_run", style, detail)


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


# ---------------------------------------------------------------- split / merge


def split_block(doc: Document, rng: Random, style: str = "sentence") -> Record | None:
    """Split a leaf clause or paragraph at a sentence boundary (labelled as a split, unscored)."""
    candidates = [
        (p, i, u) for p, i, u in _entries(doc, TEXT_KINDS) if not u.children and len(_sentences(u.text)) >= 2
    ]
    if not candidates:
        return None
    parent, index, unit = rng.choice(candidates)
    sentences = _sentences(unit.text)
    cut = rng.randrange(1, len(sentences))
    first = Unit(
        doc.new_uid(), unit.kind, unit.label, " ".join(sentences[:cut]), unit.level, dict(unit.attrs)
    )
    second = Unit(doc.new_uid(), "paragraph", None, " ".join(sentences[cut:]), unit.level, {})
    if unit.kind == "list_item":
        first.children.append(second)  # an unlabelled paragraph continues the clause it follows
        parent.children[index : index + 1] = [first]
    else:
        parent.children[index : index + 1] = [first, second]
    doc.splits.append(([unit.uid], [first.uid, second.uid]))
    doc.locked.extend([first.uid, second.uid])
    return Record("split_block", style, {"unit": unit.uid, "into": [first.uid, second.uid]})


def merge_blocks(doc: Document, rng: Random, style: str = "adjacent") -> Record | None:
    """Merge a clause with its only continuation paragraph, or two adjacent paragraphs (unscored)."""
    candidates: list[tuple[Unit, int, list[Unit]]] = []
    for parent, index, unit in _entries(doc, TEXT_KINDS):
        if unit.kind == "list_item" and len(unit.children) == 1:
            child = unit.children[0]
            if child.kind == "paragraph" and not child.children and child.uid not in doc.locked:
                candidates.append((parent, index, [unit, child]))
        if unit.kind == "paragraph" and not unit.children and index + 1 < len(parent.children):
            after = parent.children[index + 1]
            if after.kind == "paragraph" and not after.children and after.uid not in doc.locked:
                candidates.append((parent, index, [unit, after]))
    if not candidates:
        return None
    parent, index, parts = rng.choice(candidates)
    head = parts[0]
    text = " ".join(" ".join(p.text.split()) for p in parts)
    merged = Unit(doc.new_uid(), head.kind, head.label, text, head.level, dict(head.attrs))
    width = 1 if head.kind == "list_item" else 2
    parent.children[index : index + width] = [merged]
    doc.merges.append(([p.uid for p in parts], [merged.uid]))
    doc.locked.append(merged.uid)
    return Record("merge_blocks", style, {"units": [p.uid for p in parts], "into": merged.uid})


# ---------------------------------------------------------------- tables


def _body_rows(table: Unit) -> list[int]:
    return [i for i, r in enumerate(table.children) if r.kind == "row" and not r.attrs.get("header")]


def table_edit(doc: Document, rng: Random, style: str) -> Record | None:
    """Edit a table: ``cell_edit``, ``row_insert`` or ``row_delete``."""
    tables = [u for _p, _i, u in _entries(doc, ("table",)) if _body_rows(u)]
    if style == "row_delete":
        tables = [t for t in tables if len(_body_rows(t)) >= 2]
    if not tables:
        return None
    table = rng.choice(tables)
    body = _body_rows(table)
    if style == "cell_edit":
        cells = [
            (r, c) for r in body for c, cell in enumerate(table.children[r].children) if cell.text.strip()
        ]
        if not cells:
            return None
        r, c = rng.choice(cells)
        cell = table.children[r].children[c]
        old = cell.text
        new = _edit_number_pair(old, rng) or _edit_word_substitute(old, rng)
        if new is None or new == old:
            new = rng.choice([w for w in banks.CELL_WORDS if w != old])
        cell.text = new
        return Record("table_edit", style, {"cell": cell.uid, "before": _clip(old), "after": _clip(new)})
    if style == "row_insert":
        template = table.children[rng.choice(body)]
        cells = []
        for cell in template.children:
            numbers = _uncited_numbers(cell.text)
            text = str(rng.randrange(2, 500)) if numbers else rng.choice(banks.CELL_WORDS)
            cells.append(Unit(doc.new_uid(), "cell", None, text, cell.level, dict(cell.attrs)))
        row = Unit(doc.new_uid(), "row", None, "", template.level, dict(template.attrs), cells)
        position = rng.randrange(body[0], len(table.children) + 1)
        table.children.insert(position, row)
        return Record("table_edit", style, {"row": row.uid, "cells": [c.text for c in cells]})
    index = rng.choice(body)
    row = table.children.pop(index)
    return Record("table_edit", style, {"row": row.uid})


OPERATORS: dict[str, Callable[[Document, Random, str], Record | None]] = {
    "edit_text": edit_text,
    "whitespace_only": whitespace_only,
    "insert_clause": insert_clause,
    "delete_block": delete_block,
    "relabel_run": relabel_run,
    "move_block": move_block,
    "reorder": reorder,
    "split_block": split_block,
    "merge_blocks": merge_blocks,
    "table_edit": table_edit,
    "section_move": section_move,
}
STYLES: dict[str, tuple[str, ...]] = {
    "edit_text": tuple(EDIT_STYLES),
    "whitespace_only": ("rewrap",),
    "insert_clause": ("clause",),
    "delete_block": ("clause",),
    "relabel_run": ("shift", "change_style"),
    "move_block": ("clause",),
    "reorder": ("crossing",),
    "split_block": ("sentence",),
    "merge_blocks": ("adjacent",),
    "table_edit": ("cell_edit", "row_insert", "row_delete"),
    "section_move": ("section",),
}
DEFAULT_STYLE: dict[str, str] = {name: styles[0] for name, styles in STYLES.items()}

__all__ = ["DEFAULT_STYLE", "OPERATORS", "STYLES", "Record"]
