"""The PDF (``.pdf``) reader: the text layer (``textlayer``), the layout (``layout``), then the text rules.

The layout finds what only the page shows: running headers and footers, paragraph breaks, headings
set in a bigger or bold font, words hyphenated at a line end. Every body block is then handed, as
indented plain-text lines, to the plain-text reader (``readers.plaintext``), so labels, bullets and
clause grouping follow exactly the rules a ``.txt`` file gets, whatever those rules become.

No OCR: a PDF whose pages carry no text layer (a scan) is refused with a message that says so.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from alignbench.errors import AlignbenchError
from alignbench.readers import plaintext
from alignbench.readers.label_grammar import match_label
from alignbench.readers.pdf.layout import Block, blocks, drop_running_lines
from alignbench.readers.pdf.textlayer import read_lines
from alignbench.readers.profiles import Profile
from alignbench.readers.units import Unit

__all__ = ["read_units"]


def read_units(data: bytes, profile: Profile, dropped: Counter[str], source: str = "<pdf>") -> list[Unit]:
    """The unit stream of a PDF's bytes; running headers, footers and page numbers are counted."""
    lines = read_lines(data, source)
    if not lines:
        raise AlignbenchError(
            f"{source}: the PDF has no text layer (a scanned document?); alignbench does no OCR, "
            "so run it through OCR first or give the original Word or text file"
        )
    units: list[Unit] = []
    line_number = 1
    laid_out = blocks(drop_running_lines(lines, dropped))
    if any(block.rank is not None for block in laid_out):
        # The fonts mark the headings: the text rule's guesses (a Title Case line) would add false ones.
        # Its guard against one guess goes with them: an addressee over a street line is no heading, so
        # the text rule reads such a block as one paragraph (``address_lines``); with no guesses made,
        # the lines are read as the Markdown reader reads them, whose profile has no such guard.
        profile = replace(
            profile, headings=replace(profile.headings, detect_in_text=False, address_lines=None)
        )
    bold_rank = max((block.rank for block in laid_out if block.rank is not None), default=0) + 1
    for index, block in enumerate(laid_out):
        rank = block.rank
        if rank is None and _bold_heading(block, laid_out[index + 1 : index + 2], profile):
            rank = bold_rank
        if rank is not None:
            title = block.lines[0][1]
            if title.startswith(_HEADING_BULLETS) and len(title) > 2:
                # A heading set in a bulleted list item: the bullet marks the item, it is not title text.
                dropped["list_marker"] += 1
                title = title[1:].lstrip()
            label = match_label(title, profile, heading=True)
            if label is not None and (
                label.kind in profile.headings.labelled_kinds or label.kind == "dotted"
            ):
                units.append(Unit("heading", text=label.rest, label=label, rank=rank, line=line_number))
            else:
                units.append(Unit("heading", text=title, rank=rank, line=line_number))
            line_number += 2
            continue
        block_lines = []
        for indent, line in block.lines:
            marker_free = _typed_label_wins(line, profile)
            if marker_free is not None:
                dropped["list_marker"] += 1
                line = marker_free
            block_lines.append((indent, line))
        text = "\n".join(" " * indent + line for indent, line in block_lines)
        for unit in plaintext.read_units(text, profile, dropped, source):
            units.append(unit._replace(line=unit.line + line_number - 1) if isinstance(unit, Unit) else unit)
        line_number += len(block.lines) + 1
    return units


_HEADING_BULLETS = ("• ", "◦ ", "▪ ", "– ", "- ")
_BOLD_ENDINGS = (".", ",", ";", "!", "?")
# A heading the fonts mark may carry a letter or roman numeral (``E. Private Repositories``): the page
# says it is a heading, so the letter needs no guessing, as in a Markdown heading (profiles.yaml).
_FONT_HEADING_KINDS = frozenset({"dotted"})
# A list's own marker (``1.``, ``•``) shown before a label typed in the item's text (``1. 1.1 Access and
# Use``, ``• 1. Violates``): the typed label names the clause, as a Markdown list item's does, and the
# marker is counted. After a number marker only a label that cannot be a nested item's own counts.
_MARKER_KINDS = frozenset({"decimal", "bullet"})
_TYPED_KINDS = frozenset({"decimal", "enclosed", "word", "section_sign"})
_TYPED_AFTER_BULLET_KINDS = frozenset({"decimal", "enclosed", "closed", "dotted", "word", "section_sign"})


def _bold_heading(block: Block, following: list[Block], profile: Profile) -> bool:
    """A bold line of its own heads what follows it: the Markdown and Word readers' rule for a short
    paragraph bold from end to end (``**Payment Terms**``), so a document reads the same from its
    Markdown and from the PDF made of it. A bold sentence (``You must be 18.``) stays text; the heading
    ranks below every heading the font sizes mark."""
    if not block.bold_line or not following or following[0].rank is not None or following[0].bold_line:
        return False
    title = block.lines[0][1]
    rules = profile.headings
    return (
        not title.endswith(_BOLD_ENDINGS)
        and not title.startswith(_HEADING_BULLETS)
        and len(title) <= rules.max_chars
        and len(title.split()) <= rules.max_words
    )


def _typed_label_wins(line: str, profile: Profile) -> str | None:
    """The line without its list marker when a typed label follows the marker, else ``None``."""
    marker = match_label(line, profile)
    if marker is None or marker.kind not in _MARKER_KINDS or marker.decimal_depth > 1:
        return None
    typed = match_label(marker.rest, profile)
    if typed is not None and marker.kind == "bullet" and typed.kind in _TYPED_AFTER_BULLET_KINDS:
        return marker.rest
    if typed is None or typed.kind not in _TYPED_KINDS:
        return None
    if typed.kind == "decimal" and typed.decimal_depth < 2:
        return None
    return marker.rest
