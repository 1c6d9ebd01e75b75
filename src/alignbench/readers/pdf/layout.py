"""From a PDF's lines to blocks of text lines: what a page's layout says and the text does not.

- **Running headers, footers and page numbers.** A line in a page's top or bottom band
  (``BAND_SHARE`` of its height) whose text, digits ignored, repeats in that band on at least half of
  the pages (and on two at least) is a running header or footer; a band line that is only a page
  number (``7``, ``- 7 -``, ``Page 7 of 9``) is a page number. Both are dropped and counted.
- **Paragraphs.** A new block starts where the gap between two baselines is wider than
  ``GAP_FACTOR`` times the document's usual line spacing (scaled up for a bigger font), where the
  font changes to or from a heading font, or, in a document that does not space its paragraphs,
  after a line that stops short of the column (``SHORT_LINE_SHARE`` of its width) and ends a
  sentence. A line was wrapped only where the next line's first word would not have fitted at its
  end (``_Geometry.wraps``). A page break continues the paragraph unless the last line, not wrapped,
  ended a sentence or changed font, or the page stopped early (``_ended_early``).
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
  (``.../1.`` / ``0``) are rejoined with no space, the hyphen kept.

What is left is plain text: each block's lines, indented by their distance from the left margin,
handed to the text reader's own rules (labels, bullets, clause grouping).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass

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
_PAGE_NUMBER = re.compile(r"(?:page\s*)?#(?:\s*(?:of|/)\s*#)?|[-–—]\s*#\s*[-–—]|\[#\]|\(#\)", re.IGNORECASE)
_DIGITS = re.compile(r"[0-9]+")
# Bold italic is emphasis, not a bold heading (Markdown's rule reads ``***Right to Opt Out***`` so).
_ITALIC = re.compile(r"italic|oblique", re.IGNORECASE)
# A bullet always starts an item; a dash starts one unless it is a wrapped line's first character.
_ITEM_MARKS = ("•", "◦", "▪")
_DASHES = ("- ", "* ", "– ", "— ")
_ROMAN = re.compile(r"[ivxlc]+")
# The words a text rule reads as a label (profiles.yaml, ``word`` labels).
_LABEL_WORDS = frozenset(
    [
        "article",
        "section",
        "sec",
        "schedule",
        "annex",
        "appendix",
        "exhibit",
        "part",
        "chapter",
        "division",
        "subtitle",
        "title",
    ]
)
_HYPHEN_ENDS = ("-", "\u00ad", "\u0002")
_CLAUSE_END = (".", ":", ";", "—", "–", "--", ".”", '."', "; and", "; or")
_SENTENCE_END = (".", ":", ";", "!", "?", ".”", '."', ".)", "”", ")")
_LABEL_START = re.compile(r"(\(?)([0-9]{1,3}(?:\.[0-9]{1,3})*|[a-z]{1,4}|[A-Z]{1,4})([.)]?)\s")
# A compound broken after its hyphen before a capital (``User-`` / ``Generated``): the hyphen is the
# author's, and the two halves are one word.
_COMPOUND_BREAK = re.compile(r"[A-Za-z\u00c0-\u024f0-9]-$")
_ADDRESS_BREAKS = ("/", ".", "-", "_", "?", "=", "&", "#")
_BROKEN_WORD = re.compile(r"\S[-\u00ad\u0002]$")
# PDFium joins a line broken after a hyphen itself, marking the hyphen U+FFFE.
_MARKED_HYPHEN = re.compile(r"([A-Za-z\u00c0-\u024f0-9]*)\ufffe([A-Za-z\u00c0-\u024f0-9]*)")
# A word as the hyphenation rule sees it: letters, with inner hyphens (``third-party``).
_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]+(?:-[A-Za-z\u00c0-\u024f]+)*")


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

    def indent(self, line: PdfLine) -> int:
        return max(0, round((line.x0 - self.left) / self.char_width))

    def short(self, line: PdfLine) -> bool:
        return line.x1 < self.left + (self.right - self.left) * SHORT_LINE_SHARE

    def wraps(self, previous: PdfLine, line: PdfLine) -> bool:
        """Whether ``previous`` was wrapped by the layout before ``line``: ``line``'s first word would
        not have fitted in the room left at its end. A line that stops with room to spare for that
        word ended where its author ended it (a line break, a paragraph's or clause's end)."""
        first_word = line.text.split(" ", 1)[0]
        char_width = (line.x1 - line.x0) / max(1, len(line.text))
        return previous.x1 + (len(first_word) + 1) * char_width > self.edge - char_width / 2


def _heading_font(line: PdfLine, geometry: _Geometry) -> bool:
    return line.uniform and _signature(line) in geometry.heading_ranks


def _breaks(previous: PdfLine, line: PdfLine, geometry: _Geometry) -> bool:
    # A short line that ends a sentence ends its paragraph, unless the document sets its paragraphs
    # apart with space: then a short line is a line break inside one (an address, a run-in title).
    ended = not geometry.spaced and geometry.short(previous) and previous.text.endswith(_SENTENCE_END)
    entering = _heading_font(line, geometry) and (
        not _heading_font(previous, geometry) or _signature(previous) != _signature(line)
    )
    leaving = _heading_font(previous, geometry) and not _heading_font(line, geometry)
    if previous.page != line.page:
        # The last line of a page ends its paragraph when it stops short after a sentence (the space a
        # spaced document puts after a paragraph is lost at the page foot).
        # A line of its own in another font (a bold title at a page foot) ends there too.
        finished = not geometry.wraps(previous, line) and (
            previous.text.endswith(_SENTENCE_END) or _signature(previous) != _signature(line)
        )
        return finished or entering or leaving
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
    hyphenated = any(line.text.endswith(_HYPHEN_ENDS) or "\ufffe" in line.text for line in lines)
    words = {word.lower() for line in lines for word in _WORD.findall(line.text)} if hyphenated else set()
    lines = [_unmark_hyphens(line, words) if "\ufffe" in line.text else line for line in lines]
    groups: list[list[PdfLine]] = [[lines[0]]]
    for index in range(1, len(lines)):
        previous, line = lines[index - 1], lines[index]
        if _breaks(previous, line, geometry) or (
            previous.page != line.page and _ended_early(lines, index, geometry)
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
        texts = _hanging(_rejoined(laid, words), geometry.spaced)
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


Laid = tuple[int, str, bool]  # a line's indent in columns, its text, and whether the layout wrapped it


def _rejoined(lines: list[Laid], words: set[str]) -> list[Laid]:
    """Rejoin words hyphenated at a line end (``employ-`` / ``ment``), compounds broken after their
    hyphen (``User-`` / ``Generated``) and web addresses broken inside (``.../1.`` / ``0.``)."""
    out: list[Laid] = []
    for indent, text, full in lines:
        previous = out[-1][1] if out else ""
        if out and _BROKEN_WORD.search(previous) and text[:1].islower():
            head, _, rest = text.partition(" ")
            stem = previous[:-1]
            last_word = _WORD.findall(stem)[-1] if _WORD.findall(stem) and stem[-1:].isalpha() else ""
            head_word = _WORD.match(head)
            keep = previous.endswith("-") and not _one_word(
                last_word, head_word.group(0) if head_word else "", words
            )
            joined = (previous if keep else stem) + head
        elif out and (
            (_COMPOUND_BREAK.search(previous) and (text[:1].isupper() or text[:1].isdigit()))
            or _broken_address(previous, text)
        ):
            head, _, rest = text.partition(" ")
            joined = previous + head
        else:
            out.append((indent, text, full))
            continue
        out[-1] = (out[-1][0], joined, out[-1][2] if rest else full)
        if rest:
            out.append((indent, rest, full))
    return out


def _broken_address(previous: str, text: str) -> bool:
    """Whether a web address at the end of ``previous`` runs on at the start of ``text``: it ends at a
    character a layout breaks an address after (``/``, ``.``, ``-``), and the next line does not
    start a sentence."""
    last = previous.rpartition(" ")[2]
    return "://" in last and last.endswith(_ADDRESS_BREAKS) and bool(text) and not text[0].isupper()


def _one_word(left: str, right: str, words: set[str]) -> bool:
    """Whether ``left-`` / ``right`` is one word the layout hyphenated: the document writes it whole
    elsewhere and never with the hyphen. Otherwise the hyphen is the author's (``third-party``, and
    any hyphenated word the document does not repeat: keeping a hyphen loses less than dropping one)."""
    if not left or not right:
        return False
    return f"{left}{right}".lower() in words and f"{left}-{right}".lower() not in words


def _unmark_hyphens(line: PdfLine, words: set[str]) -> PdfLine:
    def resolve(match: re.Match[str]) -> str:
        left, right = match.group(1), match.group(2)
        return f"{left}{right}" if _one_word(left, right, words) else f"{left}-{right}"

    return line._replace(text=_MARKED_HYPHEN.sub(resolve, line.text))


def _label_shape(text: str) -> tuple[str, str, str] | None:
    """A line-start label's shape (``(a)``, ``5.3``, ``b.``): its brackets and its kind of number."""
    match = _LABEL_START.match(text)
    if match is None:
        return None
    opening, number, closing = match.groups()
    if not opening and not closing and "." not in number:
        return None  # a word or a bare number (``the``, ``15 days``), not a label
    if number[0].isdigit():
        return opening, f"decimal{number.count('.')}", closing
    return opening, "lower" if number.islower() else "upper", closing


