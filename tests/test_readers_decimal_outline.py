"""The decimal-outline builder (``## N. Title`` over ``N.M`` clauses, built in one pass) gives exactly the
tree the general Markdown path gives, or declines: on generated outlines, on outlines with every kind of
deviation mixed in, and on the benchmark's own documents."""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import alignbench.readers as readers
from alignbench.blocks import BlockTree
from alignbench.readers import read
from alignbench.readers.decimal_outline import applies_to, decimal_outline
from alignbench.readers.label_grammar import clear_label_caches
from alignbench.readers.profiles import get_profile
from alignbench.workloads import revised_pair, to_markdown


def _general(text: str) -> BlockTree:
    """The tree the general path (block scan, label grammar, clause builder) reads from ``text``."""
    clear_label_caches()
    with mock.patch.object(readers, "decimal_outline", lambda _text, _profile: None):
        return read(text, format="markdown")


def _everything(tree: BlockTree) -> list[object]:
    return [
        tree.to_dict(),
        tree.dropped,
        [(b.address, b.digest, b.kind, b.level, b.label) for b in tree.blocks()],
    ]


def _assert_same_as_general(text: str) -> bool:
    """Both paths read ``text`` alike; True when the decimal-outline builder took it."""
    fast_root = decimal_outline(text, get_profile("markdown"))
    general = _general(text)
    clear_label_caches()
    assert _everything(read(text, format="markdown")) == _everything(general)
    if fast_root is not None:
        assert _everything(BlockTree(fast_root, format="markdown", profile="markdown", addressed=True)) == (
            _everything(general)
        )
    return fast_root is not None


NUMBERS = st.one_of(st.integers(0, 12).map(str), st.sampled_from(["01", "007", "1234567890"]))
WORDS = st.sampled_from(
    ["Fees", "Term and Termination", "the supplier shall pay.", "9 lives", "Data  (personal)", "x", "Z-1."]
)
ODD_TEXT = st.text(alphabet=st.sampled_from("aZ9 .#*_&<\t\x0b\x1f\x01\u00a0\u00e9-:(),"), max_size=12)
# Texts a line may carry that either path must keep as written (any character inside a line) or that
# the general path reads otherwise (markup, a closing `#` run, a trailing space of any kind).
TRICKY_TEXTS = (
    "Pay *now* or later",
    "Fees & costs",
    "See <b>x</b> here",
    "snake_case term",
    "Tab\there",
    "Form\x0cfeed and\x1fseparator",
    "Caf\u00e9 terms \u2014 \u00a7 5",
    "Ends in a no-break space\u00a0",
    "Ends in a tab\t",
    "Closed ##",
    "hash#",
    "Z",
)
TRICKY = st.sampled_from(TRICKY_TEXTS)
TEXTS = st.one_of(WORDS, WORDS, ODD_TEXT, TRICKY)
HEADING = st.builds(lambda rank, n, title: f"{'#' * rank} {n}. {title}", st.integers(1, 7), NUMBERS, TEXTS)
CLAUSE = st.builds(lambda a, b, text: f"{a}.{b} {text}", NUMBERS, NUMBERS, TEXTS)
ODD_LINE = st.sampled_from(
    [
        "1. ordered",
        "1.2.3 Deeper clause",
        "1.2. Dotted clause",
        "(a) lettered",
        "Section 5. Words",
        "Plain text",
        "  1.1 Indented",
        "1.1 Trailing space ",
        "## 3. Closed ##",
        "## Unlabelled heading",
        "##3. No space",
        "3.1 *marked* up",
        "   ",
        "---",
    ]
)
SEPARATORS = st.sampled_from(["\n", "\n\n", "\n\n", "\n\n\n"])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.one_of(HEADING, CLAUSE, CLAUSE, ODD_LINE), SEPARATORS), min_size=1, max_size=20),
    st.sampled_from(["", "\n", "\n\n"]),
)
def test_any_outline_like_document_reads_as_the_general_path_reads_it(
    lines: list[tuple[str, str]], lead: str
) -> None:
    text = lead + "".join(line + sep for line, sep in lines)
    if not text.strip():
        return
    event("built directly" if _assert_same_as_general(text) else "general path")


