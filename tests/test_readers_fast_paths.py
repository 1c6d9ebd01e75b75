"""The reader's fast paths give exactly what the general ones do: the headings-and-paragraphs scanner
agrees with markdown-it (or declines), the markup and surrogate checks with their regex definitions."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.blocks import Block
from alignbench.readers import markdown, read
from alignbench.readers.drops import DropLog
from alignbench.readers.label_grammar import clear_label_caches
from alignbench.readers.markdown import _parser
from alignbench.readers.profiles import get_profile
from alignbench.readers.simple_blocks import simple_blocks
from alignbench.workloads import revised_pair, to_markdown
from property_budget import examples

# Lines the scanner must take, and lines it must hand to markdown-it (each starts some other block, or
# sits next to one: a setext underline, a table's delimiter row, a list marker, an indented line ...).
SAFE_LINES = (
    "Plain text line",
    "1.1 The supplier shall",
    "12.3.4 Notice *in writing* is [needed](http://x) & <b>kept</b>",
    "2025 was the year",
    "1234567890. ten digits mark no list",
    "Über die Parteien",
    "²x superscript",
    "a | b | c",
    "## 1. Definitions",
    "# Title",
    "###### Six",
    "##",
    "## Heading with trailing spaces   ",
    "#\tTabbed heading",
    "## Title #\u00a0",
    "",
    "   ",
    "\t",
)
OTHER_LINES = (
    "1. ordered item",
    "3) ordered item",
    "123456789. nine digits",
    "- bullet",
    "* bullet",
    "+ bullet",
    "> quote",
    "```",
    "~~~",
    "---",
    "===",
    "***",
    "|---|---|",
    "--|--",
    ":-:|",
    "<div>",
    "[ref]: http://example.com",
    "    indented code",
    "  two-space indent",
    "####### seven",
    "#hashtag",
    "## Closed heading ##",
    "\u00a0nbsp start",
    "\x0cform feed",
)


def _markdown_it_blocks(text: str) -> list[tuple[str, int, str, int]] | None:
    """markdown-it's headings and paragraphs, or None when it found any other block."""
    tokens = _parser().parse(text, {})
    out: list[tuple[str, int, str, int]] = []
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            out.append(("heading", token.map[0], tokens[index + 1].content, int(token.tag[1:])))
        elif token.type == "paragraph_open":
            out.append(("paragraph", token.map[0], tokens[index + 1].content, 0))
        elif token.type not in ("inline", "heading_close", "paragraph_close"):
            return None
    return out


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(st.sampled_from(SAFE_LINES + OTHER_LINES), max_size=14))
def test_the_scanner_agrees_with_markdown_it_or_declines(lines: list[str]) -> None:
    text = "\n".join(lines)
    ours = simple_blocks(text)
    if ours is not None:
        assert ours == _markdown_it_blocks(text)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.sampled_from(SAFE_LINES), min_size=1, max_size=14), st.booleans())
def test_documents_of_safe_lines_take_the_fast_path(lines: list[str], final_newline: bool) -> None:
    text = "\n".join(lines) + ("\n" if final_newline else "")
    ours = simple_blocks(text)
    assert ours is not None
    assert ours == _markdown_it_blocks(text)


@settings(max_examples=examples(400), deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(SAFE_LINES + OTHER_LINES), st.sampled_from(("\n", "\n\n", "\n\n\n"))),
        max_size=14,
    )
)
def test_pieces_between_empty_lines_agree_with_markdown_it(lines: list[tuple[str, str]]) -> None:
    """The scanner classifies a one-line piece between empty lines whole: with lines joined by one, two
    or three newlines (one-line pieces, several-line pieces, runs of empty lines), its blocks and their
    source lines are still markdown-it's."""
    text = "".join(line + end for line, end in lines)
    ours = simple_blocks(text)
    if ours is not None:
        assert ours == _markdown_it_blocks(text)
    elif all(line in SAFE_LINES for line, _ in lines):
        raise AssertionError(f"a document of safe lines was declined: {text!r}")


@pytest.mark.parametrize("line", OTHER_LINES)
def test_any_other_block_sends_the_document_to_markdown_it(line: str) -> None:
    assert simple_blocks(f"# Title\n\nSome text.\n{line}\nMore text.\n") is None


