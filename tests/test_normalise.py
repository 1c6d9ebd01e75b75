"""Each named normalisation on a small literal snippet."""

from __future__ import annotations

import pytest

from alignbench.corpus.bill_xml import bill_xml_to_text
from alignbench.corpus.normalise import (
    MARKDOWN_PIPELINE,
    front_matter_title_to_heading,
    normalise_line_endings,
    promote_span_ids_to_labels,
    run_pipeline,
    strip_inline_html,
)
from alignbench.errors import AlignbenchError


def test_normalise_line_endings() -> None:
    assert normalise_line_endings("a\r\nb\rc\n") == "a\nb\nc\n"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # GitHub site-policy: the title becomes the page heading, site metadata goes.
        (
            "---\ntitle: GitHub Logo Policy\nredirect_from:\n  - /articles/logo\nversions:\n  fpt: '*'\n"
            "---\n\nYou can use the logo.\n",
            "# GitHub Logo Policy\n\nYou can use the logo.\n",
        ),
        # 37signals: the body already opens with its own heading, so the title is not repeated.
        (
            "---\ntitle: Terms of Service\ndescription: All.\n---\n\n# Terms of Service\n\nHello.\n",
            "# Terms of Service\n\nHello.\n",
        ),
        ("---\nlayout: page\n---\nBody.\n", "Body.\n"),  # no title: metadata only
        ('---\ntitle: "Quoted:  title"\n...\nBody.\n', "# Quoted: title\n\nBody.\n"),
        ("No front matter.\n\n---\n\ntitle: x\n---\n", "No front matter.\n\n---\n\ntitle: x\n---\n"),
        ("----\ntitle: x\n----\n", "----\ntitle: x\n----\n"),  # not a front matter fence
    ],
)
def test_front_matter_title_to_heading(raw: str, expected: str) -> None:
    assert front_matter_title_to_heading(raw) == expected


@pytest.mark.parametrize("raw", ["---\ntitle: [unclosed\n---\nBody.\n", "---\n- a list\n---\nBody.\n"])
def test_front_matter_that_is_not_a_yaml_mapping_is_refused(raw: str) -> None:
    with pytest.raises(AlignbenchError, match="front matter"):
        front_matter_title_to_heading(raw)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('<span class="keyterms_link">Customer</span> may use it.', "Customer may use it."),
        ("line one<br>line two<br/>three<BR />", "line one line two three "),
        ('see <a href="https://x.test/">the terms</a> and <b>bold</b>', "see the terms and bold"),
        (
            "keep <https://commonpaper.com/standards/> autolinks",
            "keep <https://commonpaper.com/standards/> autolinks",
        ),
        ("a < b and c > d", "a < b and c > d"),
        ("x <!-- hidden\ncomment --> y", "x  y"),
        ("broken </spam> close", "broken  close"),
    ],
)
def test_strip_inline_html(raw: str, expected: str) -> None:
    assert strip_inline_html(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # section heading: the whole item is the span, the id becomes the number
        ('1. <span class="header_2" id="7">Service</span>', "7. ## Service"),
        # no id: the marker is the number
        ('3. <span class="header_2">Fees and Costs</span>', "3. ## Fees and Costs"),
        # clause: marker kept, dotted id promoted in front of the span
        (
            '    2. <span class="header_3" id="1.2">Support.</span>  During the term',
            '    2. 1.2 <span class="header_3">Support.</span>  During the term',
        ),
        # empty span on a definition
        (
            '    1. <span id="4.1"></span>**"AI Services"** means',
            '    1. 4.1 <span></span>**"AI Services"** means',
        ),
        # other classes carry ids too
        (
            '    7. <span class="coverpage_link" id="13.7">Customer</span> means',
            '    7. 13.7 <span class="coverpage_link">Customer</span> means',
        ),
        # letter ids only restate the marker: the id is dropped, the marker stays the label
        (
            '        a. <span id="5.3.a">if</span> the other party',
            "        a. <span>if</span> the other party",
        ),
        # spans without id and lines that are not list items are untouched
        (
            '    1. <span class="header_3">Access.</span> text',
            '    1. <span class="header_3">Access.</span> text',
        ),
        ('Text <span id="9.9">here</span>', 'Text <span id="9.9">here</span>'),
    ],
)
def test_promote_span_ids_to_labels(raw: str, expected: str) -> None:
    assert promote_span_ids_to_labels(raw) == expected


def test_markdown_pipeline_gives_the_agreed_shapes() -> None:
    raw = (
        '1. <span class="header_2" id="1">Service</span>\r\n'
        '    1. <span class="header_3" id="1.1">Access and Use.</span> Customer may use it.\r\n'
    )
    text, applied = run_pipeline(raw, MARKDOWN_PIPELINE)
    assert text == "1. ## Service\n    1. 1.1 Access and Use. Customer may use it.\n"
    assert applied == ["normalise_line_endings", "promote_span_ids_to_labels", "strip_inline_html"]
    assert run_pipeline("plain\n", MARKDOWN_PIPELINE) == ("plain\n", [])


