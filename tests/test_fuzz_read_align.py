"""Fuzz read + align end to end: from document text, never from hand-built trees.

tests/test_alignment_properties.py already checks one-to-one, totality and determinism of ``align``
on generated *trees* (100 examples each). This test starts one step earlier, from Markdown and plain
text a reader must parse, so a reader crash or a tree the engine mishandles is found too. ``make test``
runs 150 examples (CI's full property pass 300: ``property_budget``); the same property at 2,000
examples takes over 10 s, so it is a ``slow`` test that CI runs (``make test-slow``).
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alignbench.alignment import AlignmentConfig, align
from alignbench.errors import AlignbenchError
from alignbench.readers import read
from property_budget import examples


def _fuzz(count: int) -> settings:
    return settings(
        max_examples=count,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


WORDS = ("Supplier", "shall", "deliver", "Goods", "thirty", "days", "notice", "Fees", "Agreement", "§")
SENTENCE = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join)
MARKERS = (
    "",
    "1. ",
    "1.1 ",
    "2. ",
    "(a) ",
    "(i) ",
    "- ",
    "* ",
    "# ",
    "## ",
    "Section 3. ",
    "SEC. 2. ",
    "A. ",
)
LINE = st.one_of(
    st.builds(lambda m, s: m + s, st.sampled_from(MARKERS), SENTENCE),
    st.builds(lambda a, b: f"| {a} | {b} |", SENTENCE, SENTENCE),
    st.sampled_from(("", "|---|---|", "---", "    indented code", "<div>html</div>", "> quoted")),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30),
)
DOCUMENT = st.lists(LINE, min_size=1, max_size=25)
EDIT = st.lists(
    st.tuples(st.sampled_from(("delete", "insert", "swap", "keep")), st.integers(0, 30), LINE), max_size=6
)
FORMATS = st.sampled_from(("markdown", "text"))
BACKENDS = st.sampled_from(("difflib", "rapidfuzz"))


def _revise(lines: list[str], edits: list[tuple[str, int, str]]) -> list[str]:
    revised = list(lines)
    for op, at, line in edits:
        i = at % (len(revised) + 1)
        if op == "delete" and i < len(revised):
            del revised[i]
        elif op == "insert":
            revised.insert(i, line)
        elif op == "swap" and i + 1 < len(revised):
            revised[i], revised[i + 1] = revised[i + 1], revised[i]
    return revised


def _read(lines: list[str], fmt: str):
    try:
        return read("\n".join(lines) + "\n", format=fmt)
    except AlignbenchError:
        return None  # empty or refused text: one clear error is the reader's whole contract here


@_fuzz(examples(300))
@given(DOCUMENT, EDIT, FORMATS, BACKENDS)
def test_read_then_align_is_one_to_one_total_and_deterministic(lines, edits, fmt, backend):
    _read_then_align_is_one_to_one_total_and_deterministic(lines, edits, fmt, backend)


@pytest.mark.slow
@_fuzz(2000)
@given(DOCUMENT, EDIT, FORMATS, BACKENDS)
def test_read_then_align_holds_over_2000_examples(lines, edits, fmt, backend):
    _read_then_align_is_one_to_one_total_and_deterministic(lines, edits, fmt, backend)


def _read_then_align_is_one_to_one_total_and_deterministic(lines, edits, fmt, backend) -> None:
    source = _read(lines, fmt)
    test = _read(_revise(lines, edits), fmt)
    if source is None or test is None:
        return
    again = _read(lines, fmt)
    assert again is not None and again.to_dict() == source.to_dict()  # reading is deterministic
    config = AlignmentConfig(similarity=backend)
    result = align(source, test, config)
    paired_s = Counter(pr.source_path for pr in result.pairs)
    paired_t = Counter(pr.test_path for pr in result.pairs)
    assert max(paired_s.values()) == 1 and max(paired_t.values()) == 1  # one-to-one
    assert sorted([*paired_s, *result.deleted]) == sorted(b.address for b in source.blocks())  # total
    assert sorted([*paired_t, *result.inserted]) == sorted(b.address for b in test.blocks())
    assert align(source, test, config).to_json() == result.to_json()  # deterministic
