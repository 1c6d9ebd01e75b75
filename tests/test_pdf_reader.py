"""The PDF reader: running headers and page numbers counted, paragraphs and headings from the layout,
hyphenation rejoined, the text rules applied, and clear errors for scans and non-PDFs."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pypdfium2", reason="the pdf extra (pypdfium2) is not installed")

from alignbench import read
from alignbench.cli import main
from alignbench.errors import AlignbenchError
from pdf_builder import PAGE_HEIGHT, TextLine, build_pdf, flowed

BODY = {}
PARA = {"gap": 8}


def _page(number: int, body: list[TextLine]) -> list[TextLine]:
    header = TextLine(72, PAGE_HEIGHT - 40, "ACME Master Services Agreement", size=9)
    footer = TextLine(280, 30, f"Page {number} of 3", size=9)
    return [header, *body, footer]


def _contract(tmp_path: Path) -> Path:
    page1 = flowed(
        [
            ("1. Definitions", {"size": 14, "bold": True}),
            ("1.1 Agreement means this master services agreement, together with every", {"gap": 6}),
            ("order form signed under it by both parties.", BODY),
            ("1.2 Services means the services described in an order form, including any", PARA),
            ("employ-", BODY),
            ("ment related services.", BODY),
        ]
    )
    page2 = flowed(
        [
            ("2. Fees", {"size": 14, "bold": True}),
            ("2.1 The customer pays the fees in each order form. A third-party fee is", {"gap": 6}),
            ("passed through at cost; the employment of staff is not charged. Each third-", BODY),
            ("party charge is listed.", BODY),
            ("2.2 Invoices are due within thirty days:", PARA),
            ("(a) by bank transfer; or", {"indent": 18}),
            ("(b) by card.", {"indent": 18}),
        ]
    )
    page3 = flowed(
        [("3. Term", {"size": 14, "bold": True}), ("This agreement runs for one year.", {"gap": 6})]
    )
    return build_pdf(tmp_path / "msa.pdf", [_page(1, page1), _page(2, page2), _page(3, page3)])


def test_running_header_and_page_numbers_are_dropped_and_counted(tmp_path: Path) -> None:
    tree = read(_contract(tmp_path))
    assert tree.format == "pdf"
    assert tree.dropped == {"page_number": 3, "running_header": 3}
    texts = " ".join(b.text for b in tree.blocks())
    assert "ACME Master" not in texts and "Page 1" not in texts


def test_headings_clauses_and_hyphenation(tmp_path: Path) -> None:
    tree = read(_contract(tmp_path))
    headings = [(b.label, b.text) for b in tree.blocks() if b.kind == "heading"]
    assert headings == [("1", "Definitions"), ("2", "Fees"), ("3", "Term")]
    clauses = {b.label: b.text for b in tree.blocks() if b.kind == "list_item"}
    assert clauses["1.1"] == (
        "Agreement means this master services agreement, together with every order form signed under it "
        "by both parties."
    )
    # `employ-` / `ment` is one word (the document writes `employment`); `third-` / `party` keeps its
    # hyphen (the document writes `third-party`).
    assert clauses["1.2"].endswith("including any employment related services.")
    assert "Each third-party charge is listed." in clauses["2.1"]
    assert clauses["(a)"] == "by bank transfer; or"
    assert tree.find("/section[2]/list_item[2]/list_item[2]").label == "(b)"
    assert tree.find("/section[3]/paragraph[1]").text == "This agreement runs for one year."


def test_short_line_ends_a_paragraph_in_a_document_without_paragraph_space(tmp_path: Path) -> None:
    lines = flowed(
        [
            ("The first paragraph runs over two lines of the column, and its first line is", BODY),
            ("short at its end.", BODY),
            ("The second paragraph starts after a short line that ended a sentence, with no gap", BODY),
            ("between them, and it runs on over a third line of the column to its end at", BODY),
            ("last.", BODY),
        ]
    )
    tree = read(build_pdf(tmp_path / "p.pdf", [lines]))
    assert [b.text for b in tree.root.children] == [
        "The first paragraph runs over two lines of the column, and its first line is short at its end.",
        "The second paragraph starts after a short line that ended a sentence, with no gap between them, "
        "and it runs on over a third line of the column to its end at last.",
    ]


def test_paragraph_space_splits_and_short_lines_are_line_breaks(tmp_path: Path) -> None:
    # A document that sets paragraphs apart with space: a short line is a line break (an address).
    lines = flowed(
        [
            ("Notices go to the address below, in writing, by post or by courier only.", BODY),
            ("ACME Inc.", PARA),
            ("Main Street, Springfield.", BODY),
            ("A last paragraph after a gap.", PARA),
        ]
    )
    tree = read(build_pdf(tmp_path / "s.pdf", [lines]))
    assert [b.text for b in tree.root.children] == [
        "Notices go to the address below, in writing, by post or by courier only.",
        "ACME Inc. Main Street, Springfield.",
        "A last paragraph after a gap.",
    ]


@pytest.mark.parametrize("font_headings", [True, False])
def test_an_address_under_its_addressee_reads_as_the_markdown_or_the_text_reader_reads_it(
    tmp_path: Path, font_headings: bool
) -> None:
    # Where the fonts mark the headings the text rule guesses none, and its guard against one guess
    # (an addressee over a street line is one paragraph, never a heading) goes too: the lines read as
    # the Markdown reader reads the same document. In one font the text rules read it, guard and all.
    title = {"size": 14, "bold": True} if font_headings else BODY
    lines = flowed(
        [
            ("Notices", title),
            ("Notices go to the address below, in writing, by post or by courier only.", PARA),
            ("ACME Inc.", PARA),
            ("548 Market St #63259", BODY),
            ("Springfield, CA 94104", BODY),
            ("A last paragraph after a gap.", PARA),
        ]
    )
    tree = read(build_pdf(tmp_path / "address.pdf", [lines]))
    address = ["ACME Inc.", "548 Market St #63259", "Springfield, CA 94104"]
    paragraphs = [b.text for b in tree.blocks() if b.kind == "paragraph"]
    if font_headings:
        markdown = tmp_path / "address.md"
        markdown.write_text(
            "# Notices\n\nNotices go to the address below, in writing, by post or by courier only.\n\n"
            + "\n".join(address)
            + "\n\nA last paragraph after a gap.\n",
            encoding="utf-8",
        )
        assert paragraphs == [b.text for b in read(markdown).blocks() if b.kind == "paragraph"]
        assert paragraphs[1] == "ACME Inc."
    else:
        assert paragraphs[1] == " ".join(address)


def test_a_paragraph_continues_over_a_page_break(tmp_path: Path) -> None:
    first = flowed(
        [("Intro.", BODY), ("This sentence is long enough to fill the line and it runs on to", PARA)]
    )
    first.append(
        TextLine(72, 100, "the next page of the document where it carries on from the break and", size=11)
    )
    second = flowed([("finally ends here.", BODY)])
    tree = read(build_pdf(tmp_path / "b.pdf", [first, second]))
    assert [b.text for b in tree.root.children][-1].endswith("from the break and finally ends here.")


def test_scanned_pdf_without_text_layer_fails_clearly(tmp_path: Path, capsys) -> None:
    scan = build_pdf(tmp_path / "scan.pdf", [[], []])
    with pytest.raises(AlignbenchError, match=r"scan\.pdf: the PDF has no text layer .*no OCR"):
        read(scan)
    assert main(["blocks", str(scan)]) == 2
    err = capsys.readouterr().err.strip()
    assert "scan.pdf" in err and "\n" not in err


def test_not_a_pdf_fails_clearly(tmp_path: Path) -> None:
    fake = tmp_path / "fake.pdf"
    fake.write_bytes(b"PK\x03\x04 not a pdf")
    with pytest.raises(AlignbenchError, match=r"fake\.pdf: not a PDF file"):
        read(fake)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\ngarbage with no objects\n")
    with pytest.raises(AlignbenchError, match=r"broken\.pdf: not a readable PDF"):
        read(broken)


def test_compare_pdf_with_markdown(tmp_path: Path, capsys) -> None:
    pdf = _contract(tmp_path)
    markdown = tmp_path / "new.md"
    markdown.write_text(
        "# 1. Definitions\n\n1.1 Agreement means this master services agreement, together with every order "
        "form signed under it by both parties.\n\n# 2. Fees\n\n2.1 The customer pays the fees.\n",
        encoding="utf-8",
    )
    html = tmp_path / "redline.html"
    assert main(["compare", str(pdf), str(markdown), "--html", str(html)]) == 1
    assert "blocks paired" in capsys.readouterr().out
    assert "Definitions" in html.read_text(encoding="utf-8")


def test_a_label_at_a_wrapped_lines_start_stays_in_its_paragraph_when_paragraphs_are_spaced(
    tmp_path: Path,
) -> None:
    # The first line runs to the column's end; `(b)` starts the next line inside the same paragraph (no
    # gap), in a document whose paragraphs are set apart with space: it is text, not a new clause.
    lines = flowed(
        [
            ("The customer will not (a) copy the software, sell it or lend it to anyone else, or;", BODY),
            ("(b) reverse engineer it.", BODY),
            ("A second paragraph after a gap.", PARA),
            ("A third paragraph after another gap.", PARA),
        ]
    )
    tree = read(build_pdf(tmp_path / "w.pdf", [lines]))
    assert [b.text for b in tree.root.children] == [
        "The customer will not (a) copy the software, sell it or lend it to anyone else, or; (b) reverse "
        "engineer it.",
        "A second paragraph after a gap.",
        "A third paragraph after another gap.",
    ]


def test_a_line_that_stops_with_room_for_the_next_word_ends_where_its_author_ended_it(tmp_path: Path) -> None:
    # Paragraphs set apart with space; inside one paragraph a line break (no gap) after `termination:`
    # leaves room for `a.` on that line, so the layout did not wrap there: `a.` and `b.` open clauses.
    # Where the first word would not have fitted (`(b)` after a line run to the column's end), the
    # line is wrapped text (the test above).
    lines = flowed(
        [
            ("Effect of termination. Termination of the agreement ends every order form that was", BODY),
            ("signed under it by both of the parties. Upon any expiration or termination:", BODY),
            ("a. Customer will no longer have any right to use the product.", BODY),
            ("b. Provider will delete customer content within sixty days.", BODY),
            ("A last paragraph after a gap.", PARA),
        ]
    )
    tree = read(build_pdf(tmp_path / "hard.pdf", [lines]))
    assert [(b.kind, b.label, b.text) for b in tree.root.children][:3] == [
        (
            "paragraph",
            None,
            "Effect of termination. Termination of the agreement ends every order form that was signed under "
            "it by both of the parties. "
            "Upon any expiration or termination:",
        ),
        ("list_item", "a", "Customer will no longer have any right to use the product."),
        ("list_item", "b", "Provider will delete customer content within sixty days."),
    ]


def test_a_clause_that_ends_at_a_page_foot_with_room_to_spare_ends_its_paragraph(tmp_path: Path) -> None:
    # The space after a paragraph is lost at the page foot; the last line stops with room for the next
    # page's first word, after a full stop, so the next page starts a new paragraph (`5.3`), not a wrap.
    first = flowed(
        [
            ("5.1 Fees. Customer pays the fees in each order form.", BODY),
            ("5.2 Payment. Customer will pay the fees and taxes in each invoice within the", PARA),
            ("payment period after it receives each invoice, by bank transfer or card.", BODY),
        ],
        top=136,
    )
    second = flowed([("5.3 Taxes. Customer pays every tax that applies to the fees.", BODY)])
    tree = read(build_pdf(tmp_path / "foot.pdf", [first, second]))
    clauses = [(b.label, b.text) for b in tree.blocks() if b.kind == "list_item"]
    assert clauses == [
        ("5.1", "Fees. Customer pays the fees in each order form."),
        (
            "5.2",
            "Payment. Customer will pay the fees and taxes in each invoice within the payment period after "
            "it receives each invoice, by bank transfer or card.",
        ),
        ("5.3", "Taxes. Customer pays every tax that applies to the fees."),
    ]


def test_a_heading_the_font_marks_keeps_its_letter(tmp_path: Path) -> None:
    lines = flowed(
        [
            ("A. Definitions", {"size": 14, "bold": True}),
            ("The terms below have these meanings throughout.", PARA),
            ("B. Account Terms", {"size": 14, "bold": True, "gap": 8}),
            ("You are responsible for your account.", PARA),
        ]
    )
    tree = read(build_pdf(tmp_path / "letters.pdf", [lines]))
    assert [(b.label, b.text) for b in tree.blocks() if b.kind == "heading"] == [
        ("A", "Definitions"),
        ("B", "Account Terms"),
    ]


def test_a_bold_line_of_its_own_heads_the_text_after_it(tmp_path: Path) -> None:
    # The Markdown reader's rule for `**Change log:**`: a short bold paragraph followed by body text is a
    # heading (ranked below the font-size headings); a bold sentence and a bold italic line stay text.
    lines = flowed(
        [
            ("Privacy Policy", {"size": 16, "bold": True}),
            ("We collect what we need to run the service.", PARA),
            ("Change log:", {"bold": True, "gap": 8}),
            ("We revised the policy in January.", PARA),
            ("You must be 18 or older.", {"bold": True, "gap": 8}),
            ("Younger people may not sign up.", PARA),
            ("Right to Opt Out", {"bold": True, "italic": True, "gap": 8}),
            ("We never sell your data.", PARA),
        ]
    )
    tree = read(build_pdf(tmp_path / "bold.pdf", [lines]))
    headings = [(b.address, b.text) for b in tree.blocks() if b.kind == "heading"]
    # Ranked below the font-size heading: its section nests in that heading's section.
    assert headings == [
        ("/section[1]/heading[1]", "Privacy Policy"),
        ("/section[1]/section[1]/heading[1]", "Change log:"),
    ]
    texts = [b.text for b in tree.blocks() if b.kind == "paragraph"]
    assert "You must be 18 or older." in texts and "Right to Opt Out" in texts


def test_a_list_laid_out_one_item_a_line_goes_on_so_after_a_full_line(tmp_path: Path) -> None:
    # `a.` starts a line; `b.` follows a line that ran to the column's end: the list is laid out one item
    # a line, so `b.` opens the next item. (In the test above, `(a)` stands inside the text, so the
    # `(b)` that wraps to a line's start stays in its paragraph.)
    lines = flowed(
        [
            ("Either party may terminate the agreement immediately:", BODY),
            ("a. if the other party fails to cure a material breach within thirty days of", BODY),
            ("notice of it, or of any other breach of the terms of this agreement we set;", BODY),
            ("b. upon notice if the other party materially breaches the agreement.", BODY),
            ("A last paragraph after a gap.", PARA),
        ]
    )
    tree = read(build_pdf(tmp_path / "list.pdf", [lines]))
    clauses = [(b.label, b.text) for b in tree.blocks() if b.kind == "list_item"]
    assert clauses == [
        (
            "a",
            "if the other party fails to cure a material breach within thirty days of notice of it, or of "
            "any other breach of the terms of this agreement we set;",
        ),
        ("b", "upon notice if the other party materially breaches the agreement."),
    ]


def test_list_items_set_apart_by_a_little_space_are_paragraphs_of_their_own(tmp_path: Path) -> None:
    # A word processor sets list items 2 points apart, paragraphs 9: both gaps end a paragraph, so
    # `2.` after the bullet `Phone number` (no full stop) still opens an item.
    item = {"gap": 2}
    lines = flowed(
        [
            ("We collect the following information from our users when they sign up for an", BODY),
            ("account, when they buy an upgrade, and when they write to us for help with", BODY),
            ("the service; we keep only what we need to run the service and to bill for it,", BODY),
            ("and nothing else:", BODY),
            ("1. Basic account information, such as:", PARA),
            ("• Username", item),
            ("• Phone number", item),
            ("2. Transaction and billing information.", item),
            ("We keep it as long as the account is open.", PARA),
        ]
    )
    tree = read(build_pdf(tmp_path / "items.pdf", [lines]))
    items = [(b.label, b.text) for b in tree.blocks() if b.kind == "list_item"]
    assert items == [
        ("1", "Basic account information, such as:"),
        (None, "Username"),
        (None, "Phone number"),
        ("2", "Transaction and billing information."),
    ]


def test_a_compound_or_an_address_broken_at_a_line_end_is_rejoined_without_a_space(tmp_path: Path) -> None:
    lines = flowed(
        [
            ("You must limit your use of the personal information or the User-", BODY),
            ("Generated Content you collect to the purpose the user agreed to. The terms", BODY),
            ("are posted at https://example.com/standards/partnership-agreement/1.", BODY),
            ("0 and apply to every order form.", BODY),
        ]
    )
    tree = read(build_pdf(tmp_path / "joins.pdf", [lines]))
    assert [b.text for b in tree.root.children] == [
        "You must limit your use of the personal information or the User-Generated Content you collect to "
        "the purpose the user agreed to. The terms are posted at "
        "https://example.com/standards/partnership-agreement/1.0 and apply to every order form."
    ]


def test_a_link_written_out_and_broken_between_its_brackets_is_rejoined_without_a_space(
    tmp_path: Path,
) -> None:
    # A layout may break `[text](address)` between `]` and `(`, where no space stands: rejoined as one.
    # A label after a bracketed line (`[Reserved]` / `(a) The`) opens a clause and keeps its space.
    lines = flowed(
        [
            ("We keep an open door to [your feedback]", BODY),
            ("({{ site.email_support }}) at all times.", BODY),
            ("1. Fees [Reserved]", PARA),
            ("(a) The customer pays the fees.", BODY),
        ]
    )
    tree = read(build_pdf(tmp_path / "link.pdf", [lines]))
    link = "[your feedback]({{ site.email_support }})"
    assert [(b.kind, b.label, b.text) for b in tree.blocks() if b.text] == [
        ("paragraph", None, f"We keep an open door to {link} at all times."),
        ("heading", "1", "Fees [Reserved]"),
        ("list_item", "(a)", "The customer pays the fees."),
    ]


def test_a_label_typed_after_a_bullet_names_the_item(tmp_path: Path) -> None:
    # Markdown `- 1\. Violates ...` prints as `• 1. Violates ...`: the typed `1.` names the item and the
    # bullet is counted, as the Markdown reader does.
    item = {"gap": 2}
    lines = flowed(
        [
            ("Developer will not distribute a product that:", BODY),
            ("• 1. Violates any applicable laws;", PARA),
            ("• 2. Includes false or misleading content.", item),
        ]
    )
    tree = read(build_pdf(tmp_path / "typed.pdf", [lines]))
    assert [(b.label, b.text) for b in tree.blocks() if b.kind == "list_item"] == [
        ("1", "Violates any applicable laws;"),
        ("2", "Includes false or misleading content."),
    ]
    assert tree.dropped["list_marker"] == 2


def test_a_heading_over_two_lines_is_one_heading(tmp_path: Path) -> None:
    # A 14 pt heading's lines are set 16.5 points apart, wider than the 11 pt body's 14: that is still
    # one heading, not two.
    body = flowed(
        [
            ("We keep your data safe and encrypt it when it travels from our servers to", BODY),
            ("your browser and when it rests in our databases and in our backups, which", BODY),
            ("are encrypted as well.", BODY),
        ]
    )
    heading = [
        TextLine(72, 640, "What happens when you delete content in your product", size=14, bold=True),
        TextLine(72, 623.5, "accounts", size=14, bold=True),
    ]
    after = flowed([("In many of our products you can move content to the trash.", BODY)], top=600)
    tree = read(build_pdf(tmp_path / "wrapped-heading.pdf", [[*body, *heading, *after]]))
    assert [b.text for b in tree.blocks() if b.kind == "heading"] == [
        "What happens when you delete content in your product accounts"
    ]


def test_a_title_line_in_another_font_at_a_page_foot_ends_there(tmp_path: Path) -> None:
    # A bold italic run-in title (`***Requests from Government Agencies***`) is the last line of a page;
    # the next page's text is in the body font: the title is a paragraph of its own.
    first = flowed(
        [
            ("Legal Process Guidelines", {"size": 16, "bold": True}),
            ("We may report the matter to law enforcement when we find content that puts", PARA),
            ("a person at risk of harm.", BODY),
            ("Requests from Government Agencies", {"bold": True, "italic": True, "gap": 8}),
        ],
        top=130,
    )
    second = flowed(
        [("Except in emergencies, we turn over private information only on a valid order.", BODY)]
    )
    tree = read(build_pdf(tmp_path / "foot-title.pdf", [first, second]))
    assert [b.text for b in tree.blocks() if b.kind == "paragraph"] == [
        "We may report the matter to law enforcement when we find content that puts a person at risk of "
        "harm.",
        "Requests from Government Agencies",
        "Except in emergencies, we turn over private information only on a valid order.",
    ]


def test_a_dash_or_a_plain_word_at_a_lines_start_continues_a_spaced_paragraph(tmp_path: Path) -> None:
    # `— why` starts a wrapped line (the line before ran to the column's end), not a dash item; `When`
    # starts a line the author broke after a full stop (no gap): both stay in their paragraph, which
    # the text rule, reading long lines as paragraphs of their own, would otherwise split.
    lines = flowed(
        [
            ("You can dispute a removal by replying to our email and letting us know in great detail", BODY),
            ("— why you think the content is not sensitive data under this policy.", BODY),
            ("We may limit your access until we can verify your account information.", PARA),
            ("When you create an account, we consider it an inquiry about our products.", BODY),
        ]
    )
    tree = read(build_pdf(tmp_path / "dash.pdf", [lines]))
    assert [b.text for b in tree.root.children] == [
        "You can dispute a removal by replying to our email and letting us know in great detail — why you "
        "think the content is not sensitive data under this policy.",
        "We may limit your access until we can verify your account information. When you create an account, "
        "we consider it an inquiry about our products.",
    ]


def _full_page(words: str) -> list[TextLine]:
    """A page of one paragraph, down to the text area's foot (y=76), that ends the paragraph."""
    text = f"{words} and it runs on to the end of the column on this line as well"
    return flowed([(text, BODY)] * 45 + [("and it ends here.", BODY)], top=706)


