"""What a clause calls itself: the term a definition defines, or the run-in title a clause opens with.

'"Agreement" means ...' is the definition of Agreement; "Assignment.  Neither party may assign ..." is
the assignment clause. Either name survives a redraft that rewrites the words after it, so a name
defined once in each whole document says which old clause a new one is (the move pass's name stage).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from alignbench.alignment.flat import CLASS_TEXT

if TYPE_CHECKING:
    from alignbench.alignment.flat import FlatDocument

_QUOTED_TERM = re.compile(r'^[("\u201c\u2018\']+(?P<term>[^"\u201d\u2019\']{1,80}?)["\u201d\u2019\']+\)?,?\s')
_PLAIN_TERM = re.compile(r"^(?P<term>[A-Z][\w\-]*(?: [A-Z][\w\-]*){0,3}) ")
_DEFINES = re.compile(r"(?:means|shall mean|has the meaning)\b", re.IGNORECASE)


def defined_term(text: str) -> str | None:
    """The term a definition defines ('"Work" means ...' -> 'work'), case-folded; else None."""
    for pattern in (_QUOTED_TERM, _PLAIN_TERM):
        found = pattern.match(text)
        if found and _DEFINES.match(text, found.end()):
            return " ".join(found.group("term").split()).casefold()
    return None


# A run-in title: one to eight words, the first capitalised and every word either capitalised or a
# short joining word, then a full stop and the clause's first sentence (a capital, a quote or a
# bracket). "Modifications, Severability, and Waiver.  Any waiver ..." -> "modifications, severability,
# and waiver".
_JOINING = r"(?:and|or|of|the|to|for|in|on|with|by|a|an|&)"
_TITLE_WORD = r"[A-Z][\w'’\-]*"
_RUN_IN_TITLE = re.compile(
    rf"^(?P<title>{_TITLE_WORD}(?:,? (?:{_TITLE_WORD}|{_JOINING})){{0,7}})\.\s+(?=[A-Z\"“(])"
)
_MIN_TITLE_LETTERS = 4  # "Mr." and "No." open sentences, not clauses


def run_in_title(text: str) -> str | None:
    """The run-in title a clause opens with ("Entire Agreement.  This ..." -> "entire agreement")."""
    found = _RUN_IN_TITLE.match(text)
    if found is None:
        return None
    title = found.group("title")
    if sum(c.isalpha() for c in title) < _MIN_TITLE_LETTERS or title.split()[-1] in _JOINING_WORDS:
        return None
    return " ".join(title.split()).casefold()


_JOINING_WORDS = frozenset(_JOINING[3:-1].split("|"))


def clause_name(text: str) -> str | None:
    """A definition's term, else a run-in title; the two never collide (a term is keyed apart)."""
    term = defined_term(text)
    if term is not None:
        return f"defines {term}"
    return run_in_title(text)


def clause_names(doc: FlatDocument, blocks: list[int]) -> dict[str, int]:
    """Name -> the one text block of ``blocks`` carrying it (names carried twice are left out)."""
    return named_once(doc, blocks, clause_name)


def named_once(doc: FlatDocument, blocks: list[int], name_of: Callable[[str], str | None]) -> dict[str, int]:
    """Name (``name_of`` a block's text) -> the one text block of ``blocks`` carrying it; a name carried
    twice names neither block."""
    found: dict[str, int] = {}
    twice: list[str] = []
    for b in blocks:
        if doc.cls[b] == CLASS_TEXT and (name := name_of(doc.text[b])) is not None:
            if name in found:
                twice.append(name)
            found[name] = b
    for name in twice:
        found.pop(name, None)
    return found
