"""The Alignment JSON: key order, rounding, byte-stability across PYTHONHASHSEED, backend bookkeeping."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.alignment import PASS_NAMES, AlignmentConfig, align
from alignbench.alignment.flat import fast_normalise
from alignbench.alignment.lis import _patience, lis_indices
from alignbench.alignment.similarity import _TOKEN, Vocabulary, tokenise
from alignbench.blocks import normalise
from alignment_fixtures.build import sample_pair
from hash_seeds import output_under_another_hash_seed
from property_budget import examples

FIXTURES = Path(__file__).parent / "alignment_fixtures"


def test_alignment_json_has_the_contract_key_order_and_trailing_newline():
    result = align(*sample_pair(), AlignmentConfig(similarity="difflib"))
    text = result.to_json()
    assert text.endswith("}\n") and text.startswith('{\n  "schema": "alignbench/alignment/v2"')
    data = json.loads(text)
    assert list(data) == [
        "schema", "engine", "backend", "config", "budget_exhausted", "comparisons", "pass_counts",
        "pairs", "inserted", "deleted", "changes", "summary",
    ]  # fmt: skip
    assert list(data["engine"]) == ["name", "version"] and data["engine"]["name"] == "alignbench"
    assert data["backend"] == {"requested": "difflib", "resolved": "difflib"}
    assert list(data["pass_counts"]) == ["root", *PASS_NAMES]
    assert list(data["pairs"][0]) == [
        "source", "test", "matched_by", "confidence", "moved", "renumbered", "ambiguous", "reparented",
    ]  # fmt: skip
    assert data["pairs"][0] == {
        "source": "/", "test": "/", "matched_by": "root", "confidence": 1.0,
        "moved": False, "renumbered": False, "ambiguous": False, "reparented": False,
    }  # fmt: skip
    change_keys = ["kind", "source", "test", "source_label", "test_label", "modified"]
    assert all(list(c) == change_keys for c in data["changes"])
    assert list(data["summary"]) == [
        "paired", "kinds", "modified", "modified_moved", "modified_renumbered", "reparented",
    ]  # fmt: skip
    assert list(data["summary"]["kinds"]) == ["move", "renumber", "insert", "delete", "modify"]
    for pair in data["pairs"]:
        assert pair["confidence"] == round(pair["confidence"], 4)
    sources = [pair["source"] for pair in data["pairs"]]
    order = [b.address for b in sample_pair()[0].blocks()]
    assert sources == sorted(sources, key=order.index)


def test_auto_records_both_the_request_and_the_resolution():
    data = align(*sample_pair()).to_dict()
    assert data["backend"]["requested"] == "auto"
    assert data["backend"]["resolved"] in ("difflib", "rapidfuzz")
    assert data["config"]["similarity"] == "auto"


_SCRIPT = """
import sys
sys.path.insert(0, {tests!r})
from alignment_fixtures.build import sample_pair
from alignbench.alignment import PASS_NAMES, AlignmentConfig, align
for backend in ("difflib", "rapidfuzz"):
    sys.stdout.write(align(*sample_pair(), AlignmentConfig(similarity=backend)).to_json())
"""


def test_json_is_byte_identical_under_different_hash_seeds():
    script = _SCRIPT.format(tests=str(Path(__file__).parent))
    here = "".join(
        align(*sample_pair(), AlignmentConfig(similarity=b)).to_json() for b in ("difflib", "rapidfuzz")
    )
    assert output_under_another_hash_seed(["-c", script]) == here and here.count('"engine"') == 2


def test_budget_exhaustion_is_flagged_and_counted_identically():
    source, test = sample_pair()
    for backend in ("difflib", "rapidfuzz"):
        tight = align(source, test, AlignmentConfig(similarity=backend, max_comparisons=0))
        assert tight.budget_exhausted and tight.comparisons == 0
        roomy = align(source, test, AlignmentConfig(similarity=backend))
        assert not roomy.budget_exhausted and roomy.comparisons > 0


def test_dropping_optional_passes_removes_their_pairs():
    source, test = sample_pair()
    bare = align(source, test, AlignmentConfig(passes=("exact", "structural", "positional")))
    counts = bare.to_dict()["pass_counts"]
    assert counts["label"] == counts["fuzzy"] == counts["move"] == 0
    assert counts["exact"] > 0


# White space of every kind, and two non-printable characters that are not white space.
SPACES_AND_FRIENDS = " \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u2028\u3000\u200b\u00ad"


@settings(max_examples=examples(100), deadline=None)
@given(st.text(alphabet=st.sampled_from(f"{SPACES_AND_FRIENDS}ab."), max_size=30) | st.text(max_size=30))
def test_fast_normalise_agrees_with_blocks_normalise(text):
    assert fast_normalise(text) == normalise(text)
    if normalise(text) == text:  # already normalised text is handed back, not copied
        assert fast_normalise(text) is text


def test_fast_normalise_on_every_whitespace_character():
    """The printable shortcut relies on every character ``\\s`` matches being non-printable but the space."""
    for code in range(0x110000):
        char = chr(code)
        if char.isspace() and char != " ":
            assert not char.isprintable(), hex(code)
            assert fast_normalise(f"a{char}b") == normalise(f"a{char}b") == "a b"


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.integers(0, 20), max_size=30))
def test_lis_is_increasing_and_longest(values):
    picked = lis_indices(values)
    chosen = [values[i] for i in picked]
    assert picked == sorted(picked) and all(a < b for a, b in itertools.pairwise(chosen))
    best = [1] * len(values)  # O(n^2) reference length
    for i in range(len(values)):
        for j in range(i):
            if values[j] < values[i]:
                best[i] = max(best[i], best[j] + 1)
    assert len(picked) == max(best, default=0)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.text(alphabet=st.sampled_from(" \t\n\x0b\x1c\x85\xa0\u2028\u3000()().?!-ab"), max_size=40)
    | st.text(max_size=40)
)
def test_tokenise_agrees_with_the_token_regex(text):
    assert tokenise(text) == _TOKEN.findall(text)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.lists(st.sampled_from("abcdefg"), max_size=8), max_size=8))
def test_vocabulary_ids_are_first_seen_order(sequences):
    vocabulary, ids = Vocabulary(), {}
    for tokens in sequences:
        expected = tuple(ids.setdefault(tok, len(ids)) for tok in tokens)
        assert vocabulary.encode(tokens) == expected


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(0, 30), max_size=30, unique=True).map(sorted) | st.lists(st.integers(0, 8)))
def test_lis_shortcut_for_increasing_values_is_what_patience_sorting_finds(values):
    assert lis_indices(values) == _patience(values)
