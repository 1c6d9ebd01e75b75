"""What the floor is and how its output is lifted, as data: the report quotes it without importing the
engine (redlines, cydifflib and rich cost ~0.09 s of a report stage's start)."""

from __future__ import annotations

FLOOR_ENGINE: dict[str, str] = {"name": "redlines.WholeDocumentProcessor", "version": "0.6.2"}
LIFTING_RULES: tuple[str, ...] = (
    "each token of an `equal` opcode votes for its counterpart; `replace` spans pair token by token "
    "in relative order (the longer side's surplus pairs with nothing)",
    "a block pairs with the test block holding the plurality of its tokens' votes; ties go to the "
    "earliest test block in document order; a block with no votes is deleted, an unchosen test block "
    "is inserted",
)
