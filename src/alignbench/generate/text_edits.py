"""Text operators: edit one clause's wording (numbers, durations, parties, sentences, words), or
re-wrap it without changing a word."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from random import Random

from alignbench.generate import banks
from alignbench.generate.model import Document
from alignbench.generate.operator_kit import (
    _DURATION,
    _NUMBER_PAIR,
    TEXT_KINDS,
    Record,
    _entries,
    _new_sentence,
    _sentences,
    _uncited_numbers,
)

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