def test_a_page_that_stops_with_room_to_spare_ended_a_paragraph(tmp_path: Path) -> None:
    # Page 2 stops with room for three more lines after a line that runs to the column's end: a word
    # processor stops early only before a new paragraph (or to carry a paragraph's last two lines
    # over), and the next page runs on for four lines, so the paragraph ended at the page foot.
    edge = "The affiliate that signs a separate order form with the provider makes a separate"
    second = flowed(
        [
            (edge, BODY),
            ("agreement with the provider, which the customer is not responsible for at all.", BODY),
        ],
        top=130,
    )
    third = flowed([(edge, BODY)] * 3 + [("contract.", BODY)])
    tree = read(build_pdf(tmp_path / "early.pdf", [_full_page("One"), second, third]))
    texts = [b.text for b in tree.root.children]
    assert len(texts) == 3
    assert texts[1].endswith("which the customer is not responsible for at all.")
    assert texts[2].startswith(edge) and texts[2].endswith("contract.")


def test_a_page_that_stops_early_to_carry_two_lines_over_continues_its_paragraph(tmp_path: Path) -> None:
    # Widow control: the page stops early and exactly two lines of the paragraph follow on the next
    # page before a paragraph gap: one paragraph.
    edge = "The affiliate that signs a separate order form with the provider makes a separate"
    second = flowed([(edge, BODY), (edge, BODY)], top=130)
    third = flowed([(edge, BODY), ("agreement.", BODY), ("A new paragraph after a gap.", PARA)])
    tree = read(build_pdf(tmp_path / "widow.pdf", [_full_page("One"), second, third]))
    texts = [b.text for b in tree.root.children]
    assert len(texts) == 3
    assert texts[1] == " ".join([edge] * 3 + ["agreement."])


