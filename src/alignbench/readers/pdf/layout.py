"""From a PDF's lines to blocks of text lines: what a page's layout says and the text does not.

- **Running headers, footers and page numbers.** A line in a page's top or bottom band
  (``BAND_SHARE`` of its height) whose text, digits ignored, repeats in that band on at least half of
  the pages (and on two at least) is a running header or footer; a band line that is only a page
  number (``7``, ``- 7 -``, ``Page 7 of 9``) is a page number. Both are dropped and counted.
- **Paragraphs.** A new block starts where the gap between two baselines is wider than
  ``GAP_FACTOR`` times the document's usual line spacing (scaled up for a bigger font), where the
  font changes to or from a heading font, or, in a document that does not space its paragraphs,
  after a line that stops short of the column (``SHORT_LINE_SHARE`` of its width) and ends a
  sentence, or at a first-line indent (``_first_line_indent``). A line was wrapped only where the
  next line's first word would not have fitted at its end, judged in justified text by where its
  characters would end unstretched (``_Geometry.wraps``). A page break continues the paragraph
  unless the last line, not wrapped, ended a sentence or changed font, or the page stopped early
  (``_ended_early``); but where a full page hides a gap the document's own pages show for the same
  kind of join (``join_kind``: after a sentence, a line that starts in bold or, after a line that
  stopped short, with a plain word), the page break does what the document does most there.
- **Headings.** A block of at most ``HEADING_MAX_LINES`` lines wholly in a font bigger than the
  body's, or of another family (a sans-serif title over serif text), is a heading, full stop or not
  (``1.Definitions.``); its rank is its font's place among the heading fonts, biggest first. The
  body's own family in bold or italic at the body's size is emphasis, not a heading (``**Note**``).
  When the fonts mark headings, the text rule's heading guesses are off; when they mark none (a
  contract set in one font), the text rule finds them (``1. DEFINITIONS``). A line of its own wholly
  in bold (not bold italic) at the body's size is marked (``Block.bold_line``): the reader makes it
  a heading under the Markdown reader's bold-paragraph rule (short, no full stop, text after it).
- **Hyphenation.** A line ending in a hyphen, followed by one starting in lower case, is one word
  broken by the layout: the two are rejoined with no space. The hyphen goes only when the document
  writes the word whole elsewhere and never hyphenated (``employ-`` / ``ment``); otherwise it is the
  author's (``third-party``, ``usage-`` / ``based``) and stays. PDFium rejoins some such lines
  itself, marking the hyphen U+FFFE: the same rule decides it. A compound broken after its hyphen
  before a capital or a digit (``User-`` / ``Generated``) and a web address broken after a ``/`` or ``.``
  (``.../1.`` / ``0``) are rejoined with no space, the hyphen kept; so is a link written out
  (``[your feedback]`` / ``({{ site.email }})``) broken between its brackets, where a layout breaks a
  line with no space, unless the next line opens with a label (``[Reserved]`` / ``(a) The``).

Inside a block, lines are joined where the page shows they continue each other (``joins``). What is
left is plain text: each block's lines, indented by their distance from the left margin, handed to
the text reader's own rules (labels, bullets, clause grouping).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass

from alignbench.readers.pdf.joins import (
    HYPHEN_ENDS,
    SENTENCE_END,
    WORD,
    hanging,
    plain_start,
    rejoined,
    unmark_hyphens,
)
from alignbench.readers.pdf.textlayer import PdfLine

BAND_SHARE = 0.09
GAP_FACTOR = 1.08
FONT_GAP_FACTOR = 1.08
# A document sets its paragraphs apart with space when this share of its body line gaps is wide.
SPACED_SHARE = 0.05
SHORT_LINE_SHARE = 0.85
# The column's right edge is where the longest body lines stop, less one line in this many (one line
# set a little wider must not move the edge for all).
EDGE_OUTLIERS = 50
HEADING_MAX_LINES = 3
# A document is justified when this share of its body lines end at the column's edge.
JUSTIFIED_SHARE = 0.6
_PAGE_NUMBER = re.compile(r"(?:page\s*)?#(?:\s*(?:of|/)\s*#)?|[-–—]\s*#\s*[-–—]|\[#\]|\(#\)", re.IGNORECASE)
_DIGITS = re.compile(r"[0-9]+")
# Bold italic is emphasis, not a bold heading (Markdown's rule reads ``***Right to Opt Out***`` so).
_ITALIC = re.compile(r"italic|oblique", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Block:
    """A run of lines the layout keeps together: a heading (``rank`` set) or body text."""

    lines: tuple[tuple[int, str], ...]  # (indent in columns, text)
    rank: int | None = None
    # One line set wholly in bold at the body's size, a paragraph of its own: a heading when the
    # reader's rule for a bold paragraph says so (``**Payment Terms**`` in Markdown).
    bold_line: bool = False


Signature = tuple[float, bool, str]


def _signature(line: PdfLine) -> Signature:
    """A line's font as the layout compares fonts: size, weight and face (``textlayer`` computes it)."""
    return line.signature


