"""Operators for issue #29 class 3, a licence revision on which the engine fell below the flat floor:
clauses kept in reading order but heavily reworded, definitions re-lettered around a new one, and a
section retitled past recognition, so the parents of its reworded clauses do not pair by content.

Nothing moves and nothing changes parent, so the truth (unit identity under the move rule) has no
move: what is left to pair the clauses by is their order, their labels and what is left of their
words - which is all a flat diff reads, and it got every link of the real pair right.

Like the other operator modules, each draws only from explicitly ordered lists with the pair's
``random.Random``, mutates the document in place and returns a :class:`Record`, or ``None`` when the
document offers no target; the stage re-reads every rendering and rolls back what the reader would
read otherwise.

- ``reword_clause``: a clause's words rewritten, a share of them drawn in the style's range
  (``light`` a third to a half, ``heavy`` a half to two thirds), in spans of two to eight words
  spliced from :data:`banks.REWORD_PHRASES` - a redraft rewrites phrases, not single words. The
  clause keeps its length, its first word, its defined term, its numbers and the words either side
  of a number (a citation, a duration), so a known share of its words is gone and nothing else.
- ``retitle_section``: a section's heading replaced by a title sharing no word with it, and every
  clause of the section (ten words or more; not those of its sub-sections) reworded a third to two
  thirds: neither the heading nor the children's text pairs the section by content.
- ``insert_definition``: a new definition inserted in alphabetical place into a numbered run of
  definitions, re-lettering the rest (and the citations); with ``reworded`` the definition it displaces
  is also reworded, so its old letter now labels another text.
"""

from __future__ import annotations

import math
import re
from random import Random

from alignbench.generate import banks
from alignbench.generate.model import Document, Unit, walk
from alignbench.generate.numbering import run_forms
from alignbench.generate.operator_kit import (
    TEXT_KINDS,
    Record,
    _cite_changes,
    _entries,
    _labels,
    _runs,
    _shift,
)
from alignbench.generate.text_edits import _clip

REWORD_MIN_WORDS = 10  # a shorter clause cannot lose a third of its words and stay recognisably itself
# The share of a clause's words a rewording replaces, per style: issue 29's "a third to two thirds".
REWORD_SHARES: dict[str, tuple[float, float]] = {
    "light": (1 / 3, 1 / 2),
    "heavy": (1 / 2, 2 / 3),
    "any": (1 / 3, 2 / 3),
}
SPAN_WORDS = (2, 8)  # the length range of one spliced phrase
# A word a redraft may replace: letters (an apostrophe or hyphen inside), then at most one stop.
_PLAIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*([,;:.]?)")
_DIGIT = re.compile(r"\d")
# A definition's opening: any markup, the quoted term, any markup, then "means" or "shall mean".
_DEFINITION = re.compile(r'^(\W*?)(["“])([^"”]+)(["”])(\W*)\s+(means|shall mean)\b')
_WORD = re.compile(r"[a-z]+")


def _definition_head(tokens: list[str]) -> int:
    """How many opening tokens carry a definition's term and its "means" (0 when it is no definition)."""
    match = _DEFINITION.match(" ".join(tokens))
    return len(match.group(0).split()) if match else 0


def _replaceable(tokens: list[str]) -> list[int]:
    """Indices of the words a rewording may replace, in order (see the module docstring)."""
    protected = max(1, _definition_head(tokens))
    found = []
    for i in range(protected, len(tokens)):
        if not _PLAIN_WORD.fullmatch(tokens[i]):
            continue
        if (i + 1 < len(tokens) and _DIGIT.search(tokens[i + 1])) or _DIGIT.search(tokens[i - 1]):
            continue  # "Section 4.2", "thirty (30) days": the words either side of a number stay with it
        found.append(i)
    return found


def _share_bounds(words: int, style: str) -> tuple[int, int]:
    low, high = REWORD_SHARES[style]
    return math.ceil(words * low), math.floor(words * high)


def can_reword(text: str, style: str = "any") -> bool:
    """Whether ``text`` has words enough, and enough of them replaceable, for ``style``'s share."""
    tokens = text.split()
    if len(tokens) < REWORD_MIN_WORDS:
        return False
    low, high = _share_bounds(len(tokens), style)
    return low <= high and len(_replaceable(tokens)) >= low


