"""The block structure of a Markdown document made of ATX headings and plain paragraphs only.

markdown-it's block parser is most of the cost of reading a long document (every line is offered to
eleven rules, and each block becomes three ``Token`` objects). Many documents need none of that
machinery: when every line is blank, an ATX heading, or a line that starts with a letter or a digit
(and is not an ordered-list marker), no CommonMark block construct other than a heading or a
paragraph can occur - lists, quotes, fences, code, tables, HTML, references, rules and setext
underlines each need a line that starts with a space, a tab or punctuation. Such a document is
scanned here into the same (heading, paragraph) sequence, with the same content and source lines,
that markdown-it yields for it; any other document returns ``None`` and markdown-it reads it.
"""

from __future__ import annotations

import re

from markdown_it.common.utils import MD_TRIM_CHARS

# markdown-it's ordered-list marker: up to 9 digits, then `.` or `)`, then a space, a tab or the end.
# Searched for in the whole text at once (the first line, then after every newline), where a match per
# line costs twice as much: a line's end is a newline or the end of the text.
_ORDERED_MARKER = re.compile(r"[0-9]{1,9}[.)](?:[ \t\n]|\Z)")
_ORDERED_MARKER_LINE = re.compile(r"\n[0-9]{1,9}[.)](?:[ \t\n]|\Z)")
_HEADING = re.compile(r"(#{1,6})(?:[ \t]|$)")
_BLANK = frozenset(" \t")

# (kind, 0-based first source line, inline content, heading level (0 for a paragraph))
SimpleBlock = tuple[str, int, str, int]


def simple_blocks(text: str) -> list[SimpleBlock] | None:
    """Headings and paragraphs of ``text``, or ``None`` when it holds any other block construct.

    A heading's content is markdown-it's (trimmed, the closing ``#`` run left to markdown-it: a
    heading that ends in ``#`` sends the document to it). A paragraph is a run of consecutive text
    lines, ended by a blank line or a heading, its content the lines joined by newlines and trimmed.
    """
    if _ORDERED_MARKER.match(text) is not None or _ORDERED_MARKER_LINE.search(text) is not None:
        return None  # a line opens an ordered list
    blocks: list[SimpleBlock] = []
    trim = MD_TRIM_CHARS  # markdown-it's mdTrim is ``str.strip`` of these: called inline, once per block
    lines = text.split("\n")
    para_start = -1  # the first line of the paragraph being read, -1 between paragraphs
    for number, line in enumerate(lines):
        first = line[:1]
        if first.isalnum():
            if para_start < 0:
                para_start = number
            continue
        if para_start >= 0:
            blocks.append(("paragraph", para_start, _paragraph(lines, para_start, number).strip(trim), 0))
            para_start = -1
        if not line:  # a blank line, the commonest after a text line
            continue
        if first == "#":
            heading = _HEADING.match(line)
            if heading is None:
                return None
            level = len(heading.group(1))
            content = line[level:]
            if content.rstrip(" \t").endswith("#"):
                return None  # a closing `#` run: markdown-it's rule for it is not repeated here
            blocks.append(("heading", number, content.strip(trim), level))
        elif not _BLANK.issuperset(line):
            return None
    if para_start >= 0:
        blocks.append(("paragraph", para_start, _paragraph(lines, para_start, len(lines)).strip(trim), 0))
    return blocks


def _paragraph(lines: list[str], start: int, end: int) -> str:
    """Lines ``start`` to ``end`` joined by newlines; a one-line paragraph (the common case) as is."""
    return lines[start] if end - start == 1 else "\n".join(lines[start:end])
