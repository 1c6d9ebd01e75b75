"""The Word reader: numbering rendered as Word shows it, the tree it builds, what it drops and counts."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("lxml", reason="the docx extra (lxml) is not installed")

from alignbench import read
from alignbench.cli import main
from alignbench.errors import AlignbenchError
from alignbench.readers import word
from alignbench.readers.profiles import get_profile
from alignbench.readers.word.numbering import format_number
from docx_builder import (
    abstract,
    build_docx,
    deleted,
    inserted,
    level,
    num,
    para,
    run,
    table,
)
from docx_numbering_fixtures import FIXTURES, Fixture

PROFILE = get_profile("markdown")


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda f: f.name)
def test_numbering_fixture_labels(fixture: Fixture, tmp_path: Path) -> None:
    path = fixture.build(tmp_path / f"{fixture.name}.docx")
    assert tuple(word.shown_numbers(path.read_bytes(), PROFILE)) == fixture.labels


def test_at_least_twelve_numbering_fixtures() -> None:
    assert len(FIXTURES) >= 12
    assert len({f.name for f in FIXTURES}) == len(FIXTURES)


def _fixture(name: str, tmp_path: Path) -> Path:
    fixture = next(f for f in FIXTURES if f.name == name)
    return fixture.build(tmp_path / f"{name}.docx")


def _shape(tree) -> list[tuple[int, str, str | None, str]]:  # type: ignore[no-untyped-def]
    return [(b.address.count("/"), b.kind, b.label, b.text) for b in tree.blocks() if b.address != "/"]


def test_legal_numbering_nests_by_level(tmp_path: Path) -> None:
    tree = read(_fixture("legal_multilevel", tmp_path))
    assert tree.format == "docx"
    labels = {b.label: b.address for b in tree.blocks() if b.label}
    assert labels["1"] == "/list_item[1]"
    assert labels["1.1"] == "/list_item[1]/list_item[1]"
    assert tree.find("/list_item[1]/list_item[1]/list_item[2]").label == "(b)"
    assert tree.find("/list_item[1]/list_item[1]/list_item[2]/list_item[2]").label == "(ii)"
    assert tree.find("/list_item[1]/list_item[2]").label == "1.2"
    assert tree.find("/list_item[2]/list_item[1]/list_item[1]").text == "a limb again."


def test_list_continued_after_table(tmp_path: Path) -> None:
    tree = read(_fixture("continued_after_table", tmp_path))
    shape = [(b.kind, b.label) for b in tree.root.children]
    assert shape == [("list_item", "1"), ("list_item", "2"), ("table", None), ("list_item", "3")]
    table_block = tree.root.children[2]
    assert [c.text for c in table_block.children[1].children] == ["Setup", "100"]
    assert table_block.children[0].attrs == {"header": True}


def test_headings_numbered_through_styles(tmp_path: Path) -> None:
    tree = read(_fixture("heading_styles", tmp_path))
    headings = [(b.label, b.text, b.level) for b in tree.blocks() if b.kind == "heading"]
    assert headings == [
        ("1", "Definitions", 1),
        ("1.1", "Terms", 2),
        ("1.2", "Services", 2),
        ("2", "Fees", 1),
        (None, "Unnumbered heading", 1),
        ("2.1", "Payment", 2),
    ]
    assert tree.find("/section[1]/section[1]/list_item[1]").label == "(a)"


def test_bullets_have_no_label_and_nest_numbers(tmp_path: Path) -> None:
    tree = read(_fixture("bullets", tmp_path))
    first = tree.root.children[0]
    assert (first.kind, first.label, first.text) == ("list_item", None, "a bullet")
    assert [c.label for c in first.children] == ["1", "2"]


def test_tracked_changes_accepted_and_original(tmp_path: Path) -> None:
    path = _fixture("tracked_changes", tmp_path)
    accepted = read(path)
    assert [b.text for b in accepted.root.children] == ["first", "inserted clause", "last"]
    assert accepted.dropped == {"tracked_deletion": 2}
    original = read(path, revisions="original")
    assert [b.text for b in original.root.children] == ["first", "deleted clause", "last words"]
    assert original.dropped == {"tracked_insertion": 1}
    profile = get_profile("markdown")
    assert word.shown_numbers(path.read_bytes(), profile, revisions="original") == ["1.", "2.", "3."]


def test_manual_numbers_go_through_the_label_grammar(tmp_path: Path) -> None:
    body = para("1. Typed clause.") + para("(a) typed limb;") + para("(b) another limb.") + para("2. Next.")
    tree = read(build_docx(tmp_path / "manual.docx", body))
    assert [(b.label, b.address) for b in tree.blocks() if b.label] == [
        ("1", "/list_item[1]"),
        ("(a)", "/list_item[1]/list_item[1]"),
        ("(b)", "/list_item[1]/list_item[2]"),
        ("2", "/list_item[2]"),
    ]


def test_side_parts_fields_and_hidden_text_are_counted(tmp_path: Path) -> None:
    field = (
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> REF clause4 \\h </w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
        + run("Section 4")
        + '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
    )
    note_ref = '<w:r><w:footnoteReference w:id="1"/></w:r>'
    body = para(runs=run("See ") + field + run(" below.") + note_ref) + para(
        runs=run("Visible") + run(" secret", hidden=True)
    )
    comments = '<w:comment w:id="0" w:author="r"><w:p><w:r><w:t>Why?</w:t></w:r></w:p></w:comment>'
    footnotes = (
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
        '<w:footnote w:id="1"><w:p><w:r><w:t>A note.</w:t></w:r></w:p></w:footnote>'
    )
    header = "<w:p><w:r><w:t>ACME CONFIDENTIAL</w:t></w:r></w:p>"
    footer = "<w:p><w:r><w:t>Page</w:t></w:r></w:p>"
    path = build_docx(
        tmp_path / "side.docx", body, comments=comments, footnotes=footnotes, header=header, footer=footer
    )
    tree = read(path)
    assert [b.text for b in tree.root.children] == ["See Section 4 below.", "Visible"]
    assert tree.dropped == {
        "comment": 1,
        "field_code": 1,
        "footer": 1,
        "footnote": 1,
        "footnote_reference": 1,
        "header": 1,
        "hidden_text": 1,
    }


def test_paragraph_mark_deletion_joins_paragraphs(tmp_path: Path) -> None:
    mark = '<w:del w:id="3" w:author="t" w:date="2024-01-01T00:00:00Z"/>'
    body = (
        para("The licensee may", mark=mark)
        + para("use the software.")
        + para(runs=run("Kept") + inserted(run(" and added")) + deleted(" and removed"))
    )
    tree = read(build_docx(tmp_path / "join.docx", body))
    assert [b.text for b in tree.root.children] == ["The licensee may use the software.", "Kept and added"]
    original = read(tmp_path / "join.docx", revisions="original")
    assert [b.text for b in original.root.children] == [
        "The licensee may",
        "use the software.",
        "Kept and removed",
    ]


@pytest.mark.parametrize(
    ("number", "fmt", "shown"),
    [
        (4, "lowerRoman", "iv"),
        (1999, "upperRoman", "MCMXCIX"),
        (27, "lowerLetter", "aa"),
        (53, "upperLetter", "AAA"),
        (7, "decimalZero", "07"),
        (12, "ordinal", "12th"),
        (3, "cardinalText", "Three"),
        (2, "ordinalText", "Second"),
        (5, "bullet", ""),
        (9, "someFutureFormat", "9"),
    ],
)
def test_number_formats(number: int, fmt: str, shown: str) -> None:
    assert format_number(number, fmt) == shown


def test_not_a_docx_is_a_one_line_error(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "notes.docx"
    bad.write_text("plain text, not a package\n", encoding="utf-8")
    with pytest.raises(AlignbenchError, match=r"notes\.docx: not a Word \.docx file"):
        read(bad)
    assert main(["blocks", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert "notes.docx" in err and "\n" not in err


def test_empty_docx_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(AlignbenchError, match="has no text"):
        read(build_docx(tmp_path / "empty.docx", para("")))


def test_cli_blocks_and_compare_across_formats(tmp_path: Path, capsys) -> None:
    numbering = abstract(0, [level(0, "decimal", "%1.")]) + num(1, 0)
    old = build_docx(
        tmp_path / "old.docx",
        para("Fees are due monthly.", num=1, ilvl=0) + para("Either party may terminate.", num=1, ilvl=0),
        numbering=numbering,
    )
    new = tmp_path / "new.md"
    new.write_text("1. Either party may terminate.\n2. Fees are due monthly.\n", encoding="utf-8")
    assert main(["blocks", str(old), "--revisions", "original"]) == 0
    assert "list_item [2]" in capsys.readouterr().out
    html = tmp_path / "redline.html"
    # compare exits 1 when the versions differ, as diff does.
    assert main(["compare", str(old), str(new), "--html", str(html)]) == 1
    assert "2 blocks paired, 1 moved" in capsys.readouterr().out
    assert html.is_file() and "Fees are due monthly" in html.read_text(encoding="utf-8")


def test_stdin_docx_with_format(tmp_path: Path) -> None:
    import io

    from alignbench.readers import read_document

    path = build_docx(
        tmp_path / "in.docx",
        para("Only clause.", num=1, ilvl=0),
        numbering=abstract(0, [level(0, "decimal", "%1.")]) + num(1, 0),
    )
    tree = read_document("-", format="docx", stdin=io.BytesIO(path.read_bytes()))
    assert [(b.label, b.text) for b in tree.root.children] == [("1", "Only clause.")]


def test_table_cells_keep_numbers_and_all_paragraphs(tmp_path: Path) -> None:
    tree = read(build_docx(tmp_path / "t.docx", table([["Term", "Meaning"], ["Fee", "The fee."]])))
    rows = [[c.text for c in row.children] for row in tree.root.children[0].children]
    assert rows == [["Term", "Meaning"], ["Fee", "The fee."]]


def test_a_short_all_bold_paragraph_before_body_text_is_a_heading_as_in_markdown(tmp_path: Path) -> None:
    """The Markdown reader's rule (`**Payment Terms**` then body text is a heading) holds for the Word
    file made of the same text, so the two read alike; a bold sentence, or a bold line with nothing
    after it, stays a paragraph."""
    from docx_builder import build_docx, para

    def bold(text: str) -> str:
        return para(runs=f'<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">{text}</w:t></w:r>')

    body = "".join(
        [
            bold("Payment Terms"),
            para("Customer pays within thirty days."),
            bold("You must be 18."),
            para("Another paragraph."),
            para(
                runs="<w:r><w:rPr><w:b/></w:rPr><w:t>Half</w:t></w:r>"
                '<w:r><w:t xml:space="preserve"> bold</w:t></w:r>'
            ),
            para("More text."),
            bold("Closing Line"),
        ]
    )
    tree = read(build_docx(tmp_path / "bold.docx", body))
    kinds = [(b.kind, b.text) for b in tree.blocks() if b.text]
    assert ("heading", "Payment Terms") in kinds
    assert ("paragraph", "You must be 18.") in kinds and ("paragraph", "Half bold") in kinds
    assert ("paragraph", "Closing Line") in kinds  # nothing follows it: no body to head
