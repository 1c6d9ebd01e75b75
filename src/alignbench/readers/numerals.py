"""Number words and Roman numerals, written once: Word's numbering renders them into labels, and the
synthetic generator writes and renumbers them. Plain data, no imports, so the generator does not pull
in the Word reader's optional lxml."""

from __future__ import annotations

# Greatest first, subtractive pairs included: the standard greedy conversion (lower case).
ROMAN_PAIRS: tuple[tuple[int, str], ...] = (
    (1000, "m"),
    (900, "cm"),
    (500, "d"),
    (400, "cd"),
    (100, "c"),
    (90, "xc"),
    (50, "l"),
    (40, "xl"),
    (10, "x"),
    (9, "ix"),
    (5, "v"),
    (4, "iv"),
    (1, "i"),
)

# 0..20 as words: Word's cardinalText number format, and the generator's "thirty (30) days" edits.
CARDINAL_WORDS: tuple[str, ...] = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
)


def to_roman(number: int) -> str:
    """``number`` (positive) as a lower-case Roman numeral, by the greedy conversion."""
    out = []
    for value, letters in ROMAN_PAIRS:
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)
