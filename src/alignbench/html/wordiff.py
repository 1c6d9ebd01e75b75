"""Word-level diff segments for the redline: what a reviewer reads inside a modified clause.

Tokens are words and punctuation runs, so a changed comma does not strike the whole word next to it.
Each run of changes is shown as all its deletions, then all its insertions: "[-a b-][+c d+]" reads
better than "[-a-][+c+] [-b-][+d+]", and long rewrites stay legible.
"""

from __future__ import annotations

import difflib
import re

# (op, text): op is "equal", "delete" or "insert".
Segment = tuple[str, str]

_TOKEN = re.compile(r"(\w+|[^\w\s]+)(\s*)")


def tokenise(text: str) -> tuple[list[str], list[str]]:
    """Words and punctuation runs, and the whitespace after each (kept for display, not compared)."""
    pairs = _TOKEN.findall(text)
    return [token for token, _ in pairs], [token + space for token, space in pairs]


def word_segments(old: str, new: str) -> list[Segment]:
    """Segments that spell ``old`` when the inserts are dropped and ``new`` when the deletes are.

    Whitespace is left out of the comparison (a reflowed line is not a change) and travels with the
    word before it; an unchanged run is shown with the new text's spacing.
    """
    lead_a, lead_b = old[: len(old) - len(old.lstrip())], new[: len(new) - len(new.lstrip())]
    a, shown_a = tokenise(old)
    b, shown_b = tokenise(new)
    raw: list[Segment] = [("delete", lead_a), ("insert", lead_b)] if lead_a != lead_b else [("equal", lead_a)]
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            raw.append(("equal", "".join(shown_b[j1:j2])))
            continue
        if op in ("delete", "replace"):
            raw.append(("delete", "".join(shown_a[i1:i2])))
        if op in ("insert", "replace"):
            raw.append(("insert", "".join(shown_b[j1:j2])))
    return _merge(raw)


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


def side(segments: list[Segment], keep: str) -> list[Segment]:
    """One side of the diff: the old text (``keep="delete"``) or the new text (``keep="insert"``)."""
    return [(op, text) for op, text in segments if op in ("equal", keep)]
