"""Regressions for tree errors seen on the prepared real corpus (US bills, CC BY 3.0), as small snippets."""

from __future__ import annotations

from alignbench import read
from alignbench.blocks import BlockTree


def _outline(tree: BlockTree) -> list[tuple[str, str, str | None]]:
    return [(b.address, b.kind, b.label) for b in tree.blocks() if b.kind not in ("document", "section")]


def _text(*paragraphs: str) -> str:
    return "\n\n".join(paragraphs) + "\n"


def test_long_all_caps_bill_section_header_opens_a_sibling_section() -> None:
    tree = read(
        _text(
            "SECTION 1. FINDINGS.",
            "Congress finds the following:",
            "(9) The conflict has caused a humanitarian crisis.",
            "(10) No specific statutory authorization has been enacted.",
            "SEC. 2. REMOVAL OF UNITED STATES ARMED FORCES FROM HOSTILITIES IN THE REPUBLIC OF YEMEN "
            "THAT HAVE NOT BEEN AUTHORIZED BY CONGRESS.",
            "Pursuant to section 1013, Congress hereby directs the President to remove the forces.",
        )
    )
    assert _outline(tree) == [
        ("/section[1]/heading[1]", "heading", "SECTION 1"),
        ("/section[1]/paragraph[1]", "paragraph", None),
        ("/section[1]/list_item[1]", "list_item", "(9)"),
        ("/section[1]/list_item[2]", "list_item", "(10)"),
        ("/section[2]/heading[1]", "heading", "SEC. 2"),
        ("/section[2]/paragraph[1]", "paragraph", None),
    ]
    assert tree.find("/section[2]/heading[1]").text.endswith("AUTHORIZED BY CONGRESS.")
    assert tree.find("/section[1]").level == tree.find("/section[2]").level == 1


def test_bill_section_header_wrapped_over_lines_is_one_heading() -> None:
    tree = read(
        _text(
            "SEC. 2. INCLUSION OF GUIDANCE ON OMBUDSMAN WEBSITE.",
            "    (a) Website Requirement.--Section 30 of the Small Business Act is amended.",
            "SEC. 3. REPORT ON INCREASED RISK OF TERRORIST ATTACKS TO UNITED STATES ARMED \n"
            "              FORCES ABROAD, ALLIES, AND THE CONTINENTAL UNITED STATES.\n"
            "    Not later than 90 days after the date of enactment, the Director shall report.",
        )
    )
    assert _outline(tree) == [
        ("/section[1]/heading[1]", "heading", "SEC. 2"),
        ("/section[1]/list_item[1]", "list_item", "(a)"),
        ("/section[2]/heading[1]", "heading", "SEC. 3"),
        ("/section[2]/paragraph[1]", "paragraph", None),
    ]
    assert tree.find("/section[2]/heading[1]").text == (
        "REPORT ON INCREASED RISK OF TERRORIST ATTACKS TO UNITED STATES ARMED "
        "FORCES ABROAD, ALLIES, AND THE CONTINENTAL UNITED STATES."
    )


def test_untitled_bill_sections_are_sibling_sections_with_their_body() -> None:
    tree = read(
        _text(
            "SEC. 101.",
            "(a) The Secretary shall submit a report.",
            "(b) The Inspector General shall review the report.",
            "SEC. 102. Not later than 30 days after each month, the Officer shall submit a report.",
            "SEC. 103. (a) The Secretary shall notify the Committees.",
            "SEC. 552. $0.",
        )
    )
    assert _outline(tree) == [
        ("/section[1]/heading[1]", "heading", "SEC. 101"),
        ("/section[1]/list_item[1]", "list_item", "(a)"),
        ("/section[1]/list_item[2]", "list_item", "(b)"),
        ("/section[2]/heading[1]", "heading", "SEC. 102"),
        ("/section[2]/paragraph[1]", "paragraph", None),
        ("/section[3]/heading[1]", "heading", "SEC. 103"),
        ("/section[3]/list_item[1]", "list_item", "(a)"),
        ("/section[4]/heading[1]", "heading", "SEC. 552"),
        ("/section[4]/paragraph[1]", "paragraph", None),
    ]
    assert tree.find("/section[2]/heading[1]").text == ""
    assert tree.find("/section[2]/paragraph[1]").text.startswith("Not later than 30 days")
    assert tree.find("/section[4]/paragraph[1]").text == "$0."