def test_a_title_line_set_in_the_body_font_still_heads_its_paragraph(tmp_path: Path) -> None:
    # One font throughout, paragraphs spaced, a title line with no gap after it: the line joins no
    # paragraph (it ends no sentence), so the text rule still reads it as a heading.
    lines = flowed(
        [
            ("Payment Terms", BODY),
            ("The customer pays the fees in each order form within thirty days of the invoice.", BODY),
            ("Late payments bear interest at the statutory rate from the day they fall due.", PARA),
        ]
    )
    tree = read(build_pdf(tmp_path / "title.pdf", [lines]))
    assert [b.text for b in tree.blocks() if b.kind == "heading"] == ["Payment Terms"]


def _justified(tmp_path: Path, lines: list[TextLine], edge: float) -> list[TextLine]:
    """The lines stretched to end at ``edge`` (character spacing), as justified text is, except each
    paragraph's last line (named by a trailing ``¶``, removed)."""
    from dataclasses import replace

    from alignbench.readers.pdf.textlayer import read_lines

    plain = [replace(line, text=line.text.rstrip("¶")) for line in lines]
    measured = read_lines(build_pdf(tmp_path / "measure.pdf", [plain]).read_bytes(), "measure.pdf")
    out = []
    for line, original, seen in zip(plain, lines, measured, strict=True):
        last = original.text.endswith("¶")
        out.append(line if last else replace(line, char_spacing=(edge - seen.x1) / (len(line.text) - 1)))
    return out


