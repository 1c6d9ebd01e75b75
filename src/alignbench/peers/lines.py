"""What a peer engine reads of a block: one line, ``<label> <text>``, the way a flat file shows it.

The floor uses the same rendering, so the peers and the floor see identical text; only their
matching differs.
"""

from __future__ import annotations

import re

from alignbench.blocks import TEXT_KINDS, Block, BlockTree, normalise


def block_line(block: Block) -> str:
    """The block's label and own text on one whitespace-normalised line (containers: their label)."""
    return normalise(f"{block.label} {block.text}" if block.label else block.text)


def text_blocks(tree: BlockTree) -> list[Block]:
    """Every text-bearing block (heading, paragraph, list item, cell) in document order."""
    return [block for block in tree.blocks() if block.kind in TEXT_KINDS]


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 forbids replaced by U+FFFD (both peers write XML)."""
    return _NOT_XML.sub("\ufffd", text)