def _outline_lines(draw: st.DrawFn, texts: st.SearchStrategy[str] = WORDS) -> list[str]:
    """The lines of a well-formed outline: numbered headings (ranks vary) over numbered clauses."""
    lines = []
    if draw(st.booleans()):
        lines.append(f"0.1 {draw(texts)}")  # a clause before any heading
    for n in range(1, draw(st.integers(1, 6)) + 1):
        lines.append(f"{'#' * draw(st.integers(1, 6))} {n}. {draw(texts)}")
        for m in range(1, draw(st.integers(0, 5)) + 1):
            lines.append(f"{n}.{m} {draw(texts)}")
    return lines


@st.composite
def _outlines(draw: st.DrawFn) -> str:
    gap = draw(st.sampled_from(["\n\n", "\n\n\n"]))
    return gap.join(_outline_lines(draw)) + draw(st.sampled_from(["", "\n", "\n\n"]))


@st.composite
def _near_outlines(draw: st.DrawFn) -> str:
    """A well-formed outline with a few deviations: an odd line, a line replaced by any heading or
    clause, a single line break; about half of them still outlines."""
    tricky = draw(st.lists(TRICKY, max_size=2, unique=True))  # a few tricky texts per document
    lines = _outline_lines(draw, st.one_of(WORDS, st.sampled_from(tricky)) if tricky else WORDS)
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(lines)))
        lines[at:at] = [draw(st.one_of(HEADING, CLAUSE, ODD_LINE))]
        if draw(st.booleans()):
            del lines[draw(st.integers(0, len(lines) - 1))]
    if not lines:
        return "x"
    gaps = [draw(st.sampled_from(["\n\n"] * 8 + ["\n", "\n\n\n"])) for _ in lines]
    return draw(st.sampled_from(["", "\n"])) + "".join(
        line + gap for line, gap in zip(lines, gaps, strict=True)
    )


@settings(max_examples=300, deadline=None)
@given(_near_outlines())
def test_a_nearly_well_formed_outline_reads_as_the_general_path_reads_it(text: str) -> None:
    if text.isspace():
        return  # an empty document, an error on both paths
    event("built directly" if _assert_same_as_general(text) else "general path")


@settings(max_examples=300, deadline=None)
@given(_outlines())
def test_a_well_formed_outline_is_built_directly_and_reads_the_same(text: str) -> None:
    assert _assert_same_as_general(text)


@pytest.mark.parametrize("text", TRICKY_TEXTS)
def test_a_tricky_text_as_a_heading_or_a_clause_reads_as_the_general_path_reads_it(text: str) -> None:
    _assert_same_as_general(f"## 1. {text}\n\n1.1 Plain clause\n")
    _assert_same_as_general(f"## 1. Plain heading\n\n1.1 {text}\n\n1.2 Another\n")


def test_the_benchmark_documents_are_built_directly_and_read_the_same() -> None:
    for doc in revised_pair(30):
        assert _assert_same_as_general(to_markdown(doc))


def test_labels_that_continue_no_sequence_send_the_document_to_the_general_path() -> None:
    # `## 5.` has no neighbour heading and is not the first; `2.7` has no heading 2, no 2.6 or 2.8.
    assert not _assert_same_as_general("## 1. One\n\n1.1 Text\n\n## 5. Five\n\n5.1 Text\n")
    assert not _assert_same_as_general("## 1. One\n\n1.1 Text\n\n2.7 Stray\n")
    assert _assert_same_as_general("## 1. One\n\n1.1 Text\n\n2.1 First of two\n")


def test_only_the_profiles_with_the_decimal_rule_first_are_read_directly() -> None:
    assert applies_to(get_profile("markdown"))
    profile = get_profile("markdown")
    shuffled = profile.__class__(**{**profile.__dict__, "labels": profile.labels[1:] + profile.labels[:1]})
    assert not applies_to(shuffled)
    assert decimal_outline("## 1. One\n\n1.1 Text\n", shuffled) is None