def test_a_justified_line_ended_by_its_author_is_not_a_wrapped_line(tmp_path: Path) -> None:
    # Justified text stretches a line that ends in a line break to the column's edge too: where its
    # characters would end unstretched, `a.` would have fitted, so `a.` and `b.` open clauses.
    lines = flowed(
        [
            ("Effect of termination. Termination of the agreement ends every order", BODY),
            ("form signed under it. Upon its end:", BODY),
            ("a. Customer will no longer have any right to use the product at all.", BODY),
            ("b. Provider will delete customer content within sixty days.¶", BODY),
            ("The parties may agree otherwise in writing, signed by both of them and", PARA),
            ("dated, and only for the order form that names the change itself.¶", BODY),
        ]
    )
    tree = read(build_pdf(tmp_path / "justified.pdf", [_justified(tmp_path, lines, edge=500)]))
    assert [(b.label, b.text) for b in tree.blocks() if b.kind == "list_item"] == [
        ("a", "Customer will no longer have any right to use the product at all."),
        ("b", "Provider will delete customer content within sixty days."),
    ]


def test_a_first_line_indent_opens_a_paragraph_where_no_space_does(tmp_path: Path) -> None:
    lines = flowed(
        [
            ("Privacy Policy", {"size": 16, "bold": True}),
            (
                "The privacy of your data is a big deal to us, and in this policy we lay out",
                {"indent": 18, "gap": 8},
            ),
            ("what data we collect and why, and how your data is handled by us and others", BODY),
            ("who work for us", BODY),
            ("This policy applies to every product we build and maintain, whatever its", {"indent": 18}),
            ("name and whatever its age, and to this website", BODY),
            ("What we collect", {"size": 14, "bold": True, "gap": 8}),
            ("We collect only what we need to run the service.", {"indent": 18, "gap": 8}),
        ]
    )
    tree = read(build_pdf(tmp_path / "indent.pdf", [lines]))
    assert [b.text for b in tree.blocks() if b.kind == "paragraph"] == [
        "The privacy of your data is a big deal to us, and in this policy we lay out what data we collect "
        "and why, and how your data is handled by us and others who work for us",
        "This policy applies to every product we build and maintain, whatever its name and whatever its "
        "age, and to this website",
        "We collect only what we need to run the service.",
    ]


