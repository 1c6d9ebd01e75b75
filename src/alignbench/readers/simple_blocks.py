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


def simple_pieces(text: str) -> list[str] | None:
    """``text`` cut at its empty lines, or ``None`` when a line opens an ordered list (markdown-it then
    reads the document).

    A piece of one line (no newline) that starts with a letter or a digit is a one-line paragraph: the
    commonest piece of a legal document, which the Markdown reader's headings-and-paragraphs path reads
    straight from the piece (its content is the piece trimmed; it and the empty line after it are two
    source lines). :func:`add_piece_blocks` cuts any piece into its blocks.
    """
    if _ORDERED_MARKER.match(text) is not None or _ORDERED_MARKER_LINE.search(text) is not None:
        return None  # a line opens an ordered list
    return text.split("\n\n")


def simple_blocks(text: str) -> list[SimpleBlock] | None:
    """Headings and paragraphs of ``text``, or ``None`` when it holds any other block construct.

    A heading's content is markdown-it's (trimmed, the closing ``#`` run left to markdown-it: a
    heading that ends in ``#`` sends the document to it). A paragraph is a run of consecutive text
    lines, ended by a blank line or a heading, its content the lines joined by newlines and trimmed.

    The definition the Markdown reader's headings-and-paragraphs path follows (it reads a one-line
    paragraph straight from its piece, and cuts every other piece here), and what the tests hold to
    markdown-it's own block structure. The text is cut at its empty lines first (:func:`simple_pieces`):
    a legal document is mostly one-line blocks between empty lines, each classified whole, with no
    per-line loop. A piece of several lines is read line by line; it ends any paragraph it opened.
    """
    pieces = simple_pieces(text)
    if pieces is None:
        return None
    blocks: list[SimpleBlock] = []
    number = 0  # the 0-based source line a piece starts on
    for piece in pieces:
        number = add_piece_blocks(piece, number, blocks)
        if number < 0:
            return None
    return blocks


def add_piece_blocks(piece: str, number: int, blocks: list[SimpleBlock]) -> int:
    """Add the blocks of a piece (see :func:`simple_pieces`) that starts on source line ``number``; the
    line the next piece starts on, or -1 when the piece holds another block construct (the document
    goes to markdown-it)."""
    if "\n" not in piece:  # one line, then an empty line (or the end of the text)
        if piece[:1].isalnum():  # a one-line paragraph
            blocks.append(("paragraph", number, piece.strip(MD_TRIM_CHARS), 0))
        elif piece and not _add_heading_or_blank(piece, number, blocks):
            return -1
        return number + 2
    append = blocks.append
    lines = piece.split("\n")
    para_start = -1  # the first line of the paragraph being read, -1 between paragraphs
    for offset, line in enumerate(lines, number):
        if line[:1].isalnum():
            if para_start < 0:
                para_start = offset
            continue
        if para_start >= 0:
            append(("paragraph", para_start, _paragraph(lines, para_start - number, offset - number), 0))
            para_start = -1
        if line and not _add_heading_or_blank(line, offset, blocks):
            return -1
    if para_start >= 0:
        append(("paragraph", para_start, _paragraph(lines, para_start - number, len(lines)), 0))
    return number + len(lines) + 1


def _add_heading_or_blank(line: str, number: int, blocks: list[SimpleBlock]) -> bool:
    """A non-empty line that is not a text line: a heading is added to ``blocks``, a line of spaces
    and tabs adds nothing; ``False`` for any other construct (the document goes to markdown-it)."""
    if line[0] == "#":
        heading = _HEADING.match(line)
        if heading is None:
            return False
        level = len(heading.group(1))
        content = line[level:]
        if content.rstrip(" \t").endswith("#"):
            return False  # a closing `#` run: markdown-it's rule for it is not repeated here
        blocks.append(("heading", number, content.strip(MD_TRIM_CHARS), level))
        return True
    return _BLANK.issuperset(line)


def _paragraph(lines: list[str], start: int, end: int) -> str:
    """Lines ``start`` to ``end`` joined by newlines and trimmed; a one-line paragraph as is."""
    return (lines[start] if end - start == 1 else "\n".join(lines[start:end])).strip(MD_TRIM_CHARS)
