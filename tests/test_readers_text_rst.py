"""Plain text written in reStructuredText style (PEPs): underlined titles and paragraphs after bullets.

The rules are the contract profile's ``headings.underline_chars``/``underline_first_rank`` and
``closed_by_outdented_paragraph``; docs/CONTRACTS.md ("Readers") states them.
"""

from __future__ import annotations

from alignbench import read
from alignbench.blocks import BlockTree


def _find(tree: BlockTree, text: str):  # type: ignore[no-untyped-def]
    found = [b for b in tree.blocks() if b.text.startswith(text)]
    assert len(found) == 1, [b.address for b in found]
    return found[0]


def _parent(tree: BlockTree, address: str):  # type: ignore[no-untyped-def]
    return tree.find(address.rsplit("/", 1)[0] or "/")


PEP_LIKE = """\
Backwards Compatibility Rules
=============================

This policy applies to all public APIs.

Basic policy for backwards compatibility
----------------------------------------

* In general, incompatibilities should have a large benefit.

Making Incompatible Changes
===========================

Making an incompatible change is a gradual process.
"""


def test_a_dash_underlined_title_in_sentence_case_is_a_subsection_heading() -> None:
    tree = read(PEP_LIKE, format="text")
    basic = _find(tree, "Basic policy for backwards compatibility")
    assert (basic.kind, basic.address) == ("heading", "/section[1]/section[1]/heading[1]")
    assert _find(tree, "Making Incompatible Changes").address == "/section[2]/heading[1]"
    assert _find(tree, "In general").address == "/section[1]/section[1]/list_item[1]"
    # The underlines are markup, not thematic breaks: nothing is dropped.
    assert tree.dropped == {}


def test_underline_styles_rank_by_first_appearance() -> None:
    # docutils: the first style met is the outermost title, whatever its character.
    text = "Outer\n-----\n\nText.\n\nInner\n=====\n\nMore text.\n\nNext outer\n----------\n"
    tree = read(text, format="text")
    assert _find(tree, "Inner").address == "/section[1]/section[1]/heading[1]"
    assert _find(tree, "Next outer").address == "/section[2]/heading[1]"


def test_an_overlined_title_is_a_style_of_its_own() -> None:
    tree = read("=====\nTitle\n=====\n\nIntro.\n\nPart one\n========\n\nBody.\n", format="text")
    assert _find(tree, "Title").address == "/section[1]/heading[1]"
    assert _find(tree, "Part one").address == "/section[1]/section[1]/heading[1]"


def test_an_underlined_title_keeps_its_heading_label() -> None:
    tree = read("1. Scope of the rights\n----------------------\n\nThe rights.\n", format="text")
    heading = _find(tree, "Scope of the rights")
    assert (heading.kind, heading.label) == ("heading", "1")


def test_a_short_rule_or_a_signature_blank_is_not_an_underline() -> None:
    # Three dashes under a longer line are too short to underline it (docutils' rule): a dropped rule.
    tree = read("We agree to the terms below\n---\n\nSigned.\n", format="text")
    assert _find(tree, "We agree to the terms below").kind == "paragraph"
    assert tree.dropped == {"hr": 1}
    # Contracts draw signature blanks with underscores; they are never title markup.
    tree = read("the Customer signs here\n_______________________\n\nDate.\n", format="text")
    assert _find(tree, "the Customer signs here").kind == "paragraph"


def test_a_paragraph_after_a_bullet_list_is_not_inside_its_last_item() -> None:
    tree = read("INTRO\n\n- alpha\n- beta\n\nAfter the list.\n", format="text")
    after = _find(tree, "After the list.")
    assert after.address == "/section[1]/paragraph[1]"
    assert [b.text for b in tree.find("/section[1]").children if b.kind == "list_item"] == ["alpha", "beta"]


def test_a_paragraph_indented_past_the_bullet_stays_inside_it() -> None:
    tree = read("INTRO\n\n- alpha\n- beta\n\n  More about beta.\n", format="text")
    more = _find(tree, "More about beta.")
    assert _parent(tree, more.address).text == "beta"


def test_a_paragraph_after_a_numbered_clause_still_continues_it() -> None:
    tree = read("TERMS\n\n1. The Customer pays.\n\nThis clause survives.\n\n2. Next.\n", format="text")
    survives = _find(tree, "This clause survives.")
    assert _parent(tree, survives.address).label == "1"


def test_bullets_under_a_step_close_and_the_step_keeps_the_paragraph() -> None:
    text = (
        "STEPS\n\n1. Wait for the warning.\n\n   - one example\n   - another example\n\n   Then remove it.\n"
    )
    tree = read(text, format="text")
    then = _find(tree, "Then remove it.")
    assert _parent(tree, then.address).label == "1"


def test_a_bullet_list_and_its_markdown_twin_have_the_same_shape() -> None:
    text = "# Rules\n\n- alpha\n- beta\n\nAfter the list.\n"
    markdown = read(text, format="markdown")
    plain = read(text.replace("# Rules", "RULES"), format="text")
    assert [(b.address, b.kind, b.label) for b in plain.blocks()] == [
        (b.address, b.kind, b.label) for b in markdown.blocks()
    ]
