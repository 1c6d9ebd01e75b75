"""Heading names: how alike two section headings read, with the words every heading shares discounted.

A rewritten section keeps its name while its body drifts ("1 Definitions" -> "Section 1
Definitions."), so a heading is also compared as a name: case-folded words, punctuation dropped. A
token ratio over such short names is fooled by shared filler, though - "DEPARTMENT OF THE INTERIOR"
and "DEPARTMENT OF HOMELAND SECURITY" are half the same words and entirely different titles. So a
word is weighted by how rare it is among the headings of the two documents (inverse document
frequency, ``log(1 + N / df)``), and two names score the weighted Dice of their word multisets: a word
that names many sections distinguishes none. The score is computed here, identically for both
similarity backends, so they still see the same candidates.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

_WORD = re.compile(r"\w+")


def name_words(text: str) -> tuple[str, ...]:
    """A heading read as a name: case-folded words, punctuation dropped ("Definitions." = "definitions")."""
    return tuple(_WORD.findall(text.casefold()))


# Words this long or longer compare by their first letters only: "Confidentiality" and "Confidential
# Data", "Termination" and "Terminate" name the same thing, while a short word ("fees", "term") is
# compared whole.
STEM_LETTERS = 7


def stem(word: str) -> str:
    return word[:STEM_LETTERS]


class NameWeights:
    """Word -> weight from the heading names of both documents of one comparison; words compare by
    their stems (:func:`stem`)."""

    def __init__(self, names: Iterable[Sequence[str]]) -> None:
        df: dict[str, int] = {}
        total = 0
        for words in names:
            total += 1
            for word in sorted({stem(w) for w in words}):
                df[word] = df.get(word, 0) + 1
        self._total = max(total, 1)
        self._weights = {word: math.log1p(self._total / n) for word, n in df.items()}
        self._unseen = math.log1p(self._total)

    def weight(self, word: str) -> float:
        return self._weights.get(word, self._unseen)

    def similarity(self, a: Sequence[str], b: Sequence[str]) -> float:
        """Weighted Dice of the two word multisets, in [0, 1]; 0 when either name has no words."""
        if not a or not b:
            return 0.0
        a, b = [stem(w) for w in a], [stem(w) for w in b]
        weight = self.weight
        left: dict[str, int] = {}
        for word in a:
            left[word] = left.get(word, 0) + 1
        shared = 0.0
        for word in b:  # b's order: a fixed summation order keeps the float reproducible
            n = left.get(word, 0)
            if n:
                left[word] = n - 1
                shared += weight(word)
        total = sum(weight(w) for w in a) + sum(weight(w) for w in b)
        return 2.0 * shared / total if total else 0.0
