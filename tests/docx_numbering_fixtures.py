"""The Word numbering fixtures: each a document and the labels Word shows for it, in order.

The expected labels are written out by hand from ECMA-376's rules (and checked against LibreOffice's
text export by the slow test, ``test_docx_numbering_libreoffice``). A bullet shows as ``•``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from docx_builder import (
    abstract,
    build_docx,
    deleted,
    inserted,
    level,
    num,
    para,
    run,
    style,
    table,
)

LEGAL_LEVELS = [
    level(0, "decimal", "%1."),
    level(1, "decimal", "%1.%2"),
    level(2, "lowerLetter", "(%3)"),
    level(3, "lowerRoman", "(%4)"),
]


@dataclass(frozen=True)
class Fixture:
    name: str
    build: Callable[[Path], Path]
    labels: tuple[str, ...]  # every numbered paragraph's label as Word shows it, in reading order
    # Why LibreOffice's rendering is not the reference for this fixture, where it departs from Word's
    # rules (ECMA-376 Part 1, 17.9); empty when it is.
    libreoffice_differs: str = ""


def _legal(path: Path) -> Path:
    body = [
        para("Definitions apply.", num=1, ilvl=0),
        para("Agreement means this.", num=1, ilvl=1),
        para("the first limb;", num=1, ilvl=2),
        para("the second limb, with:", num=1, ilvl=2),
        para("a sub-limb;", num=1, ilvl=3),
        para("another sub-limb.", num=1, ilvl=3),
        para("Services means the services.", num=1, ilvl=1),
        para("Fees are due.", num=1, ilvl=0),
        para("Invoices monthly.", num=1, ilvl=1),
        para("a limb again.", num=1, ilvl=2),
    ]
    return build_docx(path, "".join(body), numbering=abstract(0, LEGAL_LEVELS) + num(1, 0))


def _never_restart(path: Path) -> Path:
    levels = [level(0, "decimal", "%1."), level(1, "lowerLetter", "%2)", restart=0)]
    body = [para("one", num=1, ilvl=0), para("a", num=1, ilvl=1), para("b", num=1, ilvl=1)]
    body += [para("two", num=1, ilvl=0), para("c", num=1, ilvl=1)]
    return build_docx(path, "".join(body), numbering=abstract(0, levels) + num(1, 0))


def _restart_after_level_one(path: Path) -> Path:
    # Level 3 restarts only after level 1 (w:lvlRestart 1, 1-based): a new level-2 number (1.2) keeps
    # its count going, a new level-1 number (2.) restarts it.
    levels = [
        level(0, "decimal", "%1."),
        level(1, "decimal", "%1.%2"),
        level(2, "lowerRoman", "(%3)", restart=1),
    ]
    body = [
        para("one", num=1, ilvl=0),
        para("one.one", num=1, ilvl=1),
        para("i", num=1, ilvl=2),
        para("one.two", num=1, ilvl=1),
        para("ii", num=1, ilvl=2),
        para("two", num=1, ilvl=0),
        para("i again", num=1, ilvl=2),
    ]
    return build_docx(path, "".join(body), numbering=abstract(0, levels) + num(1, 0))


def _start_values(path: Path) -> Path:
    levels = [level(0, "decimal", "%1.", start=5), level(1, "lowerLetter", "(%2)", start=3)]
    body = [para("five", num=1, ilvl=0), para("c", num=1, ilvl=1), para("d", num=1, ilvl=1)]
    body += [para("six", num=1, ilvl=0)]
    return build_docx(path, "".join(body), numbering=abstract(0, levels) + num(1, 0))


def _start_override(path: Path) -> Path:
    # Three w:num of one abstract list: the second restarts at 1; the third continues the second.
    numbering = abstract(0, [level(0, "decimal", "%1.")]) + num(1, 0) + num(2, 0, starts={0: 1}) + num(3, 0)
    body = [para("a", num=1, ilvl=0), para("b", num=1, ilvl=0), para("Between lists.")]
    body += [para("c", num=2, ilvl=0), para("d", num=2, ilvl=0), para("e", num=3, ilvl=0)]
    return build_docx(path, "".join(body), numbering=numbering)


def _continues_across_paragraphs(path: Path) -> Path:
    body = [
        para("first", num=1, ilvl=0),
        para("second", num=1, ilvl=0),
        para("An unnumbered paragraph between."),
        para("Another one."),
        para("third", num=1, ilvl=0),
    ]
    return build_docx(path, "".join(body), numbering=abstract(0, [level(0, "decimal", "%1.")]) + num(1, 0))


def _continued_after_table(path: Path) -> Path:
    body = [
        para("first", num=1, ilvl=0),
        para("first.one", num=1, ilvl=1),
        para("second", num=1, ilvl=0),
        table([["Fee", "Amount"], ["Setup", "100"]], header=True),
        para("third", num=1, ilvl=0),
        para("third.one", num=1, ilvl=1),
    ]
    return build_docx(path, "".join(body), numbering=abstract(0, LEGAL_LEVELS) + num(1, 0))


def _legal_numbering(path: Path) -> Path:
    levels = [
        level(0, "upperRoman", "Article %1"),
        level(1, "decimal", "Section %1.%2", legal=True),
        level(2, "lowerLetter", "(%3)"),
    ]
    body = [
        para("Definitions", num=1, ilvl=0),
        para("Terms", num=1, ilvl=1),
        para("a limb", num=1, ilvl=2),
        para("More terms", num=1, ilvl=1),
        para("Payment", num=1, ilvl=0),
        para("Fees", num=1, ilvl=1),
    ]
    return build_docx(path, "".join(body), numbering=abstract(0, levels) + num(1, 0))


def _formats(path: Path) -> Path:
    levels = [level(0, "upperLetter", "%1."), level(1, "upperRoman", "%2."), level(2, "lowerRoman", "%3)")]
    body = [para("A", num=1, ilvl=0)]
    body += [para(f"roman {n}", num=1, ilvl=1) for n in range(1, 5)]
    body += [para("i", num=1, ilvl=2), para("ii", num=1, ilvl=2), para("B", num=1, ilvl=0)]
    return build_docx(path, "".join(body), numbering=abstract(0, levels) + num(1, 0))


def _letters_past_z(path: Path) -> Path:
    levels = [level(0, "lowerLetter", "(%1)", start=25)]
    body = [para(f"item {n}", num=1, ilvl=0) for n in range(4)]
    return build_docx(path, "".join(body), numbering=abstract(0, levels) + num(1, 0))


def _bullets(path: Path) -> Path:
    levels = [level(0, "bullet", "•"), level(1, "decimal", "%2.")]
    numbering = abstract(0, levels) + num(1, 0)
    body = [
        para("a bullet", num=1, ilvl=0),
        para("numbered under it", num=1, ilvl=1),
        para("numbered again", num=1, ilvl=1),
        para("another bullet", num=1, ilvl=0),
        para("restarted", num=1, ilvl=1),
    ]
    return build_docx(path, "".join(body), numbering=numbering)


def _heading_styles(path: Path) -> Path:
    # Headings numbered through their styles: Heading 1 names numId 1 level 0; Heading 2 gives no
    # w:ilvl, so its level is the one whose w:pStyle is Heading2.
    levels = [
        level(0, "decimal", "%1.", pstyle="Heading1"),
        level(1, "decimal", "%1.%2", pstyle="Heading2"),
        level(2, "lowerLetter", "(%3)"),
    ]
    styles = style("Heading1", "heading 1", num_id=1, ilvl=0, outline=0) + style(
        "Heading2", "heading 2", num_id=1, outline=1
    )
    body = [
        para("Definitions", style="Heading1"),
        para("Terms", style="Heading2"),
        para("a clause under 1.1", num=1, ilvl=2),
        para("Services", style="Heading2"),
        para("Fees", style="Heading1"),
        para("Unnumbered heading", style="Heading1", num=0),
        para("Payment", style="Heading2"),
    ]
    return build_docx(path, "".join(body), numbering=abstract(0, levels) + num(1, 0), styles=styles)


def _tracked_changes(path: Path) -> Path:
    # An inserted numbered paragraph (its runs and its mark inserted) and a deleted one.
    ins_mark = '<w:ins w:id="7" w:author="t" w:date="2024-01-01T00:00:00Z"/>'
    del_mark = '<w:del w:id="8" w:author="t" w:date="2024-01-01T00:00:00Z"/>'
    body = [
        para("first", num=1, ilvl=0),
        para(num=1, ilvl=0, runs=inserted(run("inserted clause")), mark=ins_mark),
        para(num=1, ilvl=0, runs=deleted("deleted clause"), mark=del_mark),
        para("last", num=1, ilvl=0, runs=run("last") + deleted(" words")),
    ]
    return build_docx(path, "".join(body), numbering=abstract(0, [level(0, "decimal", "%1.")]) + num(1, 0))


def _level_override(path: Path) -> Path:
    # The second w:num replaces level 0 outright (w:lvlOverride/w:lvl): letters from c.
    override = f'<w:lvlOverride w:ilvl="0">{level(0, "upperLetter", "%1)", start=3)}</w:lvlOverride>'
    numbering = abstract(0, [level(0, "decimal", "%1.")]) + num(1, 0) + num(2, 0, levels=override)
    body = [para("one", num=1, ilvl=0), para("two", num=1, ilvl=0)]
    body += [para("C", num=2, ilvl=0), para("D", num=2, ilvl=0)]
    return build_docx(path, "".join(body), numbering=numbering)


FIXTURES: tuple[Fixture, ...] = (
    Fixture(
        "legal_multilevel",
        _legal,
        ("1.", "1.1", "(a)", "(b)", "(i)", "(ii)", "1.2", "2.", "2.1", "(a)"),
    ),
    Fixture(
        "never_restart",
        _never_restart,
        ("1.", "a)", "b)", "2.", "c)"),
        libreoffice_differs="LibreOffice 7.4 ignores w:lvlRestart (it restarts the letters after 2.)",
    ),
    Fixture(
        "restart_after_level_one",
        _restart_after_level_one,
        ("1.", "1.1", "(i)", "1.2", "(ii)", "2.", "(i)"),
        libreoffice_differs="LibreOffice 7.4 ignores w:lvlRestart (it restarts the numerals after 1.2)",
    ),
    Fixture("start_values", _start_values, ("5.", "(c)", "(d)", "6.")),
    Fixture("start_override", _start_override, ("1.", "2.", "1.", "2.", "3.")),
    Fixture("continues_across_paragraphs", _continues_across_paragraphs, ("1.", "2.", "3.")),
    Fixture("continued_after_table", _continued_after_table, ("1.", "1.1", "2.", "3.", "3.1")),
    Fixture(
        "legal_numbering",
        _legal_numbering,
        ("Article I", "Section 1.1", "(a)", "Section 1.2", "Article II", "Section 2.1"),
        libreoffice_differs="LibreOffice 7.4 ignores w:isLgl (it shows Section I.1)",
    ),
    Fixture("formats", _formats, ("A.", "I.", "II.", "III.", "IV.", "i)", "ii)", "B.")),
    Fixture("letters_past_z", _letters_past_z, ("(y)", "(z)", "(aa)", "(bb)")),
    Fixture("bullets", _bullets, ("•", "1.", "2.", "•", "1.")),
    Fixture(
        "heading_styles",
        _heading_styles,
        ("1.", "1.1", "(a)", "1.2", "2.", "2.1"),
        libreoffice_differs="LibreOffice 7.4 puts a style's w:numPr without w:ilvl at level 0; ECMA-376 "
        "17.9.23 (w:pStyle) gives it the level linked to the style, as Word's multilevel heading lists do",
    ),
    Fixture(
        "tracked_changes",
        _tracked_changes,
        ("1.", "2.", "3."),
        libreoffice_differs="LibreOffice's text export keeps tracked deletions (it shows changes)",
    ),
    Fixture("level_override", _level_override, ("1.", "2.", "C)", "D)")),
)
