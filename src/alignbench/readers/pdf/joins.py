"""Lines of one block joined where the page shows they continue each other (``layout`` finds the
blocks): words hyphenated at a line end, compounds, web addresses and written-out links broken at a
line end, hanging indents, lines wrapped by the layout, and lines an author broke inside a paragraph.
The rules are ``layout``'s module docstring's; each has a test in ``tests/test_pdf_reader.py``.
"""

from __future__ import annotations

import re

from alignbench.readers.pdf.textlayer import PdfLine

HYPHEN_ENDS = ("-", "\u00ad", "\u0002")
SENTENCE_END = (".", ":", ";", "!", "?", ".”", '."', ".)", "”", ")")
_CLAUSE_END = (".", ":", ";", "—", "–", "--", ".”", '."', "; and", "; or")
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
# A label at a line's start as the list-shape rule compares them (``(a)``, ``b.``, ``15.6``).
_LABEL_START = re.compile(r"(\(?)([0-9]{1,3}(?:\.[0-9]{1,3})*|[a-z]{1,4}|[A-Z]{1,4})([.)]?)\s")
# A compound broken after its hyphen before a capital or a digit (``User-`` / ``Generated``,
# ``95833-`` / ``3505``): the hyphen is the author's, and the two halves are one word.
_COMPOUND_BREAK = re.compile(r"[A-Za-z\u00c0-\u024f0-9]-$")
# A line that ends with a bracketed span (``[your feedback]``).
_CLOSED_BRACKETS = re.compile(r"\[[^\[\]]+\]$")
_ADDRESS_BREAKS = ("/", ".", "-", "_", "?", "=", "&", "#")
_BROKEN_WORD = re.compile(r"\S[-\u00ad\u0002]$")
# PDFium joins a line broken after a hyphen itself, marking the hyphen U+FFFE.
_MARKED_HYPHEN = re.compile(r"([A-Za-z\u00c0-\u024f0-9]*)\ufffe([A-Za-z\u00c0-\u024f0-9]*)")
# A word as the hyphenation rule sees it: letters, with inner hyphens (``third-party``).
WORD = re.compile(r"[A-Za-z\u00c0-\u024f]+(?:-[A-Za-z\u00c0-\u024f]+)*")


Laid = tuple[int, str, bool]  # a line's indent in columns, its text, and whether the layout wrapped it


def rejoined(lines: list[Laid], words: set[str]) -> list[Laid]:
    """Rejoin words hyphenated at a line end (``employ-`` / ``ment``), compounds broken after their
    hyphen (``User-`` / ``Generated``), web addresses broken inside (``.../1.`` / ``0.``) and links
    written out broken between their brackets (``[your feedback]`` / ``({{ site.email }})``)."""
    out: list[Laid] = []
    for indent, text, full in lines:
        previous = out[-1][1] if out else ""
        if out and _BROKEN_WORD.search(previous) and text[:1].islower():
            head, _, rest = text.partition(" ")
            stem = previous[:-1]
            last_word = WORD.findall(stem)[-1] if WORD.findall(stem) and stem[-1:].isalpha() else ""
            head_word = WORD.match(head)
            keep = previous.endswith("-") and not _one_word(
                last_word, head_word.group(0) if head_word else "", words
            )
            joined = (previous if keep else stem) + head
        elif out and (
            (_COMPOUND_BREAK.search(previous) and (text[:1].isupper() or text[:1].isdigit()))
            or _broken_address(previous, text)
            or _broken_link(previous, text)
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


def _broken_link(previous: str, text: str) -> bool:
    """Whether a link written out (``[your feedback]({{ site.email }})``, Markdown's ``[text](address)``)
    was broken between its brackets: a layout may break a line between ``]`` and ``(`` where no space
    stands, and a space there would have unmade the link. A line that opens with a label (``(a)``) after
    a bracketed line (``[Reserved]``) starts a clause, not an address."""
    return (
        _CLOSED_BRACKETS.search(previous) is not None and text.startswith("(") and _label_shape(text) is None
    )


def _one_word(left: str, right: str, words: set[str]) -> bool:
    """Whether ``left-`` / ``right`` is one word the layout hyphenated: the document writes it whole
    elsewhere and never with the hyphen. Otherwise the hyphen is the author's (``third-party``, and
    any hyphenated word the document does not repeat: keeping a hyphen loses less than dropping one)."""
    if not left or not right:
        return False
    return f"{left}{right}".lower() in words and f"{left}-{right}".lower() not in words


def unmark_hyphens(line: PdfLine, words: set[str]) -> PdfLine:
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


def hanging(lines: list[Laid], spaced: bool) -> list[tuple[int, str]]:
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
                and out[-1][1].endswith(SENTENCE_END)
                and shape is None
                and plain_start(text)
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


def plain_start(text: str) -> bool:
    """Whether a line starts with a word no text rule reads as a label (``WordPress.com's``, not
    ``Section``, ``o`` or ``iv.``)."""
    first = text.split(" ", 1)[0]
    if len(first) < 2 or not first[0].isalpha() or first.endswith(")"):
        return False
    core = first.rstrip(".:").lower()
    if first.endswith(".") and (len(core) == 1 or _ROMAN.fullmatch(core)):
        return False
    return core not in _LABEL_WORDS
