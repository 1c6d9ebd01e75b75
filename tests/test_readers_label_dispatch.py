"""The one-regex label dispatch gives exactly what trying the label rules one by one gives: the same
match (or none) for every line of the reader fixtures and the outside documents, for every profile,
read as a heading and as running text, including the lines a first rule matches and then turns down."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.readers.drops import DropLog
from alignbench.readers.label_grammar import _match, match_label, read_label
from alignbench.readers.profiles import get_profile, profile_names
from property_budget import examples

TESTS = Path(__file__).parent
# Lines a first rule matches and then turns down, so the next rules decide: a bare number before
# lower-case prose, an unterminated word label in running text, an enclosed mixed-case token.
TURNED_DOWN = (
    "30 days after notice",
    "2025 (the year) ends",
    "Section 5 (Fees) survives",
    "Section 5 fees",
    "(Ab) mixed case",
    "(ab) lower case",
    "IV. Fourth",
    "H. R. 4668",
    "§ 12a. Scope",
    "SEC. 2. SHORT TITLE.",
    "Article IV--General",
    "- bullet",
    "• bullet",
    "12.3",
    "1.",
)


def _lines() -> list[str]:
    paths = sorted(TESTS.glob("reader_fixtures/*")) + sorted(TESTS.glob("outside/**/*.md"))
    lines = {
        line.strip()
        for path in paths
        if path.suffix in (".md", ".txt")
        for line in path.read_text("utf-8").splitlines()
    }
    return sorted(line for line in lines if line) + list(TURNED_DOWN)


def _one_by_one(name: str, text: str, heading: bool):
    profile = get_profile(name)
    return _match(profile, text, heading, 0)  # the rules from the first on, no dispatch table


@pytest.mark.parametrize("name", profile_names())
def test_dispatch_agrees_with_the_rules_tried_one_by_one(name: str) -> None:
    profile = get_profile(name)
    assert profile.label_dispatch is not None  # the shipped profiles all refer to groups by name
    lines = _lines()
    assert len(lines) > 1000
    matched = 0
    for text in lines:
        for heading in (True, False):
            expected = _one_by_one(name, text, heading)
            assert _match(profile, text, heading) == expected, (text, heading)
            matched += expected is not None
    assert matched > 100  # the fixtures hold labels, so the comparison covers matches, not only misses


@settings(max_examples=examples(300), deadline=None)
@given(
    st.text(alphabet="0123456789.()§-*•aivxAIVX SecTIONsecartl:–—", min_size=1, max_size=24),
    st.booleans(),
)
def test_dispatch_agrees_on_label_like_text(text: str, heading: bool) -> None:
    profile = get_profile("contract")
    assert _match(profile, text, heading) == _one_by_one("contract", text, heading)


@pytest.mark.parametrize("name", profile_names())
def test_uncached_matching_agrees_with_the_cache(name: str) -> None:
    """Long Markdown documents bypass the label cache and read a line once (``read_label``), as running
    text; both ways give the same match for every line, as a heading and as running text (the cache
    keeps the heading reading and derives the running one from it)."""
    profile = get_profile(name)
    for text in _lines():
        for heading in (True, False):
            assert read_label(profile, text, heading) == match_label(text, profile, heading=heading), (
                text,
                heading,
            )


def test_clearing_the_label_caches_forgets_every_line_and_reads_the_same() -> None:
    """The bench times each repeat as a fresh process reads; emptied caches must change no reading."""
    from alignbench.readers import read
    from alignbench.readers.label_grammar import clear_label_caches, known_readings
    from alignbench.readers.profiles import get_profile

    text = "\n\n".join(_lines()[:400])
    first = read(text, format="markdown")
    assert len(known_readings(get_profile("markdown"))) > 0
    clear_label_caches()
    assert len(known_readings(get_profile("markdown"))) == 0
    assert read(text, format="markdown").root == first.root


def test_kept_readings_are_emptied_when_full_and_answers_do_not_change(monkeypatch) -> None:
    """The kept readings are bounded (emptied once full, never grown past LABEL_CACHE_SIZE), and a line
    read after the emptying gets the same answer as one read with nothing kept."""
    from alignbench.readers import label_grammar
    from alignbench.readers.profiles import get_profile

    profile = get_profile("markdown")
    label_grammar.clear_label_caches()
    monkeypatch.setattr(label_grammar, "LABEL_CACHE_SIZE", 5)
    lines = [f"{n}.2 Clause {n}." for n in range(1, 13)]
    answers = [label_grammar.match_label(line, profile) for line in lines]
    known = label_grammar.known_readings(profile)
    assert 0 < len(known) <= 5
    assert list(known) == lines[10:12]  # emptied at the 6th and the 11th line
    assert answers == [label_grammar.read_label(profile, line, False) for line in lines]
    label_grammar.clear_label_caches()


def test_markdown_reads_the_same_whether_its_lines_are_kept_emptied_or_bypassed(monkeypatch) -> None:
    """The Markdown fast path keeps each line's reading, empties the kept readings when they reach
    ``LABEL_CACHE_SIZE``, and reads a document with more pieces than that without keeping any. Two
    documents read one after the other, as a comparison reads them, give the trees read with room for
    every line: with a bound of 3 both take the bypass; with 30 the second empties the readings the
    first kept, part way through."""
    from alignbench.readers import label_grammar, markdown, read
    from alignbench.readers.label_grammar import clear_label_caches, known_readings

    profile = get_profile("markdown")

    def fast(text: str) -> bool:  # the Markdown fast path reads it (no list, emphasis, heading, ...)
        return markdown._simple_units(text, profile, DropLog()) is not None

    plain = [line for line in _lines() if line[:1].isalnum() and fast(line)]
    turned_down = [line for line in TURNED_DOWN if fast(line)]  # each read as running text
    first = "\n\n".join(plain[:15] + turned_down)
    second = "\n\n".join(plain[15:30] + turned_down[::-1])
    assert fast(first) and fast(second) and len(turned_down) >= 5
    clear_label_caches()
    roomy = [read(first, format="markdown"), read(second, format="markdown")]
    known = known_readings(profile)
    assert len(known) > 30  # every line kept: the bounds below are what changes
    for bound in (3, 30):
        for module in (markdown, label_grammar):
            monkeypatch.setattr(module, "LABEL_CACHE_SIZE", bound)
        clear_label_caches()
        tight = [read(first, format="markdown"), read(second, format="markdown")]
        for got, want in zip(tight, roomy, strict=True):
            assert got.root == want.root
            assert [b.address for b in got.blocks()] == [b.address for b in want.blocks()]
        assert len(known_readings(profile)) <= bound
    clear_label_caches()