# A line that runs to the column's edge (11 pt Helvetica): the longest line, so it sets the edge.
_EDGE_LINE = "The customer agrees to these terms on behalf of itself and of every one of its users"


def _full_first_page(opening: list[tuple[str, dict]], last: tuple[str, dict]) -> list[TextLine]:
    """A page of ragged paragraphs set apart by gaps, ``opening`` first, that fills the text area to
    its foot (y=76), where ``last`` ends a paragraph of two lines. The fillers end without a full stop,
    so they show no habit of their own."""
    filler = [
        (_EDGE_LINE, PARA),
        ("with a second line of middling length for the layout", BODY),
        ("as the order form says", BODY),
    ] * 10
    entries = [*opening, *filler, (_EDGE_LINE, PARA), last]
    gaps = sum(options.get("gap", 0) for _, options in entries[1:])
    return flowed(entries, top=76 + 14 * (len(entries) - 1) + gaps)


@pytest.mark.parametrize("author_breaks", [True, False])
def test_a_full_page_ends_a_paragraph_after_a_sentence_as_the_document_does_on_its_pages(
    tmp_path: Path, author_breaks: bool
) -> None:
    # Page 1 is full, and its last line stops short after a sentence; page 2 opens with a plain word.
    # The page hides whether a gap stood there. Where the document breaks its lines after a sentence
    # inside a paragraph (three lines with no gap), the break is a line break too; where it sets every
    # such sentence apart with a gap, it is a paragraph's end.
    spacing = BODY if author_breaks else PARA
    opening = [
        ("We may send you emails about our terms.", BODY),
        ("We may limit your access to our services.", spacing),
        ("When you create an account, we may write.", spacing),
        ("You are responsible for your account.", spacing),
    ]
    first = _full_first_page(opening, ("informed choices in response.", BODY))
    second = flowed([("We may verify your account information first.", BODY), ("A closing paragraph.", PARA)])
    tree = read(build_pdf(tmp_path / "habit.pdf", [first, second]))
    texts = [b.text for b in tree.root.children]
    assert texts[-1] == "A closing paragraph."
    if author_breaks:
        assert (
            texts[-2]
            == f"{_EDGE_LINE} informed choices in response. We may verify your account information first."
        )
    else:
        assert texts[-3:-1] == [
            f"{_EDGE_LINE} informed choices in response.",
            "We may verify your account information first.",
        ]


