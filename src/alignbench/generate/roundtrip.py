"""Render, re-read with the real reader, and insist the reader sees exactly the intended tree.

This is the generator's guard against its own optimism: an operator whose rendering the reader
groups differently (a paragraph swallowed into the clause above it, a label read as prose) is
rolled back by the caller, so the truth never describes a tree the reader does not produce.
"""

from __future__ import annotations

from functools import lru_cache

from alignbench.blocks import BlockTree
from alignbench.errors import AlignbenchError
from alignbench.generate.model import Document, from_tree, shape, unit_shape
from alignbench.generate.render import render_markdown
from alignbench.readers import read_text

FORMAT = "markdown"
PROFILE = "markdown"
_SETTLE_ROUNDS = 4


def read_markdown(text: str, source: str = "<generated>") -> BlockTree:
    return read_text(text, FORMAT, PROFILE, source=source)


@lru_cache(maxsize=64)
def _read_generated(text: str) -> BlockTree:
    """The reader is a pure function of the text, and every pair of a base document re-verifies the
    same rendering of it (its source side), so recent readings are kept (the trees are never mutated)."""
    return read_markdown(text)


def verify(doc: Document) -> tuple[str, BlockTree] | None:
    """The rendering and its tree when the reader reads back the intended tree, else ``None``."""
    text = render_markdown(doc.root)
    tree = _read_generated(text)
    if shape(tree.root) != unit_shape(doc.root):
        return None
    return text, tree


def settle(tree: BlockTree, name: str) -> Document:
    """A document model whose own rendering reads back to itself (a fixed point of render + read).

    A source is read by whatever reader suits it, then re-rendered as canonical Markdown; the first
    rendering may regroup a little (a heading style, a label's punctuation), so iterate until stable.
    """
    doc = from_tree(tree)
    for _ in range(_SETTLE_ROUNDS):
        text = render_markdown(doc.root)
        again = read_markdown(text, source=name)
        if shape(again.root) == unit_shape(doc.root):
            return from_tree(again)
        doc = from_tree(again)
    raise AlignbenchError(
        f"{name}: its Markdown rendering does not read back stably after {_SETTLE_ROUNDS} rounds; "
        "simplify the document or fix the reader"
    )