def _hanging(lines: list[Laid], spaced: bool) -> list[tuple[int, str]]:
    """Wrapped lines rejoined where the page shows they continue one paragraph.

    A line indented deeper than the block's first line, after a line that ended no clause, continues
    it (a hanging indent: ``• We store ... as long as we have`` / ``a reason``); the text reader would
    take a label-like start there (``4.0.``) for a deeper clause. In a document that sets its
    paragraphs apart with space, a line after one that ran to the column's end, at the same indent or
    deeper, continues it too, whatever it starts with (``...; (b) the second`` wrapped before
    ``(c)``, ``— in as much detail as possible`` / ``— why``): a new clause there would have started
    a new paragraph; unless an earlier line of the block starts with a label or dash of the same
    shape (``a.`` then ``b.``): a list laid out one item a line goes on so (a paragraph broken by a
    page, ``15.5`` at a page foot and ``15.6`` at the next top). There, too, a line that starts with a
    plain word continues the paragraph after a line that ended a sentence where it stopped: the
    author broke the line, not the paragraph (the text reader would read a run of long lines as one
    paragraph each); after a title-like line (no full stop) the text rule decides. A bullet (``•``)
    always starts an item."""
    out: list[Laid] = []
    for indent, text, full in lines:
        if out and not text.startswith(_ITEM_MARKS):
            shape = _start_shape(text)
            listed = shape is not None and any(_start_shape(before) == shape for _, before, _ in out)
            hanging = (
                indent > lines[0][0] and not out[-1][1].endswith(_CLAUSE_END) and not text.startswith(_DASHES)
            )
            wrapped = spaced and out[-1][2] and indent >= out[-1][0] and not listed
            broken = (
                spaced
                and indent >= out[-1][0]
                and out[-1][1].endswith(_SENTENCE_END)
                and shape is None
                and _plain_start(text)
            )
            if hanging or wrapped or broken:
                out[-1] = (out[-1][0], f"{out[-1][1]} {text}", full)
                continue
        out.append((indent, text, full))
    return [(indent, text) for indent, text, _ in out]


def _start_shape(text: str) -> tuple[str, str, str] | None:
    """The shape of a line's opening label or dash, or ``None`` when it opens with neither."""
    if text.startswith(_DASHES):
        return ("", "dash", text[0])
    return _label_shape(text)


def _plain_start(text: str) -> bool:
    """Whether a line starts with a word no text rule reads as a label (``WordPress.com's``, not
    ``Section``, ``o`` or ``iv.``)."""
    first = text.split(" ", 1)[0]
    if len(first) < 2 or not first[0].isalpha() or first.endswith(")"):
        return False
    core = first.rstrip(".:").lower()
    if first.endswith(".") and (len(core) == 1 or _ROMAN.fullmatch(core)):
        return False
    return core not in _LABEL_WORDS