@pytest.mark.parametrize("gaps_before_titles", [True, False])
def test_a_bold_run_in_title_at_a_pages_top_opens_a_paragraph_as_the_document_does_on_its_pages(
    tmp_path: Path, gaps_before_titles: bool
) -> None:
    # Page 2 opens with a run-in bold title after a sentence's end at page 1's full foot. In a list of
    # definitions each set apart with a gap, it opens a paragraph, though the line before ran to the
    # column's end as a wrapped line does; where the document breaks a line before each run-in title
    # inside one paragraph (no gap), it continues that paragraph, though the line before stops short
    # and the font changes there.
    spacing = PARA if gaps_before_titles else BODY
    opening = [
        ("means the agreement.", {"lead_bold": '"Agreement" '}),
        ("means an entity that controls a party.", {**spacing, "lead_bold": '"Affiliate" '}),
        ("means the party that buys the services.", {**spacing, "lead_bold": '"Customer" '}),
    ]
    foot = f"{_EDGE_LINE}." if gaps_before_titles else "and every one of its users."
    first = _full_first_page(opening, (foot, BODY))
    second = flowed([("means anything the provider creates.", {"lead_bold": '"Provider Content" '})])
    tree = read(build_pdf(tmp_path / "run-in.pdf", [first, second]))
    texts = [b.text for b in tree.root.children]
    title = '"Provider Content" means anything the provider creates.'
    if gaps_before_titles:
        assert texts[-2:] == [f"{_EDGE_LINE} {foot}", title]
    else:
        assert texts[-1] == f"{_EDGE_LINE} {foot} {title}"


def test_a_bold_title_line_at_a_pages_top_heads_what_follows_whatever_the_run_ins_do(tmp_path: Path) -> None:
    # The document breaks a line before each run-in bold title inside a paragraph (no gap), but page 2
    # opens with a line wholly in bold: a title of its own, not a run-in, so the habit does not join it.
    opening = [
        ("means the agreement.", {"lead_bold": '"Agreement" '}),
        ("means an entity that controls a party.", {"lead_bold": '"Affiliate" '}),
        ("means the party that buys the services.", {"lead_bold": '"Customer" '}),
    ]
    first = _full_first_page(opening, ("and every one of its users.", BODY))
    second = flowed(
        [("Payment Terms", {"bold": True}), ("The customer pays the fees within thirty days.", BODY)]
    )
    tree = read(build_pdf(tmp_path / "title.pdf", [first, second]))
    assert [b.text for b in tree.blocks() if b.kind == "heading"] == ["Payment Terms"]
    assert [b.text for b in tree.blocks() if b.kind == "paragraph"][
        -1
    ] == "The customer pays the fees within thirty days."
