"""What the mutation operators share: the :class:`Record` each returns, and how they find their
targets (unlocked units, labelled runs, citations) in a :class:`Document`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from random import Random
from typing import Any

from alignbench.generate import banks
from alignbench.generate.model import Document, Unit
from alignbench.generate.numbering import labelled_runs, relabel, rewrite_citations, run_forms

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
