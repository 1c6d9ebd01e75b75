"""Turn a block tree into the flat text the flat engine sees, remembering which block owns each token.

One text-bearing block (heading, paragraph, list item, cell) is one line, written as
``<label> <text>`` the way a flat file shows it. The flat engine tokenises the joined text itself;
because each line is whitespace-normalised, tokenising line by line yields exactly the same tokens,
so each of its tokens can be attributed to its block without guessing.
"""

from __future__ import annotations

from dataclasses import dataclass

from redlines.processor import tokenizer

from alignbench.blocks import TEXT_KINDS, BlockTree, normalise
from alignbench.errors import AlignbenchError


@dataclass(frozen=True)
class FlatDocument:
    text: str
    # owner[i] = address of the block that token i belongs to; None for the engine's paragraph marks
    owners: tuple[str | None, ...]
    units: tuple[str, ...]
    # token index where each run of one owner starts (a block's tokens, or one paragraph mark)
    starts: tuple[int, ...] = ()


def flatten(tree: BlockTree) -> FlatDocument:
    """Lines of every non-empty text-bearing block in document order, plus per-token ownership."""
    lines: list[str] = []
    units: list[str] = []
    for block in tree.blocks():
        if block.kind not in TEXT_KINDS:
            continue
        line = normalise(f"{block.label} {block.text}" if block.label else block.text)
        if line:
            lines.append(line)
            units.append(block.address)
    owners: list[str | None] = []
    starts: list[int] = []
    for index, (line, address) in enumerate(zip(lines, units, strict=True)):
        if index:
            starts.append(len(owners))
            owners.append(None)  # the paragraph mark the engine puts between lines
        count = len(tokenizer.findall(line))  # redlines' tokenize_text, without re's pattern lookup
        if count:
            starts.append(len(owners))
            owners.extend([address] * count)
    return FlatDocument(text="\n".join(lines), owners=tuple(owners), units=tuple(units), starts=tuple(starts))


def check_token_count(flat: FlatDocument, tokens: list[str], side: str) -> None:
    """The engine must have seen exactly the tokens we attributed; anything else is a lifting bug."""
    if len(tokens) != len(flat.owners):
        raise AlignbenchError(
            f"floor: {side} document tokenised to {len(tokens)} tokens by redlines but "
            f"{len(flat.owners)} by the lifter; report this with the document"
        )
