"""Clause-label arithmetic: parse a label into (prefix, value, style), step it, and write it back.

Operators that insert, delete, move or relabel clauses renumber the affected run with these helpers,
carry a new number down into decimal children (``3.1`` under ``3`` becomes ``4.1`` under ``4``) and
rewrite cross-references in prose that cite a changed label.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from alignbench.generate.model import Unit
from alignbench.readers.numerals import ROMAN_PAIRS, to_roman

_DECIMAL = re.compile(r"^(?P<prefix>.*?)(?P<value>\d+)$")
_PAREN = re.compile(r"^\((?P<value>[a-z]+|[A-Z]+)\)$")
_BARE = re.compile(r"^(?P<value>[a-z]+|[A-Z]+)$")
_ROMAN_RE = re.compile(r"^m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")


def from_roman(text: str) -> int | None:
    lower = text.lower()
    if not lower or not _ROMAN_RE.match(lower):
        return None
    value, pos = 0, 0
    for number, letters in ROMAN_PAIRS:
        while lower.startswith(letters, pos):
            value += number
            pos += len(letters)
    return value


def to_alpha(value: int) -> str:
    letters = ""
    while value > 0:
        value, rem = divmod(value - 1, 26)
        letters = chr(ord("a") + rem) + letters
    return letters


def from_alpha(text: str) -> int | None:
    lower = text.lower()
    if not lower.isalpha() or len(set(lower)) != 1:
        return None
    # a..z, then aa, bb ... as legal drafting writes them
    return (len(lower) - 1) * 26 + ord(lower[0]) - ord("a") + 1


@dataclass(frozen=True)
class LabelForm:
    """``prefix`` + the value written in ``style`` + ``suffix``; styles: decimal, alpha, roman."""

    prefix: str
    value: int
    style: str
    upper: bool = False
    suffix: str = ""

    def with_value(self, value: int) -> str:
        if self.style == "decimal":
            body = str(value)
        elif self.style == "roman":
            body = to_roman(value)
        else:
            body = (
                to_alpha(value) if value <= 26 else to_alpha((value - 1) % 26 + 1) * ((value - 1) // 26 + 1)
            )
        if self.upper:
            body = body.upper()
        return f"{self.prefix}{body}{self.suffix}"

    def key(self) -> tuple[str, str, bool, str]:
        return (self.prefix, self.style, self.upper, self.suffix)


@lru_cache(maxsize=1 << 14)
def parse_label(label: str | None, roman: bool = False) -> LabelForm | None:
    """Parse a label; ``roman`` resolves ``(i)``/``(v)``/``(x)`` style letters as roman numerals.

    Cached: a pure function of its arguments returning a frozen form, asked ~560k times per generate
    run (every run of siblings is re-parsed as it grows)."""
    if not label:
        return None
    match = _DECIMAL.match(label)
    if match:
        return LabelForm(match.group("prefix"), int(match.group("value")), "decimal")
    match = _PAREN.match(label) or _BARE.match(label)
    if not match:
        return None
    body = match.group("value")
    prefix, suffix = ("(", ")") if label.startswith("(") else ("", "")
    upper = body.isupper()
    roman_value = from_roman(body)
    alpha_value = from_alpha(body)
    if roman_value is not None and (roman or alpha_value is None):
        return LabelForm(prefix, roman_value, "roman", upper, suffix)
    if alpha_value is not None:
        return LabelForm(prefix, alpha_value, "alpha", upper, suffix)
    return None


def run_forms(units: list[Unit]) -> list[LabelForm] | None:
    """Forms for a whole run of labelled siblings, or None when they do not share one style.

    A run reads as roman when its labels are i, ii, iii ... from the start; otherwise as alpha.
    """
    if not units or any(u.label is None for u in units):
        return None
    for roman in (True, False):
        forms = [parse_label(u.label, roman=roman) for u in units]
        if any(f is None for f in forms):
            continue
        keys = {f.key() for f in forms if f is not None}
        if len(keys) != 1:
            continue
        values = [f.value for f in forms if f is not None]
        # a roman run must actually count like one, else (i) after (h) is the letter i
        counts_up = values == list(range(values[0], values[0] + len(values)))
        if roman and forms[0] is not None and forms[0].style == "roman" and not counts_up:
            continue
        return [f for f in forms if f is not None]
    return None


def labelled_runs(parent: Unit, kinds: tuple[str, ...] = ("list_item",)) -> list[tuple[int, int]]:
    """Maximal ``[start, end)`` index ranges of consecutive, consistently numbered children of ``parent``."""
    runs: list[tuple[int, int]] = []
    children = parent.children
    i = 0
    while i < len(children):
        if children[i].kind not in kinds or children[i].label is None:
            i += 1
            continue
        j = i + 1
        grown: list[LabelForm] | None = None  # run_forms(children[i:j]) once the run has grown
        while j < len(children) and children[j].kind in kinds:
            forms = run_forms(children[i : j + 1])  # each extension's forms, computed once
            if forms is None or forms[-1].value != forms[-2].value + 1:
                break
            grown = forms
            j += 1
        if (grown if j > i + 1 else run_forms(children[i:j])) is not None:
            runs.append((i, j))
        i = j
    return runs


def relabel(unit: Unit, scope: Unit, new_label: str, mapping: dict[str, str]) -> None:
    """Give ``unit`` a new label and carry it into decimal descendants of ``scope`` (``3.1`` -> ``4.1``)."""
    old = unit.label
    if old == new_label:
        return
    unit.label = new_label
    if old is not None:
        mapping[old] = new_label
        _carry_prefix(scope, unit, old, new_label, mapping)


def _carry_prefix(scope: Unit, skip: Unit, old: str, new: str, mapping: dict[str, str]) -> None:
    stem = old + "."
    for child in scope.children:
        if child is not skip and child.label and child.label.startswith(stem):
            replacement = new + "." + child.label[len(stem) :]
            mapping[child.label] = replacement
            child.label = replacement
        _carry_prefix(child, skip, old, new, mapping)


_CITATION = re.compile(
    r"(?P<word>\b(?:Sections?|sections?|[Cc]lauses?|Articles?|Schedules?|Paragraphs?)\s+|§\s*)"
    r"(?P<label>\d+(?:\.\d+)*)(?![\d])"
)


@lru_cache(maxsize=1 << 16)
def _cites(text: str) -> bool:
    """Whether ``text`` holds a citation at all: kept per text, since every renumbering re-scans every
    clause of the document and most texts recur unchanged across attempts and pairs."""
    return _CITATION.search(text) is not None


def rewrite_citations(root: Unit, mapping: dict[str, str], skip_uids: tuple[str, ...] = ()) -> list[str]:
    """Rewrite ``Section 3.2``-style citations whose label changed; returns the ids of the units edited.

    The mapping is applied simultaneously (never chained), so 3->4 and 4->5 do not collapse.
    """
    if not mapping:
        return []
    edited: list[str] = []

    def substitute(match: re.Match[str]) -> str:
        label = match.group("label")
        return match.group("word") + mapping.get(label, label)

    stack = [root]
    while stack:
        unit = stack.pop()
        if unit.text and unit.uid not in skip_uids and _cites(unit.text):
            new_text = _CITATION.sub(substitute, unit.text)
            if new_text != unit.text:
                unit.text = new_text
                edited.append(unit.uid)
        stack.extend(reversed(unit.children))
    return edited