def test_a_fast_path_document_reads_to_the_same_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    _base, revised = revised_pair(6)
    text = to_markdown(revised) + "\nA closing *emphasised* paragraph\nwrapped on two lines [x](http://y).\n"
    assert simple_blocks(text) is not None
    fast = read(text, format="markdown")
    monkeypatch.setattr(markdown, "simple_pieces", lambda _text: None)  # the fast path declines
    slow = read(text, format="markdown")
    assert fast.to_dict() == slow.to_dict()
    assert [(b.address, b.digest) for b in fast.blocks()] == [(b.address, b.digest) for b in slow.blocks()]
    assert fast.dropped == slow.dropped == {"link_target": 1}  # the link's target, kept apart
    assert fast.drops == slow.drops
    assert [(kind, text) for kind, _, text in fast.drops] == [("link_target", "http://y")]
    assert text.split("\n")[fast.drops[0][1] - 1].endswith("[x](http://y).")  # its own source line


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet=st.sampled_from("ab 1.\\`*_[]!<&>#()-\n\u00e9"), max_size=40))
def test_the_inline_markup_check_is_the_commonmark_rule_starters(text: str) -> None:
    assert markdown._has_inline_markup(text) == (re.search(r"[\\`*_\[!<&]", text) is not None)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet=st.sampled_from("a\n\u00e9\u2019\ud800\udc80\udfff\U0001f600"), max_size=30))
def test_the_surrogate_check_finds_the_first_lone_surrogate(text: str) -> None:
    from alignbench.readers import _first_surrogate

    found = re.search("[\ud800-\udfff]", text)
    assert _first_surrogate(text) == (found.start() if found else -1)


@settings(max_examples=examples(400), deadline=None)
@given(st.text(alphabet=st.sampled_from(" \t\n-:\u2013\u2014aZ\u00e9\u00b2.("), max_size=10))
def test_the_text_after_a_label_is_what_the_separator_rule_leaves(text: str) -> None:
    from alignbench.readers.label_grammar import _SEPARATOR, after_label

    for end in range(len(text) + 1):
        assert after_label(text, end) == text[_SEPARATOR.match(text, end).end() :]


CLAUSE_LINES = (
    "1.1 The supplier shall pay.",
    "1.2 Fees are due",
    "2.1 Notices go to the office.",
    "(a) the first case;",
    "(b) the second case",
    "(i) a roman or a letter",
    "Section 5. Termination",
    "88 Colin P. Kelly Jr. St.",
    "30 days after notice",
    "## 1. Definitions",
    "## 2. Fees",
    "# Schedule 1",
    "Plain text line",
    "Notice *in writing* is needed",
    "",
)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from(CLAUSE_LINES), min_size=1, max_size=16), st.booleans())
def test_the_fast_path_gives_markdown_its_units_and_tree(lines: list[str], blank_between: bool) -> None:
    """Units (every field, so a unit built positionally is checked field by field) and trees of the
    headings-and-paragraphs fast path equal markdown-it's, whatever the mix of labels."""
    text = ("\n\n" if blank_between else "\n").join(lines)
    if not text.strip() or simple_blocks(text) is None:
        return
    profile = get_profile("markdown")
    clear_label_caches()
    fast_dropped = DropLog()
    fast = markdown.read_units(text, profile, fast_dropped)
    fast_tree = read(text, format="markdown").to_dict()
    original = markdown.simple_pieces
    markdown.simple_pieces = lambda _text: None  # the fast path declines: markdown-it reads
    try:
        clear_label_caches()
        slow_dropped = DropLog()
        slow = markdown.read_units(text, profile, slow_dropped)
        slow_tree = read(text, format="markdown").to_dict()
    finally:
        markdown.simple_pieces = original
    assert fast == slow and fast_dropped == slow_dropped
    assert fast_tree == slow_tree


def test_a_read_tree_is_made_of_plain_immutable_blocks() -> None:
    """The builder freezes each node into its block in place: what comes out must be ``Block`` itself
    (equal to a block built from its dict, which a subclass would not be), immutable, with tuples."""
    text = (
        "# Title\n\n1. First\n   - a bullet\n   - another\n2. Second\n\n> a quote\n\n"
        "| a | b |\n|---|---|\n| c | d |\n\n## 2. Fees\n\n2.1 Pay.\n\n2.1.1 Now.\n"
    )
    for tree in (read(text, format="markdown"), read(text.replace("#", ""), format="text")):
        for block in tree.blocks():
            assert type(block) is Block
            assert isinstance(block.children, tuple) and block.address
            assert Block.from_dict(block.to_dict()) == block
            with pytest.raises(dataclasses.FrozenInstanceError):
                block.text = "changed"  # type: ignore[misc]
