"""The word-run shortcut of span location answers exactly as the word-by-word search, or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench import read
from alignbench.review import spans as spans_module
from alignbench.review.spans import MAX_GAP, Span, _find_sequence, _WordRuns, locate_spans
from property_budget import examples

ROOT = Path(__file__).resolve().parent.parent
# A few short words that are also parts of each other, so substring hits inside longer words and
# repeated words are common; separators include underscores (not word characters here) and a gap
# longer than MAX_GAP.
WORDS = ["a", "ab", "b", "ba", "1", "é"]
SEPARATORS = [" ", ", ", "**", "_", "\n\n", "](/x)", " " * (MAX_GAP + 1)]


@st.composite
def _case(draw: st.DrawFn) -> tuple[str, list[str], int]:
    pieces = draw(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=40))
    document = "".join(word + separator for word, separator in pieces)
    if pieces and draw(st.booleans()):  # a run of the document's own words: the shortcut's case
        start = draw(st.integers(min_value=0, max_value=len(pieces) - 1))
        words = [word for word, _ in pieces[start : start + draw(st.integers(1, 5))]]
    else:
        words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5))
    cursor = draw(st.integers(min_value=0, max_value=len(document)))
    return document, words, cursor


@settings(max_examples=examples(120), deadline=None)
@given(_case())
def test_the_shortcut_gives_the_word_by_word_span_or_declines(case: tuple[str, list[str], int]) -> None:
    document, words, cursor = case
    shortcut = _WordRuns(document).first_try(words, cursor)
    if shortcut is not None:
        assert shortcut == _find_sequence(document, words, cursor)


def test_the_shortcut_takes_the_common_case() -> None:
    document = "# Terms\n\n1. The **supplier** shall, in time, deliver.\n"
    assert _WordRuns(document).first_try(["1", "The", "supplier", "shall", "in"], 0) is not None
    # words with others between them (a link's target): the first attempt, as the word-by-word search
    document = "See [the terms](https://example.com/terms) here."
    assert _WordRuns(document).first_try(["See", "the", "terms", "here"], 0) == Span(0, len(document) - 1)
    # the first attempt fails (no `b` after the first `a`... before the gap): declined, not guessed
    assert _WordRuns("a" + " " * (MAX_GAP + 1) + "a b").first_try(["a", "b"], 0) is None
    # a gap of MAX_GAP characters is still a sequence, one more is not (the word-by-word search agrees)
    for gap in (MAX_GAP, MAX_GAP + 1):
        document = "a" + " " * gap + "b"
        assert _find_sequence(document, ["a", "b"], 0) == _WordRuns(document).first_try(["a", "b"], 0)
    assert _WordRuns("a" + " " * MAX_GAP + "b").first_try(["a", "b"], 0) is not None


def _real_documents() -> list[Path]:
    """Every third real pair's source or test document, alternately (the interchange round-trip tests
    exercise the shortcut on every real pair; here it is compared with the search it replaces)."""
    pairs = sorted(p for p in (ROOT / "corpus" / "real").iterdir() if p.is_dir())[::3]
    return [sorted(p.glob("source.*") if i % 2 == 0 else p.glob("test.*"))[0] for i, p in enumerate(pairs)]


@pytest.mark.parametrize("path", _real_documents(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_real_documents_get_the_same_spans_with_and_without_the_shortcut(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = path.read_text(encoding="utf-8")
    tree = read(path)
    fast = locate_spans(document, tree, str(path))
    monkeypatch.setattr(spans_module._WordRuns, "first_try", lambda self, words, cursor: None)
    assert fast == locate_spans(document, tree, str(path))
