"""Word-level diff segments for the redline: what a reviewer reads inside a modified clause.

Tokens are words and punctuation runs, so a changed comma does not strike the whole word next to it.
Each run of changes is shown as all its deletions, then all its insertions: "[-a b-][+c d+]" reads
better than "[-a-][+c+] [-b-][+d+]", and long rewrites stay legible.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# cydifflib (CPython's difflib compiled, the same opcodes: tests/test_similarity_compiled_difflib.py):
# the word diffs are most of a long redline's rendering time.
from alignbench.alignment.similarity import SequenceMatcher

# (op, text): op is "equal", "delete" or "insert".
Segment = tuple[str, str]

_TOKEN = re.compile(r"(\w+|[^\w\s]+)(\s*)")


def tokenise(text: str) -> tuple[list[str], list[str]]:
    """Words and punctuation runs, and the whitespace after each (kept for display, not compared)."""
    pairs = _TOKEN.findall(text)
    return [token for token, _ in pairs], [space for _, space in pairs]


@dataclass(frozen=True)
class WordDiff:
    """The inline view's merged segments, and each side's own text for the side-by-side view."""

    merged: list[Segment]
    old: list[Segment]
    new: list[Segment]


def word_diff(old: str, new: str) -> WordDiff:
    """Word-level diff of two texts.

    Whitespace is left out of the comparison (a reflowed line is not a change) and travels with the
    word before it: each side is spelled with its own spacing. In the merged view an unchanged run
    ends with the spacing of the side shown next (the old one before a deletion, the new one before
    an insertion), so a deletion never runs into a word and an inserted comma never floats.
    """
    a, gaps_a = tokenise(old)
    b, gaps_b = tokenise(new)
    merged: list[Segment] = []
    old_side: list[Segment] = []
    new_side: list[Segment] = []
    opcodes = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    for k, (op, i1, i2, j1, j2) in enumerate(opcodes):
        if op == "equal":
            old_side.append(("equal", _spell(a, gaps_a, i1, i2)))
            new_side.append(("equal", _spell(b, gaps_b, j1, j2)))
            following = opcodes[k + 1][0] if k + 1 < len(opcodes) else "equal"
            last_gap = gaps_a[i2 - 1] if following in ("delete", "replace") else gaps_b[j2 - 1]
            merged.append(("equal", _spell(b, gaps_b, j1, j2 - 1) + b[j2 - 1] + last_gap))
            continue
        if op in ("delete", "replace"):
            old_side.append(("delete", _spell(a, gaps_a, i1, i2)))
            merged.append(("delete", _spell(a, gaps_a, i1, i2)))
        if op in ("insert", "replace"):
            new_side.append(("insert", _spell(b, gaps_b, j1, j2)))
            merged.append(("insert", _spell(b, gaps_b, j1, j2)))
    return WordDiff(_merge(merged), _merge(old_side), _merge(new_side))


def _spell(tokens: list[str], gaps: list[str], start: int, end: int) -> str:
    return "".join(tokens[k] + gaps[k] for k in range(start, end))


def _merge(segments: list[Segment]) -> list[Segment]:
    """Group each run of changes as all its deletions then all its insertions, and join neighbours."""
    out: list[Segment] = []
    run: dict[str, list[str]] = {"delete": [], "insert": []}

    def flush() -> None:
        for op in ("delete", "insert"):
            if run[op]:
                out.append((op, "".join(run[op])))
                run[op] = []

    for op, text in segments:
        if not text:
            continue
        if op == "equal":
            flush()
            if out and out[-1][0] == "equal":
                out[-1] = ("equal", out[-1][1] + text)
            else:
                out.append((op, text))
        else:
            run[op].append(text)
    flush()
    return out
