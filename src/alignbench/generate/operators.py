"""The mutation operators: one function each, mutating a :class:`Document` in place.

Every operator draws only from explicitly ordered lists with the pair's ``random.Random`` and returns
a :class:`Record` of exactly what it did, or ``None`` when the document offers it no target. Identity
facts that unit ids cannot carry (moves, splits, merges) are written onto the document itself, so a
rollback (restoring the copy taken before the operator) undoes them too.

This module holds the structural operators (insert, delete, relabel, split, merge, tables) and the
registry of every base operator; the text edits live in :mod:`.text_edits`, the moves in :mod:`.moves`
and what they all share in :mod:`.operator_kit`.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from alignbench.generate import banks
from alignbench.generate.model import Document, Unit, walk
from alignbench.generate.moves import move_block, reorder, section_move
from alignbench.generate.numbering import LabelForm, labelled_runs, relabel, run_forms
from alignbench.generate.operator_kit import (
    TEXT_KINDS,
    Record,
    _cite_changes,
    _entries,
    _labels,
    _new_sentence,
    _runs,
    _sentences,
    _shift,
    _uncited_numbers,
)
from alignbench.generate.text_edits import (
    EDIT_STYLES,
    _clip,
    _edit_number_pair,
    _edit_word_substitute,
    edit_text,
    whitespace_only,
)

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
