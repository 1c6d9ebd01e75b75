"""What a reader leaves out of the tree, kept per position: so no drop is silent and no dropped
difference is hidden (issues 28 and 33).

Each drop is ``(kind, line, text)``: the construct's name (``html_block``, ``hr``, ``link_target``
...), the 1-based source line it starts on (0 when the parser does not say, as for a link reference
definition), and the source text it stood for. The counts (``BlockTree.dropped``) stay as before;
the positions feed the one-line notes of ``compare`` and ``blocks``, the JSON and the HTML page, and
:func:`dropped_changes`, which reports a change in dropped content as its own change kind.
"""

from __future__ import annotations

import difflib
import hashlib
from collections import Counter
from collections.abc import Sequence
from typing import Any

# (kind, 1-based line or 0, the source text it stood for)
Drop = tuple[str, int, str]

# Drops that stand for whole source lines; the others (link targets, images, inline tags) are items
# inside a line.
LINE_KINDS: frozenset[str] = frozenset({"front_matter", "hr", "html_block", "link_reference"})
NOTE_LINES_SHOWN = 10


class DropLog(Counter):  # type: ignore[type-arg]
    """The reader's ``dropped`` counter that also keeps each drop's position and text."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[Drop] = []

    def note(self, kind: str, line: int, text: str) -> None:
        self[kind] += 1
        self.log.append((kind, line, text))

    def take(self, other: DropLog) -> None:
        """Add another log's drops after this one's (a reader that read a text twice keeps one)."""
        self.update(other)
        self.log.extend(other.log)


def digest(text: str) -> str:
    """A short digest of a drop's text, as a block's is of its content: white space runs count as one
    space, so a reflowed HTML block is the same drop, as a reflowed paragraph is the same block."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def drops_to_dict(drops: Sequence[Drop]) -> list[dict[str, Any]]:
    return [{"kind": k, "line": n, "digest": digest(t), "text": t} for k, n, t in drops]


def notes(drops: Sequence[Drop], name: str | None = None) -> list[str]:
    """One line per dropped kind: ``note: 1 line dropped as html_block at line 211``."""
    by_kind: dict[str, list[int]] = {}
    for kind, line, _ in drops:
        by_kind.setdefault(kind, []).append(line)
    out = []
    for kind in sorted(by_kind):
        lines = by_kind[kind]
        count = len(lines)
        what = (
            ("line" if count == 1 else "lines") if kind in LINE_KINDS else ("item" if count == 1 else "items")
        )
        distinct = [str(n) for n in dict.fromkeys(lines) if n]  # two inline drops may share a line
        where = distinct[:NOTE_LINES_SHOWN]
        more = ", ..." if len(distinct) > NOTE_LINES_SHOWN else ""
        at = f" at line{'s' if len(where) > 1 else ''} {', '.join(where)}{more}" if where else ""
        prefix = f"{name}: " if name else ""
        out.append(f"note: {prefix}{count} {what} dropped as {kind}{at}")
    return out


def dropped_changes(old: Sequence[Drop], new: Sequence[Drop]) -> list[dict[str, Any]]:
    """Where the dropped content of two versions differs, per position in each document's sequence of
    drops: a changed, removed or added drop, each with its kind, lines and digests. Empty when every
    drop is the same content in the same order."""
    a = [(kind, digest(text)) for kind, _, text in old]
    b = [(kind, digest(text)) for kind, _, text in new]
    changes: list[dict[str, Any]] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        for offset in range(max(i2 - i1, j2 - j1)):
            source = old[i1 + offset] if i1 + offset < i2 else None
            test = new[j1 + offset] if j1 + offset < j2 else None
            kind = "modify" if source and test else ("delete" if source else "insert")
            changes.append(
                {
                    "kind": kind,
                    "construct": (source or test)[0],  # type: ignore[index]
                    "source_line": source[1] if source else None,
                    "test_line": test[1] if test else None,
                    "source_digest": digest(source[2]) if source else None,
                    "test_digest": digest(test[2]) if test else None,
                    "source_text": source[2] if source else None,
                    "test_text": test[2] if test else None,
                }
            )
    return changes
