"""Where a plain text's paragraphs break when blank lines do not say so.

A text's blocks are its blank-line separated runs of lines, with two exceptions that decide what
counts as a blank line or a paragraph break before any clause or heading rule runs:

- A comment margin (profile ``comment_margins``: `` * `` down a C comment) is markup, not a bullet
  list: in a block whose every line carries it, with at least one line holding it alone, the margin
  is taken off and a line holding it alone separates paragraphs, as a blank line does. A list of
  one-line ``* `` bullets never has a line holding the mark alone, so it stays a list.
- Inside one block, :func:`wrapped_paragraphs` finds the paragraph ends of hard-wrapped text with no
  blank lines between paragraphs, and :func:`displayed_sentences` the one-line units of an indented
  block of sentences (profile ``wrapped_paragraphs``).

Both decide from the text's own layout, never from a document's name, so the same rule reads a
licence file, a PDF export and a PEP.
"""

from __future__ import annotations

import re
from itertools import pairwise

from alignbench.readers.label_grammar import match_label
from alignbench.readers.profiles import Profile
from alignbench.readers.units import Line

# A block: its ``(1-based line number, line)`` pairs, right-stripped, none blank.
TextBlock = list[tuple[int, str]]

# A line that ends a sentence: a word, then a full stop, `!` or `?`, perhaps inside a closing quote or
# bracket (a colon introduces what follows; `..` is markup).
_SENTENCE_END = re.compile(r"[\w)\]\"'”’][.!?][\"'”’)\]]*$")


def blocks_of(text: str, profile: Profile) -> list[TextBlock]:
    """The blank-line separated blocks of ``text``, a comment margin taken off (module docstring)."""
    blocks: list[TextBlock] = []
    current: TextBlock = []
    for number, raw in enumerate(text.split("\n"), start=1):
        if raw.strip():
            current.append((number, raw.rstrip()))
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    if not profile.comment_margins:
        return blocks
    out: list[TextBlock] = []
    for block in blocks:
        out.extend(_without_margin(block, profile.comment_margins))
    return out


def _margin_rest(line: str, mark: str) -> str | None:
    """The line after its comment margin (one space after the mark is the margin's too), or ``None``
    when the line does not carry ``mark``."""
    body = line.lstrip()
    if not body.startswith(mark):
        return None
    rest = body[len(mark) :]
    if rest and not rest[0].isspace():
        return None  # `*bold*` or `**` is no margin
    return rest[1:] if rest.startswith(" ") else rest


def _without_margin(block: TextBlock, marks: tuple[str, ...]) -> list[TextBlock]:
    """``block`` split at its bare margin lines and its margin taken off, when it is a comment's text;
    else ``[block]`` unchanged."""
    for mark in marks:
        rests = [_margin_rest(raw, mark) for _, raw in block]
        if any(rest is None for rest in rests) or all(rest.strip() for rest in rests if rest is not None):
            continue
        pieces: list[TextBlock] = [[]]
        for (number, _), rest in zip(block, rests, strict=True):
            if rest is not None and rest.strip():
                pieces[-1].append((number, rest.rstrip()))
            elif pieces[-1]:
                pieces.append([])
        return [piece for piece in pieces if piece]
    return [block]


def leftmost_column(blocks: list[TextBlock]) -> int:
    """The smallest indentation of any line: the column a document's body text starts at."""
    return min((len(raw) - len(raw.lstrip()) for block in blocks for _, raw in block), default=0)


def displayed_sentences(lines: list[Line], profile: Profile, body_column: int) -> bool:
    """Whether ``lines`` are displayed sentences, one unit each: a block indented past
    ``body_column`` whose ``min_sentence_lines`` or more lines each end a sentence (PEP 20's
    aphorisms). A wrapped paragraph ends lines mid-sentence, so it never qualifies."""
    least = profile.wrapped_paragraphs.min_sentence_lines
    if not least or len(lines) < least or min(line.indent for line in lines) <= body_column:
        return False
    return all(_SENTENCE_END.search(line.text) is not None for line in lines)


def wrapped_paragraphs(lines: list[Line], profile: Profile) -> list[list[Line]]:
    """The paragraphs of one hard-wrapped block that has no blank line between them (profile
    ``wrapped_paragraphs``).

    A greedy wrapper fills each line: a line ends early only where its paragraph ends. So a line
    on which the next line's first word would have fitted (within the block's widest line, ``slack``
    columns to spare) ends its paragraph when it ends a sentence, or when the next line opens with a
    label (a clause number, a word label, a bullet), and the next line does not start in lower case.
    A block of fewer than ``min_lines`` lines shows no wrap width.
    """
    rule = profile.wrapped_paragraphs
    if not rule.min_lines or len(lines) < rule.min_lines:
        return [lines]
    width = max(line.indent + len(line.text) for line in lines)
    runs: list[list[Line]] = [[lines[0]]]
    for previous, line in pairwise(lines):
        first_word = line.text.split(None, 1)[0]
        if (
            not first_word[0].islower()
            and previous.indent + len(previous.text) + 1 + len(first_word) + rule.slack <= width
            and (
                _SENTENCE_END.search(previous.text) is not None or match_label(line.text, profile) is not None
            )
        ):
            runs.append([line])
        else:
            runs[-1].append(line)
    return runs