def _family(face: str) -> str:
    """A font's family: its face less the style (``DejaVuSerif-BoldItalic`` -> ``dejavuserif``)."""
    return face.partition("-")[0].partition(",")[0].lower()


def _band(line: PdfLine) -> str | None:
    band = line.page_height * BAND_SHARE
    if line.baseline >= line.page_height - band:
        return "top"
    if line.baseline <= band:
        return "bottom"
    return None


def drop_running_lines(lines: list[PdfLine], dropped: Counter[str]) -> list[PdfLine]:
    """The lines less running headers, footers and page numbers (counted in ``dropped``)."""
    pages = len({line.page for line in lines})
    seen: Counter[tuple[str, str]] = Counter()
    for band_key in sorted({(_band(line), _normal(line.text), line.page) for line in lines if _band(line)}):
        seen[(band_key[0], band_key[1])] += 1  # type: ignore[index]
    threshold = max(2, (pages + 1) // 2)
    kept = []
    for line in lines:
        band = _band(line)
        if band is not None:
            normal = _normal(line.text)
            if pages > 1 and _PAGE_NUMBER.fullmatch(normal):
                dropped["page_number"] += 1
                continue
            if seen[(band, normal)] >= threshold:
                dropped["running_header" if band == "top" else "running_footer"] += 1
                continue
        kept.append(line)
    return kept


def _normal(text: str) -> str:
    return " ".join(_DIGITS.sub("#", text.lower()).split())


class _Geometry:
    """The document's body font, line spacing, left margin and column width."""

    def __init__(self, lines: list[PdfLine]) -> None:
        weights: Counter[Signature] = Counter()
        for line in lines:
            weights[_signature(line)] += len(line.text)
        self.body = max(sorted(weights), key=lambda key: weights[key]) if weights else (10.0, False, "")
        body_lines = [line for line in lines if _signature(line) == self.body]
        gaps = [
            a.end_baseline - b.baseline
            for a, b in itertools.pairwise(body_lines)
            if a.page == b.page and 0 < a.end_baseline - b.baseline < 3 * a.size
        ]
        # The line spacing: the lower quartile of the gaps, not the median, which a short document
        # of one-line paragraphs set apart with space would take from the paragraph gaps.
        self.spacing = sorted(gaps)[len(gaps) // 4] if gaps else self.body[0] * 1.2
        all_gaps = [
            a.end_baseline - b.baseline
            for a, b in itertools.pairwise(body_lines)
            if a.page == b.page and 0 < a.end_baseline - b.baseline < 4 * a.size
        ]
        wide = sum(1 for gap in all_gaps if gap > self.spacing * GAP_FACTOR)
        self.spaced = bool(all_gaps) and wide >= SPACED_SHARE * len(all_gaps)
        # The lowest a body line is set on any page: the foot of the text area.
        self.bottom = min((line.baseline for line in body_lines), default=0.0)
        lefts = Counter(round(line.x0) for line in body_lines) or Counter({72: 1})
        self.left = float(min(x for x, n in lefts.items() if n >= max(lefts.values()) / 4))
        rights = sorted(line.x1 for line in body_lines) or [500.0]
        self.right = rights[int(len(rights) * 0.9)] if len(rights) > 1 else rights[0]
        # The column's right edge: where the longest lines stop (a ragged right stops short of it).
        self.edge = rights[-1 - len(rights) // EDGE_OUTLIERS]
        self.char_width = self.body[0] * 0.5
        # The body's average character width, from its longer lines (a short line says little).
        densities = sorted(
            (line.x1 - line.x0) / len(line.text) for line in body_lines if len(line.text) >= 20
        )
        self.average_char = densities[len(densities) // 2] if densities else self.char_width
        # Justified: most lines of more than one line's paragraphs end at the column's edge.
        reaching = sum(1 for line in body_lines if line.x1 > self.edge - self.average_char)
        self.justified = reaching >= JUSTIFIED_SHARE * len(body_lines)
        bigger = {
            key
            for key in weights
            if key != self.body
            and (
                key[0] > self.body[0] * 1.05
                or (_family(key[2]) != _family(self.body[2]) and key[0] >= self.body[0] * 0.95)
            )
        }
        # Bigger first; at one size bold before regular; then by face, so the ranks are deterministic.
        order = sorted(bigger, key=lambda k: (-k[0], not k[1], k[2]))
        self.heading_ranks = {key: rank for rank, key in enumerate(order, 1)}
        # How the document's pages join each kind of line a page break may fall before (``join_kind``):
        # (kind, set apart by a paragraph gap) -> how often, counted where a page shows the gap.
        self.habits: Counter[tuple[str, bool]] = Counter()
        for above, below in itertools.pairwise(lines):
            gap = above.end_baseline - below.baseline
            kind = join_kind(above, below, self) if above.page == below.page and gap > 0 else None
            if kind is not None:
                self.habits[(kind, gap > self.spacing * GAP_FACTOR)] += 1

    def indent(self, line: PdfLine) -> int:
        return max(0, round((line.x0 - self.left) / self.char_width))

    def short(self, line: PdfLine) -> bool:
        return line.x1 < self.left + (self.right - self.left) * SHORT_LINE_SHARE

    def wraps(self, previous: PdfLine, line: PdfLine) -> bool:
        """Whether ``previous`` was wrapped by the layout before ``line``: ``line``'s first word would
        not have fitted in the room left at its end. A line that stops with room to spare for that
        word ended where its author ended it (a line break, a paragraph's or clause's end); so did a
        line stretched far wider than its characters need (justified text stretches a line that ends
        in a line break to the column's edge: ``Automattic Inc.`` across the whole column)."""
        char_width = self.average_char
        end = previous.x1
        if end > self.edge - char_width and self.justified:
            # Stretched to the edge: where its characters would end unstretched.
            end = min(end, previous.x0 + len(previous.text) * char_width)
        first_word = line.text.split(" ", 1)[0]
        return end + (len(first_word) + 1) * char_width > self.edge - char_width / 2


def _heading_font(line: PdfLine, geometry: _Geometry) -> bool:
    return line.uniform and _signature(line) in geometry.heading_ranks


def join_kind(previous: PdfLine, line: PdfLine, geometry: _Geometry) -> str | None:
    """The kind of join between two body lines whose only evidence a page break hides, or ``None``.

    After a line that ended a sentence, at its indent (a first-line indent says more): a line that
    starts in bold and goes on in the body font (``bold``: a run-in title, whether it opens a
    paragraph or a line its author broke)
    or, where the line before stopped with room for its first word, one that starts with a plain word
    (``plain``). In a document that sets its paragraphs apart with space, each is either a new
    paragraph (a gap before it) or a line break inside one (no gap); only the document's habit says
    which (``_Geometry.habits``)."""
    if (
        not geometry.spaced
        or not previous.text.endswith(SENTENCE_END)
        or previous.signature[0] != geometry.body[0]
        or line.signature[0] != geometry.body[0]
        or abs(line.x0 - previous.x0) >= 1.0
        or _heading_font(previous, geometry)
        or _heading_font(line, geometry)
    ):
        return None
    if line.bold:
        # A run-in title (bold, then the body font); a line wholly in bold is a title line of its own,
        # which a change of font at a page break sets apart whatever the document's run-ins do.
        return None if line.uniform else "bold"
    if plain_start(line.text) and not geometry.wraps(previous, line):
        return "plain"
    return None


def _page_habit(previous: PdfLine, line: PdfLine, geometry: _Geometry) -> bool | None:
    """Whether a page break between ``previous`` and ``line`` ends a paragraph by the document's habit:
    how its pages join the same kind of lines where the gap shows (``join_kind``); ``None`` when it has
    no habit (no such join, or as many gaps as not)."""
    kind = join_kind(previous, line, geometry)
    if kind is None:
        return None
    gaps, joins = geometry.habits[(kind, True)], geometry.habits[(kind, False)]
    return None if gaps == joins else gaps > joins


def _breaks(previous: PdfLine, line: PdfLine, geometry: _Geometry) -> bool:
    # A short line that ends a sentence ends its paragraph, unless the document sets its paragraphs
    # apart with space: then a short line is a line break inside one (an address, a run-in title).
    ended = not geometry.spaced and geometry.short(previous) and previous.text.endswith(SENTENCE_END)
    entering = _heading_font(line, geometry) and (
        not _heading_font(previous, geometry) or _signature(previous) != _signature(line)
    )
    leaving = _heading_font(previous, geometry) and not _heading_font(line, geometry)
    if previous.page != line.page:
        # The last line of a page ends its paragraph when it stops short after a sentence (the space a
        # spaced document puts after a paragraph is lost at the page foot).
        # A line of its own in another font (a bold title at a page foot) ends there too.
        finished = not geometry.wraps(previous, line) and (
            previous.text.endswith(SENTENCE_END) or _signature(previous) != _signature(line)
        )
        # A full page hides the gap: where the document joins such lines one way on its pages (a line
        # break before each bold run-in title, a gap before each definition), the break follows suit.
        habit = _page_habit(previous, line, geometry)
        return entering or leaving or (finished if habit is None else habit)
    gap = previous.end_baseline - line.baseline
    # Lines in a bigger font (a heading over two lines) are set wider apart than the body's.
    scale = max(1.0, max(previous.size, line.size) / geometry.body[0])
    if gap > geometry.spacing * GAP_FACTOR * scale or gap < 0:
        return True
    # A heading font starts a block only where the layout sets it apart (a heading has space before
    # it); a bold phrase that wraps onto its own line inside a paragraph does not. A heading ends at
    # its last line, short of the column, whatever the space after it.
    if entering and (gap > geometry.spacing * FONT_GAP_FACTOR or ended):
        return True
    if leaving and geometry.short(previous):
        return True
    return ended


def _first_line_indent(before: PdfLine | None, previous: PdfLine, line: PdfLine, geometry: _Geometry) -> bool:
    """Whether ``line`` opens a paragraph by its first-line indent: it is set deeper than ``previous``,
    a line its author ended, which continues a paragraph at its own depth (``before`` is as deep); a
    label's hanging indent (``13.28 "Protected Party" means`` / ``when the party``) is the reverse."""
    return (
        before is not None
        and before.page == previous.page == line.page
        and abs(before.x0 - previous.x0) < 1.0
        and line.x0 > previous.x0 + geometry.average_char
        and not geometry.wraps(previous, line)
    )


def _ended_early(lines: list[PdfLine], index: int, geometry: _Geometry) -> bool:
    """Whether the page before ``lines[index]`` ended a paragraph, seen from where the page stopped.

    A page that stops with room for another body line did not run out of space: a word processor
    stops early only to keep a paragraph's lines together (its widow control carries a paragraph's
    last two lines over, never one) or because the next paragraph, with the space before it and two
    lines at least, did not fit. So an early stop followed by anything but exactly two lines of text
    is a paragraph's end; a page that stopped at its foot says nothing."""
    previous, line = lines[index - 1], lines[index]
    if _signature(previous) != geometry.body or _signature(line) != geometry.body:
        return False
    if previous.baseline - geometry.spacing < geometry.bottom:
        return False  # no room for another line: the page was full
    run = 1
    while index + run < len(lines) and run <= 2:
        above, below = lines[index + run - 1], lines[index + run]
        if (
            below.page != line.page
            or not 0 < above.end_baseline - below.baseline <= geometry.spacing * GAP_FACTOR
        ):
            break
        run += 1
    return run != 2


def blocks(lines: list[PdfLine]) -> list[Block]:
    """Group the kept lines into heading and body blocks."""
    if not lines:
        return []
    geometry = _Geometry(lines)
    # The document's vocabulary decides hyphens; most documents break no word, and pay nothing for it.
    hyphenated = any(line.text.endswith(HYPHEN_ENDS) or "\ufffe" in line.text for line in lines)
    words = {word.lower() for line in lines for word in WORD.findall(line.text)} if hyphenated else set()
    lines = [unmark_hyphens(line, words) if "\ufffe" in line.text else line for line in lines]
    groups: list[list[PdfLine]] = [[lines[0]]]
    for index in range(1, len(lines)):
        previous, line = lines[index - 1], lines[index]
        before = groups[-1][-2] if len(groups[-1]) > 1 else None
        if (
            _breaks(previous, line, geometry)
            or (previous.page != line.page and _ended_early(lines, index, geometry))
            or _first_line_indent(before, previous, line, geometry)
        ):
            groups.append([line])
        else:
            groups[-1].append(line)
    out = []
    for group in groups:
        rank = geometry.heading_ranks.get(_signature(group[0])) if _heading_font(group[0], geometry) else None
        laid = [
            (
                geometry.indent(line),
                line.text,
                index + 1 < len(group) and geometry.wraps(line, group[index + 1]),
            )
            for index, line in enumerate(group)
        ]
        texts = hanging(rejoined(laid, words), geometry.spaced)
        if rank is not None and len(group) <= HEADING_MAX_LINES:
            out.append(Block(((0, " ".join(text for _, text in texts)),), rank))
        else:
            first = group[0]
            bold_line = (
                len(group) == 1
                and first.bold
                and first.uniform
                and first.signature[0] == geometry.body[0]
                and not _ITALIC.search(first.signature[2])
            )
            out.append(Block(tuple(texts), bold_line=bold_line))
    return out
