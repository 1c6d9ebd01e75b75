"""The builder reads a unit by position, so a reader may hand it plain tuples of ``Unit``'s fields (the
Markdown headings-and-paragraphs path does); the shortcuts it takes agree with the rules they skip."""

from __future__ import annotations

from itertools import product

import pytest
from markdown_it.common.utils import MD_TRIM_CHARS

from alignbench import bench
from alignbench.errors import AlignbenchError
from alignbench.readers import markdown, read
from alignbench.readers.drops import DropLog
from alignbench.readers.label_grammar import LabelMatch, Style, clear_label_caches, continues_a_sequence
from alignbench.readers.nesting import build_tree
from alignbench.readers.profiles import get_profile
from alignbench.readers.units import MAX_DEPTH, Unit

STREAM_TEXT = (
    "# Terms\n\nIntro words.\n\n1. First\n\n1.1 One.\n\n1.3 Three.\n\n7.4 Stray.\n\n(a) Letter.\n\n"
    "(c) Gap.\n\n88 Colin P. Kelly Jr. St.\n\n## 2. Fees\n\n2.1 Pay.\n\n2.1.1 Now.\n\nClosing words.\n"
)


def _named(units: list[Unit]) -> list[Unit]:
    return [Unit._make(unit) for unit in units]


def test_the_fast_path_hands_plain_tuples_that_build_the_tree_named_units_build() -> None:
    profile = get_profile("markdown")
    clear_label_caches()
    units = markdown.read_units(STREAM_TEXT, profile, DropLog())
    assert any(type(unit) is tuple for unit in units)  # the fast path took this text
    named = _named(units)
    assert named == units
    plain_tree = build_tree(list(units), profile).to_dict()
    assert build_tree(named, profile).to_dict() == plain_tree
    assert plain_tree == read(STREAM_TEXT, format="markdown").root.to_dict()


def test_a_plain_tuple_stream_too_deep_names_the_line() -> None:
    profile = get_profile("markdown")
    lines = [f"{'.'.join(['1'] * depth)} Clause at depth {depth}." for depth in range(1, MAX_DEPTH + 3)]
    text = "\n\n".join(lines)  # (no closing newline: every piece is one line)
    units = markdown.read_units(text, profile, DropLog())
    assert all(type(unit) is tuple for unit in units)
    with pytest.raises(AlignbenchError, match=r"^<doc>: line \d+: nesting deeper than"):
        build_tree(units, profile, "<doc>")
    with pytest.raises(AlignbenchError, match=r"line \d+: nesting deeper than"):
        read(text, format="markdown")


def test_markdown_trims_white_space_only() -> None:
    """The fast path strips a one-line piece once, where markdown-it trims it and the reader strips it:
    equal only because every character markdown-it trims is white space to ``str.strip``."""
    assert all(char.isspace() for char in MD_TRIM_CHARS)


def test_the_bench_pair_takes_the_fast_path() -> None:
    old, new = bench.markdown_pair(3)
    profile = get_profile("markdown")
    for text in (old, new):
        assert markdown._simple_units(text, profile, DropLog()) is not None


# Every decimal label of two or three components numbered 1 to 6 (252 labels), the space the shortcut's
# two conditions split: checked exhaustively, which a few hundred random draws of the same space did not.
_SUB_CLAUSES = [".".join(map(str, parts)) for depth in (2, 3) for parts in product(range(1, 7), repeat=depth)]


@pytest.mark.parametrize("parent_in_document", [False, True])
def test_a_decimal_sub_clause_with_its_parent_or_first_continues_a_sequence(parent_in_document: bool) -> None:
    """The builder skips the sequence check for a decimal label of several components that is the first
    of its number or whose parent number is in the document: the check must keep it, as is, whatever
    else the document numbers (here its siblings and children, which the shortcut never looks at)."""
    skipped = 0
    for written in _SUB_CLAUSES:
        parent, _, last = written.rpartition(".")
        depth = written.count(".") + 1
        candidates = (Style(f"decimal:{depth}", int(last)),)
        label = LabelMatch(
            written, "decimal", candidates, "Text.", decimal_depth=depth, text=f"{written} Text."
        )
        unrelated = {f"{written}.1", f"{parent}.9"}  # a child and a far sibling: neither is a neighbour
        numbers = unrelated | {parent} if parent_in_document else unrelated
        if int(last) == 1 or parent in numbers:
            skipped += 1
            assert continues_a_sequence(label, set(), numbers) is candidates, (written, sorted(numbers))
    assert skipped == (len(_SUB_CLAUSES) if parent_in_document else 6 + 36)


def test_a_text_the_fast_path_gives_up_on_late_counts_its_dropped_blocks_once() -> None:
    """The fast path walks pieces and reads them as it goes; a construct it does not take (here a
    quote) sends the whole text to markdown-it, which must be the only one to count what it drops."""
    profile = get_profile("markdown")
    text = "Some <b>bold</b> words and ![a picture](p.png).\n\n> A quote.\n"
    assert markdown._simple_units(text, profile, DropLog()) is None
    dropped = DropLog()
    markdown.read_units(text, profile, dropped)
    assert dropped == {"html_inline": 2, "image": 1}
    assert read(text, format="markdown").dropped == {"html_inline": 2, "image": 1}