def test_titles_hold_their_headings_and_four_digit_sections() -> None:
    tree = read(
        _text(
            "A BILL",
            "Making supplemental appropriations.",
            "TITLE I--DEPARTMENT OF AGRICULTURE",
            "AGRICULTURAL PROGRAMS",
            "Office of the Secretary",
            "For an additional amount, $3,005,442,000.",
            "GENERAL PROVISIONS—THIS TITLE",
            "Sec. 101. In addition to other amounts, $1,000 is appropriated.",
            "Sec. 1001. Notwithstanding any other provision of law, funds are available.",
            "TITLE II",
            "DEPARTMENT OF COMMERCE",
        )
    )
    assert _outline(tree) == [
        ("/section[1]/heading[1]", "heading", None),
        ("/section[1]/paragraph[1]", "paragraph", None),
        ("/section[2]/heading[1]", "heading", "TITLE I"),
        ("/section[2]/section[1]/heading[1]", "heading", None),
        ("/section[2]/section[1]/section[1]/heading[1]", "heading", None),
        ("/section[2]/section[1]/section[1]/paragraph[1]", "paragraph", None),
        ("/section[2]/section[2]/heading[1]", "heading", None),
        ("/section[2]/section[2]/section[1]/heading[1]", "heading", "Sec. 101"),
        ("/section[2]/section[2]/section[1]/paragraph[1]", "paragraph", None),
        ("/section[2]/section[2]/section[2]/heading[1]", "heading", "Sec. 1001"),
        ("/section[2]/section[2]/section[2]/paragraph[1]", "paragraph", None),
        ("/section[3]/heading[1]", "heading", "TITLE II"),
        ("/section[3]/section[1]/heading[1]", "heading", None),
    ]
    assert tree.find("/section[2]/heading[1]").text == "DEPARTMENT OF AGRICULTURE"
    # A heading's level is its depth in the outline.
    assert [tree.find(a).level for a in ("/section[2]", "/section[2]/section[2]/section[2]")] == [1, 3]


def test_bill_subdivisions_nest_a_1_capital_a_roman_i_capital_i() -> None:
    tree = read(
        _text(
            "SEC. 5. DEFINITIONS.",
            "(a) In General.--In this section:",
            "(1) Covered entity.--The term means--",
            "(A) a State;",
            "(B) a unit of local government, including--",
            "(i) a county; and",
            "(ii) a city, other than--",
            "(I) a village; or",
            "(II) a town.",
            "(b) Effective Date.--This section takes effect on enactment.",
        )
    )
    labels = [(b.address, b.label) for b in tree.blocks() if b.kind == "list_item"]
    assert labels == [
        ("/section[1]/list_item[1]", "(a)"),
        ("/section[1]/list_item[1]/list_item[1]", "(1)"),
        ("/section[1]/list_item[1]/list_item[1]/list_item[1]", "(A)"),
        ("/section[1]/list_item[1]/list_item[1]/list_item[2]", "(B)"),
        ("/section[1]/list_item[1]/list_item[1]/list_item[2]/list_item[1]", "(i)"),
        ("/section[1]/list_item[1]/list_item[1]/list_item[2]/list_item[2]", "(ii)"),
        ("/section[1]/list_item[1]/list_item[1]/list_item[2]/list_item[2]/list_item[1]", "(I)"),
        ("/section[1]/list_item[1]/list_item[1]/list_item[2]/list_item[2]/list_item[2]", "(II)"),
        ("/section[1]/list_item[2]", "(b)"),
    ]


def test_caps_contract_clause_with_sentences_is_not_a_long_heading() -> None:
    tree = read(
        _text(
            "SECTION 9. LIMITATION OF LIABILITY. IN NO EVENT SHALL EITHER PARTY BE LIABLE FOR ANY "
            "INDIRECT, INCIDENTAL OR CONSEQUENTIAL DAMAGES ARISING OUT OF THIS AGREEMENT.",
        )
    )
    assert _outline(tree) == [("/list_item[1]", "list_item", "SECTION 9")]