def _cased(word: str, like: str, opens_sentence: bool) -> str:
    """A spliced word in the case of the text it joins: capitals in capitals (a disclaimer in upper
    case), a capital where a sentence opens, otherwise as the phrase writes it."""
    if len(like) > 1 and like.isupper():
        return word.upper()
    return word[:1].upper() + word[1:] if opens_sentence else word


def _spliced(rng: Random, length: int) -> list[str]:
    words: list[str] = []
    while len(words) < length:
        words += rng.choice(banks.REWORD_PHRASES).split()
    return words[:length]


def reword_text(text: str, rng: Random, style: str = "any") -> tuple[str, int] | None:
    """``text`` with a share of its words (in ``style``'s range) replaced in spliced spans, and how many
    were replaced; ``None`` when it cannot be reworded so. Each replaced word differs from the word it
    replaces and keeps its case and its trailing stop, so the clause's sentences stay where they were."""
    if not can_reword(text, style):
        return None
    tokens = text.split()
    replaceable = _replaceable(tokens)
    low, high = _share_bounds(len(tokens), style)
    budget = rng.randint(low, min(high, len(replaceable)))
    open_words = set(replaceable)
    chosen: list[int] = []
    while len(chosen) < budget:
        start = rng.choice(sorted(open_words))
        span = rng.randint(*SPAN_WORDS)
        i = start
        while i in open_words and span and len(chosen) < budget:
            open_words.discard(i)
            chosen.append(i)
            i, span = i + 1, span - 1
    chosen.sort()
    new = list(tokens)
    k = 0
    while k < len(chosen):  # one spliced phrase per run of adjacent chosen words
        end = k
        while end + 1 < len(chosen) and chosen[end + 1] == chosen[end] + 1:
            end += 1
        for index, word in zip(chosen[k : end + 1], _spliced(rng, end - k + 1), strict=True):
            old = _PLAIN_WORD.fullmatch(tokens[index])
            assert old is not None
            core = tokens[index][: len(tokens[index]) - len(old.group(1))]
            if word.casefold() == core.casefold():
                word = next(f for f in banks.REWORD_FILLERS if f != core.casefold())
            opens = index == 0 or tokens[index - 1].endswith((".", ":", "?", "!"))
            new[index] = _cased(word, core, opens) + old.group(1)
        k = end + 1
    return " ".join(new), budget


def _reword_unit(unit: Unit, rng: Random, style: str, doc: Document) -> int:
    result = reword_text(unit.text, rng, style)
    if result is None:
        return 0
    unit.text, replaced = result
    doc.reworded.append(unit.uid)
    return replaced


def _candidates(doc: Document, style: str) -> list[Unit]:
    done = set(doc.reworded)
    return [
        unit
        for _p, _i, unit in _entries(doc, TEXT_KINDS)
        if unit.uid not in done and can_reword(unit.text, style)
    ]


def reword_clause(doc: Document, rng: Random, style: str = "light") -> Record | None:
    """One clause reworded in place, a share of its words in ``style``'s range (see the module)."""
    units = _candidates(doc, style)
    if not units:
        return None
    unit = rng.choice(units)
    before = unit.text
    replaced = _reword_unit(unit, rng, style, doc)
    return Record(
        "reword_clause",
        style,
        {
            "unit": unit.uid,
            "words": len(before.split()),
            "replaced": replaced,
            "before": _clip(before),
            "after": _clip(unit.text),
        },
    )


def _own_blocks(section: Unit) -> list[Unit]:
    """The section's text blocks in reading order, those of its sub-sections left out."""
    found: list[Unit] = []

    def visit(unit: Unit) -> None:
        for child in unit.children:
            if child.kind == "section":
                continue
            if child.kind in TEXT_KINDS:
                found.append(child)
            visit(child)

    visit(section)
    return found


def _title_words(text: str) -> set[str]:
    return set(_WORD.findall(text.casefold()))