USLM = b"""<?xml version="1.0" encoding="UTF-8"?>
<bill xmlns="http://schemas.gpo.gov/xml/uslm" xmlns:dc="http://purl.org/dc/elements/1.1/">
<meta><dc:title>116 HR 1 IH: metadata title</dc:title></meta>
<preface><action><date date="2019-01-01">January 1, 2019</date></action></preface>
<main><longTitle><docTitle>A BILL</docTitle><officialTitle>To do things.</officialTitle></longTitle>
<title><num value="I">TITLE I</num><heading>DEPARTMENT OF THINGS</heading>
<section><num value="2">SEC. 2.</num><heading>SHORT TITLE.</heading>
<subsection><num value="a">(a)</num><heading>In General</heading><content>The
  text <i>of</i> it.</content></subsection>
<subsection><num value="b">(b)</num><chapeau>Requirements:</chapeau>
<paragraph><num value="1">(1)</num><content>first;</content></paragraph>
<paragraph><num value="2">(2)</num><content>second.</content></paragraph></subsection>
</section></title></main><endorsement>endorsed</endorsement></bill>
"""

DTD = b"""<?xml version="1.0"?>
<bill bill-stage="Reported-in-House"><metadata><dublinCore>meta</dublinCore></metadata>
<form><legis-num>H. R. 8</legis-num><action><action-date>June 14, 2024</action-date></action></form>
<legis-body><title><enum>II</enum><header>SECURITY</header>
<appropriations-small><header>OPERATIONS</header>
<text>For expenses, $1: <proviso><italic>Provided,</italic></proviso>
 That <quote>X</quote> applies.</text></appropriations-small>
<section><enum>201.</enum><header>Limits</header>
<subsection><enum>(a)</enum><header>In general</header><text>None shall.</text>
<paragraph><enum>(1)</enum><text>one</text>
<subparagraph><enum>(A)</enum><text>sub</text></subparagraph></paragraph></subsection></section>
<section><enum>202.</enum><text>Plain section text.</text></section>
</title></legis-body><endorsement>e</endorsement></bill>
"""


def test_bill_xml_to_text_uslm() -> None:
    text, skipped = bill_xml_to_text(USLM, name="h1.xml")
    assert text == (
        "A BILL\n\nTo do things.\n\nTITLE I--DEPARTMENT OF THINGS\n\nSEC. 2. SHORT TITLE.\n\n"
        "(a) In General.--The text of it.\n\n(b) Requirements:\n\n(1) first;\n\n(2) second.\n"
    )
    assert skipped == {"endorsement": 1, "meta": 1, "preface": 1}


def test_bill_xml_to_text_bill_dtd() -> None:
    text, skipped = bill_xml_to_text(DTD, name="h8.xml")
    assert text == (
        "TITLE II--SECURITY\n\nOPERATIONS\n\nFor expenses, $1: Provided, That ``X'' applies.\n\n"
        "SEC. 201. Limits\n\n(a) In general.--None shall.\n\n(1) one\n\n(A) sub\n\n"
        "SEC. 202. Plain section text.\n"
    )
    assert skipped == {"endorsement": 1, "form": 1, "metadata": 1}


def test_bill_xml_to_text_refuses_garbage() -> None:
    with pytest.raises(AlignbenchError, match=r"bad\.xml: not well-formed XML"):
        bill_xml_to_text(b"<bill><section>", name="bad.xml")
    with pytest.raises(AlignbenchError, match="is not a bill"):
        bill_xml_to_text(b"<html/>", name="page.xml")


REPORTED = b"""<?xml version="1.0"?>
<resolution xmlns="http://schemas.gpo.gov/xml/uslm"><main>
<section><num value="1">SECTION 1.</num><heading>FINDINGS.</heading>
<content>Congress finds the following:
<paragraph><num value="1">(1)</num><content>first finding.</content></paragraph>
<paragraph><num value="2">(2)</num><content>second finding.</content></paragraph>
</content></section>
<preamble><recital changed="deleted">Whereas the old recital;</recital>
<recital changed="added">Whereas the new recital;</recital></preamble>
<section><num value="2">SEC. 2.</num><heading>RULE.</heading>
<content>Keep <inline changed="deleted">struck </inline>this.</content></section>
</main></resolution>
"""


def test_bill_xml_to_text_drops_struck_text_and_keeps_nested_provisions_apart() -> None:
    text, skipped = bill_xml_to_text(REPORTED, name="sc10.xml")
    assert text == (
        "SECTION 1. FINDINGS.\n\nCongress finds the following:\n\n"
        "(1) first finding.\n\n(2) second finding.\n\n"
        "Whereas the new recital;\n\nSEC. 2. RULE.\n\nKeep this.\n"
    )
    assert skipped == {"changed=deleted": 2}