def test_cc_by_3_clauses_continue_the_numbering_of_a_numbered_heading() -> None:
    tree = read(
        "1. Definitions\n\n"
        ' a. "Adaptation" means a work based upon the Work.\n'
        ' b. "Reproduce" means to make copies of the Work by any means including\n'
        "    without limitation by sound.\n"
        "2. Fair Dealing Rights. Nothing in this License is intended to reduce\n"
        "limit, or restrict any uses.\n"
        "3. License Grant. Licensor hereby grants You a license to exercise the\n"
        "rights in the Work as stated below:\n"
        " c. to Distribute and Publicly Perform the Work including as incorporated\n"
        "    in Collections; and,\n"
        " d. to Distribute and Publicly Perform Adaptations.\n"
        " e. For the avoidance of doubt:\n"
        "     i. Non-waivable Schemes. The Licensor reserves the right to collect\n"
        "        royalties;\n"
        "    ii. Waivable Schemes. The Licensor waives the exclusive right to collect\n"
        "        such royalties for any exercise by You of the rights; and,\n"
        "   iii. Voluntary Schemes. The Licensor waives the right to collect royalties.\n"
        "\n"
        "The above rights may be exercised in all media and formats.\n"
        "4. Restrictions. The license is subject to the following restrictions:\n"
    )
    assert _outline(tree) == [
        ("/section[1]/heading[1]", "heading", "1"),
        ("/section[1]/list_item[1]", "list_item", "a"),
        ("/section[1]/list_item[2]", "list_item", "b"),
        ("/list_item[1]", "list_item", "2"),
        ("/list_item[2]", "list_item", "3"),
        ("/list_item[2]/list_item[1]", "list_item", "c"),
        ("/list_item[2]/list_item[2]", "list_item", "d"),
        ("/list_item[2]/list_item[3]", "list_item", "e"),
        ("/list_item[2]/list_item[3]/list_item[1]", "list_item", "i"),
        ("/list_item[2]/list_item[3]/list_item[2]", "list_item", "ii"),
        ("/list_item[2]/list_item[3]/list_item[3]", "list_item", "iii"),
        ("/list_item[2]/paragraph[1]", "paragraph", None),
        ("/list_item[3]", "list_item", "4"),
    ]


def test_restarted_numbering_under_a_numbered_heading_stays_inside_it() -> None:
    tree = read(
        _text("4. Term", "5. Fees", "1. The Customer shall pay the fees.", "2. Fees are due monthly.")
    )
    assert _outline(tree) == [
        ("/section[1]/heading[1]", "heading", "4"),
        ("/section[2]/heading[1]", "heading", "5"),
        ("/section[2]/list_item[1]", "list_item", "1"),
        ("/section[2]/list_item[2]", "list_item", "2"),
    ]


def test_markdown_inline_markup_is_removed_only_where_present() -> None:
    # Plain clauses skip the inline tokeniser; marked-up ones must still lose markup and keep escapes,
    # entities and reference links as text.
    tree = read(
        "## 1. Fees\n\n"
        "1.1 The Customer pays the fees  \nmonthly in arrears.\n\n"
        "1.2 The **Customer** pays &amp; \\*never\\* withholds [the fees][f] <b>now</b>.\n\n"
        "| Item | Price |\n|---|---|\n| *Setup* | [one][f] |\n\n"
        "[f]: https://example.com/fees\n",
        format="markdown",
    )
    assert tree.find("/section[1]/list_item[1]").text == "The Customer pays the fees monthly in arrears."
    assert tree.find("/section[1]/list_item[2]").text == "The Customer pays & *never* withholds the fees now."
    assert [c.text for c in tree.find("/section[1]/list_item[2]/table[1]/row[2]").children] == [
        "Setup",
        "one",
    ]
    # The reference definition renders as nothing, so it is counted as dropped; each use of it is
    # logged apart (its target is the definition's), so re-pointing a use is never "same".
    assert tree.dropped == {"html_inline": 2, "link_reference": 1, "link_reference_use": 2}


def test_over_indented_sub_clauses_in_markdown_stay_separate_clauses() -> None:
    """DPA 1.0 indents i.-vii. twelve spaces under c., which CommonMark reads as one code block."""
    text = (
        "# Terms\n\n"
        "1. Transfers\n"
        "    1. EEA Transfers.\n"
        "        b. Module Three applies.\n"
        "        c. For each module, the following applies:\n\n"
        "            i. The optional docking clause does not apply;\n\n"
        "            ii. In Clause 9, Option 2 applies;\n\n"
        "            iii. In Clause 11, the optional language does not apply.\n"
    )
    tree = read(text, format="markdown")
    items = [b for b in tree.blocks() if b.label in ("i", "ii", "iii")]
    assert [(b.kind, b.label) for b in items] == [
        ("list_item", "i"),
        ("list_item", "ii"),
        ("list_item", "iii"),
    ]
    assert all("\n" not in b.text for b in tree.blocks())
    parent = tree.find(items[0].address.rsplit("/", 1)[0])
    assert parent.label == "c"
