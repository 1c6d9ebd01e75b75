"""Where a block sits, in the words a reviewer uses: "§9 Term › 9.2", never "/section[9]/list_item[2]".

A block is named by the section headings above it and by its own clause label; an unlabelled block
by its kind and position ("¶ 3"). A single section that wraps the whole document is its title, not
a step, so it is left out of every path.
"""

from __future__ import annotations

from alignbench.blocks import Block, BlockTree, format_address, normalise, parse_address

SEPARATOR = " › "
TITLE_CHARS = 40
_KIND_NAMES = {
    "paragraph": "¶",
    "list_item": "item",
    "table": "table",
    "row": "row",
    "cell": "cell",
    "section": "section",
    "heading": "heading",
}


def _short(text: str, limit: int = TITLE_CHARS) -> str:
    text = normalise(text)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def heading_name(heading: Block) -> str:
    """A heading as a reader names it: "§9 Term" when numbered, "Sec. 107 Funding" when labelled in
    words (no "§" before a word), the heading's words alone when unlabelled."""
    text = _short(heading.text)
    if heading.label:
        mark = "§" if heading.label[0].isdigit() else ""
        return f"{mark}{heading.label} {text}".rstrip()
    return text or "untitled section"


def section_heading(section: Block) -> Block | None:
    return next((child for child in section.children if child.kind == "heading"), None)


class Locator:
    """Heading paths of one tree, cached per section so a long document is named in linear time."""

    def __init__(self, tree: BlockTree) -> None:
        self.tree = tree
        only = tree.root.children[0] if len(tree.root.children) == 1 else None
        self._title_section = only.address if only is not None and only.kind == "section" else None

    def locate(self, address: str) -> str:
        steps = parse_address(address)
        if not steps:
            return "the whole document"
        parts = [self._step(format_address(steps[:k])) for k in range(1, len(steps))]
        block = self.tree.find(address)
        if block.kind == "heading" and parts:
            parts.pop()  # the heading names its own section
        parts.append(self._own(block, steps[-1][1]))
        return SEPARATOR.join(part for part in parts if part)

    def _step(self, address: str) -> str:
        if address == self._title_section:
            return ""
        block = self.tree.find(address)
        return self._own(block, parse_address(address)[-1][1])

    def _own(self, block: Block, position: int) -> str:
        if block.kind == "heading":
            return heading_name(block)
        if block.kind == "section":
            heading = section_heading(block)
            return heading_name(heading) if heading is not None else f"section {position}"
        if block.label:
            return block.label
        return f"{_KIND_NAMES[block.kind]} {position}"