def retitle_section(doc: Document, rng: Random, style: str = "reworded") -> Record | None:
    """A section retitled past recognition over its reworded clauses (see the module)."""
    locked = set(doc.locked) | set(doc.reworded)
    titles = sorted({" ".join(u.text.split()) for _, u in walk(doc.root) if u.kind == "heading"})
    choices: list[tuple[Unit, list[Unit], list[str]]] = []
    for _p, _i, section in _entries(doc, ("section",)):
        if not section.children or section.children[0].kind != "heading":
            continue
        heading = section.children[0]
        old = _title_words(heading.text)
        if not old or heading.uid in locked:
            continue
        blocks = [b for b in _own_blocks(section) if b.uid not in locked and can_reword(b.text)]
        fresh = [t for t in banks.SECTION_TITLES if not _title_words(t) & old and t not in titles]
        if len(blocks) >= 2 and fresh:
            choices.append((section, blocks, fresh))
    if not choices:
        return None
    section, blocks, fresh = rng.choice(choices)
    heading = section.children[0]
    before = " ".join(heading.text.split())
    heading.text = rng.choice(fresh)
    doc.reworded.append(heading.uid)
    replaced = [_reword_unit(block, rng, "any", doc) for block in blocks]
    return Record(
        "retitle_section",
        style,
        {
            "heading": heading.uid,
            "before": _clip(before),
            "after": heading.text,
            "reworded": [block.uid for block in blocks],
            "replaced": replaced,
        },
    )


def _defined_term(unit: Unit) -> str | None:
    match = _DEFINITION.match(" ".join(unit.text.split()))
    return match.group(3) if match else None


def insert_definition(doc: Document, rng: Random, style: str = "reworded") -> Record | None:
    """A new definition in alphabetical place in a run of definitions, the rest re-lettered; with
    ``reworded`` the definition it displaces (whose letter it takes) is reworded too."""
    defined = {t.casefold() for _, u in walk(doc.root) if (t := _defined_term(u))}
    choices: list[tuple[Unit, int, int, int, str, str]] = []
    for parent, start, end in _runs(doc, min_len=2):
        terms = [(k, _defined_term(parent.children[k])) for k in range(start, end)]
        definitions = [(k, term) for k, term in terms if term]
        if len(definitions) < 2:
            continue
        for term, body in banks.DEFINITIONS:
            if term.casefold() in defined:
                continue
            later = [k for k, other in definitions if other.casefold() > term.casefold()]
            if not later:
                continue  # appended after the last, it would re-letter nothing
            displaced = parent.children[later[0]]
            if displaced.uid in doc.locked or (style == "reworded" and not can_reword(displaced.text)):
                continue
            choices.append((parent, start, end, later[0], term, body))
    if not choices:
        return None
    parent, start, end, position, term, body = rng.choice(choices)
    before = _labels(doc)
    forms = run_forms(parent.children[start:end])
    assert forms is not None
    label = forms[0].with_value(forms[position - start].value)
    displaced = parent.children[position]
    head = _DEFINITION.match(" ".join(displaced.text.split()))
    assert head is not None
    opening, quote, _term, close, markup, verb = head.groups()
    text = f"{opening}{quote}{term}{close}{markup} {verb} {body}"
    _shift(parent, position, end, +1)
    replaced = _reword_unit(displaced, rng, "any", doc) if style == "reworded" else 0
    new = Unit(doc.new_uid(), displaced.kind, label, text, displaced.level, {})
    parent.children.insert(position, new)
    doc.reworded.append(new.uid)  # all its words are new: a later rewording would say nothing of it
    cited = _cite_changes(doc, before, skip=(new.uid,))
    return Record(
        "insert_definition",
        style,
        {
            "unit": new.uid,
            "term": term,
            "label": label,
            "displaced": displaced.uid,
            "to": displaced.label,
            "replaced": replaced,
            "cited": cited,
        },
    )


REWORDED_OPERATORS = {
    "reword_clause": reword_clause,
    "retitle_section": retitle_section,
    "insert_definition": insert_definition,
}
REWORDED_STYLES: dict[str, tuple[str, ...]] = {
    "reword_clause": ("light", "heavy"),
    "retitle_section": ("reworded",),
    "insert_definition": ("reworded", "plain"),
}
