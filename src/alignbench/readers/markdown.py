"""The Markdown reader: markdown-it-py tokens -> the shared unit stream.

- ATX and setext headings are headings of their level; a label written in the heading text is read
  with the profile grammar (``## 1. Definitions``).
- A list item's first block takes the list marker as its label unless its text carries its own
  label (the text wins). A list item whose first block is a heading (``1. ## Service``, Common Paper
  CSA 1.1) is that heading, labelled by the marker.
- Inside a paragraph, a soft-wrapped line that starts with a label after a line that ended a
  sentence opens a new clause, exactly as in the text reader (CSA 2.0 writes ``a.`` sub-clauses as
  lazy continuation lines, which CommonMark does not treat as a list).
- Pipe tables are parsed from their source lines by the same parser the text reader uses.
- HTML blocks, thematic breaks, images and inline HTML tags are dropped and counted (an inline tag's
  inner text is kept).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from alignbench.readers.label_grammar import LabelMatch, match_label
from alignbench.readers.pipe_table import parse_pipe_table
from alignbench.readers.profiles import Profile
from alignbench.readers.units import Line, Unit, group_clause_lines, join_lines

# Characters that start an inline rule of the commonmark preset (escape, code, emphasis, link,
# image, autolink/HTML, entity). Text without any of them is plain, so it is not tokenised at all.
_INLINE_MARKUP = re.compile(r"[\\`*_\[!<&]")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    # The core `inline` pass is off: `_inline_lines` tokenises only text that has inline markup,
    # which most clauses of a legal document do not (it is the biggest cost we control).
    return MarkdownIt("commonmark", {"html": True}).enable("table").disable("inline")


@dataclass
class _Item:
    marker: str
    depth: int
    pending: bool = True


def _inline_lines(content: str, env: dict[str, Any], dropped: Counter[str]) -> list[str]:
    """Plain text of inline content, one string per source line (markup removed)."""
    if _INLINE_MARKUP.search(content) is None:
        return content.split("\n")
    parser = _parser()
    children: list[Token] = []
    parser.inline.parse(content, parser, env, children)
    lines: list[str] = []
    parts: list[str] = []
    for child in children:
        if child.type in ("text", "text_special", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            lines.append("".join(parts))
            parts = []
        elif child.type == "image":
            dropped["image"] += 1
        elif child.type == "html_inline":
            dropped["html_inline"] += 1
    lines.append("".join(parts))
    return lines


def _plain(text: str, env: dict[str, Any], dropped: Counter[str]) -> str:
    return " ".join(_inline_lines(text.strip(), env, dropped)).strip()


def _marker_label(item: _Item, profile: Profile) -> LabelMatch | None:
    return match_label(f"{item.marker} ", profile)


def read_units(text: str, profile: Profile, dropped: Counter[str]) -> list[Unit]:
    """The unit stream of a Markdown document; dropped constructs are counted into ``dropped``."""
    env: dict[str, Any] = {}  # link reference definitions, shared with the inline pass
    tokens = _parser().parse(text, env)
    source_lines = text.split("\n")
    units: list[Unit] = []
    items: list[_Item] = []
    list_depth = 0
    index = 0
    while index < len(tokens):
        token = tokens[index]
        kind = token.type
        if kind in ("ordered_list_open", "bullet_list_open"):
            list_depth += 1
        elif kind in ("ordered_list_close", "bullet_list_close"):
            list_depth -= 1
        elif kind == "list_item_open":
            marker = f"{token.info}." if token.info else token.markup
            items.append(_Item(marker, list_depth))
        elif kind == "list_item_close":
            items.pop()
        elif kind == "heading_open":
            title = " ".join(_inline_lines(tokens[index + 1].content, env, dropped)).strip()
            units.append(_heading(title, int(token.tag[1:]), items, profile))
            index += 3
            continue
        elif kind == "paragraph_open":
            units.extend(_paragraph(_inline_lines(tokens[index + 1].content, env, dropped), items, profile))
            index += 3
            continue
        elif kind == "code_block":
            # An indented code block in a legal document is over-indented text (e.g. sub-clauses
            # indented past a list's content column), not code: read each blank-line-separated chunk
            # as a paragraph, so "i. ... ii. ..." stay separate clauses instead of one block.
            for chunk in _indented_chunks(token.content):
                units.extend(_paragraph(chunk, items, profile))
        elif kind == "fence":
            units.extend(_paragraph([token.content.rstrip("\n")], items, profile, code=True))
        elif kind == "table_open":
            close = index
            while tokens[close].type != "table_close":
                close += 1
            start, end = token.map or (0, 0)
            rows, header = parse_pipe_table(source_lines[start:end])
            cells = tuple(tuple(_plain(cell, env, dropped) for cell in row) for row in rows)
            units.extend(_consume_marker_as_paragraph(items, profile))
            units.append(Unit("table", rows=cells, header=header))
            index = close + 1
            continue
        elif kind == "html_block":
            dropped["html_block"] += 1
        elif kind == "hr":
            dropped["hr"] += 1
        index += 1
    return units


def _take_marker(items: list[_Item]) -> _Item | None:
    if items and items[-1].pending:
        items[-1].pending = False
        return items[-1]
    return None


def _consume_marker_as_paragraph(items: list[_Item], profile: Profile) -> list[Unit]:
    """A list item that opens with a table still numbers a clause: an empty one carrying the marker."""
    item = _take_marker(items)
    if item is None:
        return []
    return [
        Unit("paragraph", label=_marker_label(item, profile), depth_hint=item.depth, list_depth=item.depth)
    ]


def _heading(title: str, rank: int, items: list[_Item], profile: Profile) -> Unit:
    item = _take_marker(items)
    label = match_label(title, profile, heading=True)
    if label is not None and label.kind in profile.headings.labelled_kinds:
        return Unit("heading", text=label.rest, label=label, rank=rank)
    label = _marker_label(item, profile) if item is not None else None
    return Unit("heading", text=title, label=label, rank=rank)


def _indented_chunks(content: str) -> list[list[str]]:
    """The non-blank lines of an indented code block, grouped by the blank lines between them."""
    chunks: list[list[str]] = [[]]
    for line in content.split("\n"):
        if line.strip():
            chunks[-1].append(line.strip())
        elif chunks[-1]:
            chunks.append([])
    return [c for c in chunks if c]


def _paragraph(texts: list[str], items: list[_Item], profile: Profile, code: bool = False) -> list[Unit]:
    item = _take_marker(items)
    attrs = {"code": True} if code else {}
    if code:
        groups = [[Line(0, texts[0])]]
    elif len(texts) == 1:  # the common case: one source line cannot split into clauses
        groups = [[Line(0, texts[0].strip())]]
    else:
        groups = group_clause_lines([Line(0, t.strip()) for t in texts], profile)
    units = []
    depth = items[-1].depth if items else 0
    for number, group in enumerate(groups):
        joined = join_lines(group) if not code else group[0].text
        label = None if code else match_label(joined, profile)
        if label is not None:
            extra = {"list_marker": item.marker} if number == 0 and item is not None else {}
            units.append(
                Unit("paragraph", text=label.rest, label=label, list_depth=depth, attrs={**attrs, **extra})
            )
        elif number == 0 and item is not None:
            marker = _marker_label(item, profile)
            units.append(
                Unit(
                    "paragraph",
                    text=joined,
                    label=marker,
                    depth_hint=item.depth,
                    list_depth=depth,
                    attrs=dict(attrs),
                )
            )
        else:
            units.append(Unit("paragraph", text=joined, list_depth=depth, attrs=dict(attrs)))
    return units
