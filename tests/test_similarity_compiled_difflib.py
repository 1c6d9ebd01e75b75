"""The difflib backend runs cydifflib (CPython's difflib, compiled): it must give the standard library's
matching blocks, opcodes and ratio exactly, or every difflib result in results/ would silently move."""

from __future__ import annotations

import difflib

from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.alignment.similarity import SequenceMatcher
from property_budget import examples

# Small alphabets make long repeats and many equal-length candidate blocks: the tie-breaking cases.
tokens = st.lists(st.integers(min_value=0, max_value=6), max_size=300)


@settings(max_examples=examples(300), deadline=None)
@given(tokens, tokens)
def test_compiled_matcher_equals_the_standard_library(a: list[int], b: list[int]) -> None:
    ours = SequenceMatcher(None, a, b, autojunk=False)
    theirs = difflib.SequenceMatcher(None, a, b, autojunk=False)
    assert ours.get_matching_blocks() == theirs.get_matching_blocks()
    assert ours.get_opcodes() == theirs.get_opcodes()
    assert ours.ratio() == theirs.ratio()


def test_the_backend_really_is_the_compiled_one() -> None:
    assert SequenceMatcher.__module__.startswith("cydifflib")
