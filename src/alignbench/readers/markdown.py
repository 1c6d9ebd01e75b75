"""The Markdown reader: markdown-it-py tokens -> the shared unit stream.

- ATX and setext headings are headings of their level; a label written in the heading text is read
  with the profile grammar (``## 1. Definitions``).
- Containment is markdown-it's token stream: every unit carries the path of list items and block
  quotes that hold it, and the builder closes what does not hold it (CommonMark: a paragraph at
  column 0 after a blank line is not inside the list before it).
- A list item's first block is the item. Its label is what a reader of the rendered list sees: an
  ordered item's rendered number (``1. 1. 1.`` are 1, 2, 3; ``start`` is honoured), and no label for
  a bullet; unless its text carries its own label (the text wins). A list item whose first block is a
  heading (``1. ## Service``, Common Paper CSA 1.1) is that heading, labelled by the marker. An empty
  item is an empty list item, not lost.
- Lists and block quotes nested deeper than ``MAX_DEPTH`` fail with an error naming the line
  (markdown-it would otherwise stop parsing there and lose the rest of the document).
- Inside a paragraph, a soft-wrapped line that starts with a label after a line that ended a
  sentence opens a new clause, exactly as in the text reader (CSA 2.0 writes ``a.`` sub-clauses as
  lazy continuation lines, which CommonMark does not treat as a list).
- Pipe tables are parsed from their source lines by the same parser the text reader uses.
- HTML blocks, thematic breaks, images, inline HTML tags and link reference definitions are dropped
  and counted (an inline tag's inner text is kept).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from alignbench.blocks import EMPTY_ATTRS
from alignbench.errors import AlignbenchError
from alignbench.readers.drops import DropLog
from alignbench.readers.label_grammar import (
    LABEL_CACHE_SIZE,
    UNSEEN,
    LabelMatch,
    bullet_match,
    known_readings,
    match_label,
    read_label,
    rendered_number,
)
from alignbench.readers.pipe_table import parse_pipe_table
from alignbench.readers.profiles import Profile
from alignbench.readers.simple_blocks import SimpleBlock, add_piece_blocks, simple_pieces
from alignbench.readers.units import MAX_DEPTH, Line, Unit, group_clause_lines, join_lines
from alignbench.readers.web_export import ODD_BLANK, bold_heading, is_reference_use, link_target


def _has_inline_markup(content: str) -> bool:
    """Whether ``content`` holds a character that starts an inline rule of the commonmark preset
    (escape, code, emphasis, link, image, autolink/HTML, entity); plain text is not tokenised at all.

    Eight substring scans (each at memchr speed) take a fifth of the time of one character-class
    regex search, which the re engine runs character by character."""
    return (
        "\\" in content
        or "`" in content
        or "*" in content
        or "_" in content
        or "[" in content
        or "!" in content
        or "<" in content
        or "&" in content
    )


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    # The core `inline` pass is off: `_inline_lines` tokenises only text that has inline markup,
    # which most clauses of a legal document do not (it is the biggest cost we control).
    parser = MarkdownIt("commonmark", {"html": True}).enable("table").disable("inline")
    # markdown-it stops parsing (silently) at `maxNesting` token levels; a list level takes two
    # (list, item) and a block quote one. Leave room to see one level past MAX_DEPTH, so a deeper
    # document fails with an error naming the line instead of losing its tail.
    parser.options["maxNesting"] = 2 * MAX_DEPTH + 8
    return parser


@dataclass
class _Item:
    marker: str  # as written: `-`, `*`, `1.`, `3)`
    number: int | None  # the rendered number of an ordered-list item, None for a bullet
    path: tuple[int, ...]  # the containers holding the item's blocks, the item itself last
    depth: int  # how many list items hold the item's blocks, itself included
    pending: bool = True


# An inline `<br>` (any case, `<br/>`, `<br />`): dropped as markup, but a page breaks the line there.
_LINE_BREAK_TAG = re.compile(r"<br\s*/?>", re.IGNORECASE)


def _inline_lines(content: str, env: dict[str, Any], dropped: DropLog, line: int = 0) -> list[str]:
    """Plain text of inline content, one string per source line (markup removed).

    What the markup hides is logged in ``dropped`` at its source line (``line`` is the content's
    first): an image (its alt text and source), an inline HTML tag, and a link's target (and title),
    so a changed URL is never "same". An autolink shows its target as its text."""
    if not _has_inline_markup(content):
        return content.split("\n")
    parser = _parser()
    children: list[Token] = []
    parser.inline.parse(content, parser, env, children)
    lines: list[str] = []
    parts: list[str] = []
    for child in children:
        kind = child.type
        if kind in ("text", "text_special", "code_inline"):
            parts.append(child.content)
        elif kind in ("softbreak", "hardbreak"):
            lines.append("".join(parts))
            parts = []
        elif kind == "link_open" and child.markup != "autolink":
            # A reference link's target is its definition's (logged as `link_reference`); logged here
            # too, apart, so pointing a link at another definition is never "same".
            use = "link_reference_use" if is_reference_use(child, content) else "link_target"
            dropped.note(use, line + len(lines), link_target(child))
        elif kind == "image":
            alt = "".join(c.content for c in child.children or ())
            dropped.note("image", line + len(lines), f"{alt} {link_target(child)}".strip())
        elif kind == "html_inline":
            dropped.note("html_inline", line + len(lines), child.content)
            if _LINE_BREAK_TAG.fullmatch(child.content):
                parts.append(" ")  # a page breaks the line there: the words on either side stay apart
    lines.append("".join(parts))
    return lines


def _plain(text: str, env: dict[str, Any], dropped: DropLog, line: int = 0) -> str:
    return " ".join(_inline_lines(text.strip(), env, dropped, line)).strip()


def _marker_label(item: _Item, rest: str) -> LabelMatch:
    if item.number is None:
        return bullet_match(item.marker, rest)
    return rendered_number(item.number, rest)


def read_units(text: str, profile: Profile, dropped: DropLog, source: str = "<text>") -> list[Unit]:
    """The unit stream of a Markdown document; dropped constructs are logged in ``dropped``."""
    if not text.isascii() and ODD_BLANK.search(text) is not None:
        # A line of non-breaking or em spaces is blank to a reader (web exports write them between
        # paragraphs); CommonMark counts only spaces and tabs. Emptied in place: lines keep their numbers.
        text = ODD_BLANK.sub("", text)
    simple = _simple_units(text, profile, dropped)
    if simple is not None:
        return simple
    env: dict[str, Any] = {}  # link reference definitions, shared with the inline pass
    tokens = _parser().parse(text, env)
    source_lines = text.split("\n")
    units: list[Unit] = []
    items: list[_Item] = []
    path: list[int] = []  # ids of the open list items and block quotes, outermost first
    lists: list[list[int]] = []  # per open list: [next rendered number] (None-like -1 for bullets)
    opened = 0
    index = 0
    while index < len(tokens):
        token = tokens[index]
        kind = token.type
        line = token.map[0] + 1 if token.map else 0
        if kind in ("ordered_list_open", "bullet_list_open"):
            start = token.attrGet("start") if kind == "ordered_list_open" else None
            lists.append([int(start) if start is not None else (1 if kind == "ordered_list_open" else -1)])
        elif kind in ("ordered_list_close", "bullet_list_close"):
            lists.pop()
        elif kind in ("list_item_open", "blockquote_open"):
            opened += 1
            path.append(opened)
            if len(path) > MAX_DEPTH:
                raise AlignbenchError(
                    f"{source}: line {line}: lists or block quotes nested deeper than {MAX_DEPTH} levels; "
                    "a legal document nests a dozen at most, so check that this is the right file"
                )
            if kind == "list_item_open":
                counter = lists[-1]
                number = counter[0] if counter[0] >= 0 else None
                if number is not None:
                    counter[0] += 1
                marker = f"{token.info}{token.markup}" if token.info else token.markup
                items.append(_Item(marker, number, tuple(path), len(items) + 1))
        elif kind == "list_item_close":
            item = items.pop()
            if item.pending:  # an empty item still numbers a clause
                units.append(_empty_item(item, line))
            path.pop()
        elif kind == "blockquote_close":
            path.pop()
        elif kind == "heading_open":
            title = " ".join(_inline_lines(tokens[index + 1].content, env, dropped, line)).strip()
            units.append(_heading(title, int(token.tag[1:]), items, profile, line, tuple(path)))
            index += 3
            continue
        elif kind == "paragraph_open":
            content = tokens[index + 1].content
            lines = _inline_lines(content, env, dropped, line)
            if not path and bold_heading(content, lines, tokens, index + 3, profile):
                units.append(
                    _heading(lines[0].strip(), profile.headings.bold_paragraph_rank, items, profile, line, ())
                )
            else:
                units.extend(_paragraph(lines, items, profile, line, tuple(path)))
            index += 3
            continue
        elif kind == "code_block":
            # An indented code block in a legal document is over-indented text (e.g. sub-clauses
            # indented past a list's content column), not code: read each blank-line-separated chunk
            # as a paragraph, so "i. ... ii. ..." stay separate clauses instead of one block.
            for chunk in _indented_chunks(token.content):
                units.extend(_paragraph(chunk, items, profile, line, tuple(path)))
        elif kind == "fence":
            if token.info:  # the language named after the fence: markup, kept apart
                dropped.note("fence_info", line, token.info)
            units.extend(
                _paragraph([token.content.rstrip("\n")], items, profile, line, tuple(path), code=True)
            )
        elif kind == "table_open":
            close = index
            while tokens[close].type != "table_close":
                close += 1
            start_line, end_line = token.map or (0, 0)
            rows, header = parse_pipe_table(source_lines[start_line:end_line])
            cells = tuple(tuple(_plain(cell, env, dropped, line) for cell in row) for row in rows)
            item = _take_marker(items)
            if item is not None:  # a list item that opens with a table still numbers a clause
                units.append(_empty_item(item, line))
            units.append(Unit("table", rows=cells, header=header, line=line, path=tuple(path)))
            index = close + 1
            continue
        elif kind == "html_block":
            dropped.note("html_block", line, token.content.rstrip("\n"))
        elif kind == "hr":
            dropped.note("hr", line, token.markup)
        index += 1
    # `[id]: https://...` lines render as nothing, so they are dropped, and logged (markdown-it keeps
    # no line for them; in the order defined)
    for label, reference in (env.get("references") or {}).items():
        title = reference.get("title") or ""
        dropped.note(
            "link_reference", 0, " ".join(p for p in (label, reference.get("href") or "", title) if p)
        )
    return units


def _simple_units(text: str, profile: Profile, dropped: DropLog) -> list[Unit] | None:
    """The units of a headings-and-paragraphs document (``None`` for any other): what the token loop
    above makes of the same blocks (:func:`~alignbench.readers.simple_blocks.simple_blocks`), outside
    any list or quote (no link reference can be defined, so ``env`` stays empty).

    The text's pieces are walked here: a one-line paragraph of plain text (most pieces) becomes its
    unit directly, with no block record made and read again; any other piece is cut into blocks by
    ``add_piece_blocks``. A text that proves not simple part-way is read again by markdown-it, so what
    this path drops is counted apart and handed over only at the end. (Labels read before that are
    wasted: across the corpus's Markdown, 0.1% of reading, where a scan for such texts first would cost
    every simple text a second pass over its pieces.)
    """
    pieces = simple_pieces(text)
    if pieces is None:
        return None
    # Whether the text holds no inline markup starter, so no block's content is scanned for one again.
    marked_up = _has_inline_markup(text)
    env: dict[str, Any] = {}
    dropping = DropLog()
    units: list[Unit] = []
    append = units.append
    # A line's label is looked up in the kept readings inline (``match_label`` without its call), and
    # read when unseen; a document with more pieces than lines are kept reads each line once, keeping
    # none (``read_label``): its lines could only be dropped before any reuse.
    long = len(pieces) > LABEL_CACHE_SIZE
    known = known_readings(profile)
    lookup = known.get
    number = 0  # the 0-based source line a piece starts on
    blocks: list[SimpleBlock] = []
    for piece in pieces:
        if "\n" not in piece and piece[:1].isalnum() and not (marked_up and _has_inline_markup(piece)):
            # A one-line paragraph of plain text (simple_pieces), the common case: what ``_paragraph``
            # makes of it, inline. Its content, trimmed by markdown-it, then stripped, is the piece
            # stripped (markdown-it trims white space only).
            joined = piece.strip()
            if long:  # the running-text reading, not kept (and not looked up: nothing is)
                label = read_label(profile, joined, False)
            else:
                label = lookup(joined, UNSEEN)
                if label is UNSEEN:  # read and kept, read_unseen(known, joined, profile) inline
                    if len(known) >= LABEL_CACHE_SIZE:
                        known.clear()
                    label = known[joined] = read_label(profile, joined, True)
                if label is not None and not label.terminated:  # a heading reading: rare in a paragraph
                    label = match_label(joined, profile)
            text = joined if label is None else label.rest
            # Unit("paragraph", text=text, label=label, line=number + 1, path=()), as a plain tuple of its
            # fields (see units.Unit): making the named tuple cost as much as the rest of the line.
            unit = ("paragraph", text, label, 0, number + 1, (), False, 0, None, (), False, EMPTY_ATTRS)
            append(unit)  # type: ignore[arg-type]
            number += 2
            continue
        number = add_piece_blocks(piece, number, blocks)
        if number < 0:
            return None
        for kind, start, content, level in blocks:
            if kind == "heading":
                lines = _inline_lines(content, env, dropping, start + 1)
                append(_heading(" ".join(lines).strip(), level, [], profile, start + 1, ()))
            else:
                lines = _inline_lines(content, env, dropping, start + 1)
                units.extend(_paragraph(lines, [], profile, start + 1, ()))
        blocks.clear()
    dropped.take(dropping)
    return units


def _empty_item(item: _Item, line: int) -> Unit:
    item.pending = False
    return Unit(
        "paragraph",
        label=_marker_label(item, ""),
        line=line,
        path=item.path,
        opens_item=True,
        item_depth=item.depth,
    )


def _take_marker(items: list[_Item]) -> _Item | None:
    if items and items[-1].pending:
        items[-1].pending = False
        return items[-1]
    return None


def _heading(
    title: str, rank: int, items: list[_Item], profile: Profile, line: int, path: tuple[int, ...]
) -> Unit:
    item = _take_marker(items)
    label = match_label(title, profile, heading=True)
    if label is None or label.kind not in profile.headings.labelled_kinds:
        text = title
        label = _marker_label(item, title) if item is not None else None
    else:
        text = label.rest
    # Unit("heading", text=text, label=label, rank=rank, line=line, path=path), as a plain tuple of its
    # fields (see units.Unit).
    return ("heading", text, label, rank, line, path, False, 0, None, (), False, EMPTY_ATTRS)  # type: ignore[return-value]


def _indented_chunks(content: str) -> list[list[str]]:
    """The non-blank lines of an indented code block, grouped by the blank lines between them."""
    chunks: list[list[str]] = [[]]
    for line in content.split("\n"):
        if line.strip():
            chunks[-1].append(line.strip())
        elif chunks[-1]:
            chunks.append([])
    return [c for c in chunks if c]


def _paragraph(
    texts: list[str],
    items: list[_Item],
    profile: Profile,
    line: int,
    path: tuple[int, ...],
    code: bool = False,
) -> list[Unit]:
    item = _take_marker(items)
    if code:
        return [_paragraph_unit(texts[0], None, item, line, path, {"code": True})]
    if len(texts) == 1:  # the common case: one source line cannot split into clauses
        joined = texts[0].strip()
        return [_paragraph_unit(joined, match_label(joined, profile), item, line, path, {})]
    groups = group_clause_lines([Line(0, t.strip(), line + n) for n, t in enumerate(texts)], profile)
    units = []
    for number, group in enumerate(groups):
        joined = join_lines(group)
        opened = item if number == 0 else None
        units.append(_paragraph_unit(joined, match_label(joined, profile), opened, group[0].number, path, {}))
    return units


def _paragraph_unit(
    joined: str,
    label: LabelMatch | None,
    item: _Item | None,
    line: int,
    path: tuple[int, ...],
    attrs: dict[str, Any],
) -> Unit:
    """One clause of a paragraph; ``item`` is the list item it opens, if any (``attrs`` is its own)."""
    if label is not None:
        if item is None:
            return Unit("paragraph", text=label.rest, label=label, line=line, path=path, attrs=attrs)
        attrs["list_marker"] = item.marker
        return Unit(
            "paragraph",
            text=label.rest,
            label=label,
            line=line,
            path=path,
            opens_item=True,
            item_depth=item.depth,
            attrs=attrs,
        )
    if item is not None:
        return Unit(
            "paragraph",
            text=joined,
            label=_marker_label(item, joined),
            line=line,
            path=path,
            opens_item=True,
            item_depth=item.depth,
            attrs=attrs,
        )
    return Unit("paragraph", text=joined, line=line, path=path, attrs=attrs)
