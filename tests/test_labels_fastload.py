"""The fast reader of the canonical labels.yaml layout reads exactly what the strict loader reads.

Whatever it accepts must equal ``yamlload.parse_yaml`` value for value and type for type (``repr``
tells ``True`` from ``1`` and ``'1'``); whatever it does not recognise goes to the strict loader, so
errors and refusals are the strict loader's, word for word.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alignbench import yamlload
from alignbench.errors import AlignbenchError
from alignbench.labels import io
from alignbench.labels.fastload import load_labels_yaml, parse_labels_text, read_canonical
from property_budget import examples

ROOT = Path(__file__).resolve().parent.parent
LABEL_FILES = sorted(
    p
    for pattern in ("corpus/**/labels.yaml", "corpus/**/blind-labels.yaml", "tests/**/labels.yaml")
    for p in ROOT.glob(pattern)
)
SMALL = ROOT / "corpus" / "synthetic" / "stress-table-heavy--edits-a" / "labels.yaml"


def _strict(text: str) -> object:
    try:
        return yamlload.parse_yaml(text, "x.yaml")
    except AlignbenchError as exc:
        return exc


def _agrees(text: str) -> None:
    """The property: the fast reader declines, or reads what the strict loader reads."""
    fast = read_canonical(text)
    if fast is not None:
        strict = _strict(text)
        assert not isinstance(strict, AlignbenchError), f"fast read text the strict loader refuses: {strict}"
        assert repr(fast) == repr(strict)


# The strict loader takes ~15 ms a file. `make test` compares it with the fast reader on every
# hand-made label file (real pairs, blind labels, test fixtures) and on every third generated one (all
# written by the one dumper, whose every scalar shape the property tests above and below exercise);
# `make test-slow` (CI) compares all of them. Shards let parallel test workers share the work.
SHARDS = 4
GENERATED = [p for p in LABEL_FILES if p.relative_to(ROOT).parts[:2] == ("corpus", "synthetic")]
QUICK = sorted({*[p for p in LABEL_FILES if p not in GENERATED], *GENERATED[::3]})


def test_the_label_files_and_their_shards_cover_the_corpus() -> None:
    assert len(LABEL_FILES) > 350 and len(GENERATED) > 250
    assert sorted(p for shard in range(SHARDS) for p in QUICK[shard::SHARDS]) == QUICK
    hand_made = [p for p in LABEL_FILES if p.relative_to(ROOT).parts[:2] == ("corpus", "labels")]
    assert len(hand_made) > 70 and set(hand_made) <= set(QUICK)


def test_every_committed_corpus_label_file_takes_the_fast_path() -> None:
    """Every file dump_labels wrote (the whole corpus) is in the layout the fast reader recognises."""
    corpus = [p for p in LABEL_FILES if p.relative_to(ROOT).parts[0] == "corpus"]
    assert [p for p in corpus if read_canonical(p.read_text(encoding="utf-8")) is None] == []


def _read_identically(paths: list[Path]) -> None:
    for path in paths:
        text = path.read_text(encoding="utf-8")
        fast = read_canonical(text)
        if fast is not None:
            assert repr(fast) == repr(yamlload.parse_yaml(text, str(path))), path


@pytest.mark.parametrize("shard", range(SHARDS))
def test_committed_label_files_are_read_fast_and_identically(shard: int) -> None:
    _read_identically(QUICK[shard::SHARDS])


@pytest.mark.slow
def test_every_committed_label_file_is_read_fast_and_identically() -> None:
    _read_identically(LABEL_FILES)


def test_rows_read_from_the_row_cache_are_independent_copies() -> None:
    text = SMALL.read_text(encoding="utf-8")
    first, second = read_canonical(text), read_canonical(text)
    assert first is not None and second is not None
    first["correspondences"][0]["status"] = "changed"
    assert second["correspondences"][0]["status"] == "confirmed"
    assert read_canonical(text) == second


def test_load_labels_yaml_matches_load_yaml() -> None:
    assert repr(load_labels_yaml(SMALL)) == repr(yamlload.load_yaml(SMALL))


CANONICAL_HEAD = "schema: alignbench/labels/v1\npair: p\ncorrespondences:\n"


@pytest.mark.parametrize(
    "text",
    [
        CANONICAL_HEAD + "- {id: a, id: b}\n",  # duplicate key in a row
        "pair: p\npair: q\n",  # duplicate top-level key
        CANONICAL_HEAD + "- {id: &x a, test: *x}\n",  # anchor and alias
        CANONICAL_HEAD + "- {id: !!str a}\n",  # explicit tag
        CANONICAL_HEAD + "- {id: 'unclosed}\n",  # unclosed quoted scalar
        CANONICAL_HEAD + "- {id: a\n",  # unclosed flow mapping
        "pair: p\n\tx: 1\n",  # a tab
        "<<: {a: 1}\n",  # merge key
        "a: yes\n",  # YAML 1.1-only forms (yamlload.version_problem): a bool in 1.1, a string in 1.2
        "on: 1\n",
        CANONICAL_HEAD + "- {id: 0123}\n",  # octal in 1.1, decimal in 1.2
        CANONICAL_HEAD + "- {id: 1:30}\n",  # base 60 in 1.1
        "a: 1_000\n",
        "a: " + "9" * 5000 + "\n",  # beyond MAX_INT_DIGITS (and Python's int parsing limit)
    ],
)
def test_refusals_and_errors_are_the_strict_loaders(text: str) -> None:
    assert read_canonical(text) is None
    with pytest.raises(AlignbenchError) as strict:
        yamlload.parse_yaml(text, "f.yaml")
    with pytest.raises(AlignbenchError) as fast:
        parse_labels_text(text, "f.yaml")
    assert str(fast.value) == str(strict.value)


@pytest.mark.parametrize(
    "text",
    [
        "a: true\nb: False\nc: null\ne: 0\nf: 0x1f\ng: 1e5\nh: 1.5\ni: .inf\nj: '1'\nk: -7\nl: '0123'\n",
        "true: 1\nnull: 2\nfalse: x\n",  # keys are typed too
        "a: [1, '2', \"3\", true, [], {}]\nb: {c: {d: [e, f]}, g: 'h, i'}\n",
        "a: \"\\u00e9\\\" \\\\ \\U0001F600\"\nb: 'it''s'\nc: https://x.org/a:b\n",
        "k:\n- {a: 1}\n- {b: [2, 3]}\nm:\n  n: o\n  p:\n  - {q: r}\n  s: []\n",
    ],
)
def test_typing_and_nesting_match_the_strict_loader(text: str) -> None:
    assert read_canonical(text) is not None
    _agrees(text)


@pytest.mark.parametrize(
    "text",
    [
        "a: 2020-01-01\n",  # a timestamp: left to the strict loader
        "a: b # comment\n",
        "a: b\n\nc: d\n",
        "a: multi\n  line\n",
        "a:\n  - {b: c}\n",  # a sequence indented under its key
        "a: {b: c }\n",
        "a: '\\x'\nb: \"\\x41\"\n",
        "a: b",  # no final newline
        "- a\n",
        "a: =\n",
        "a: ~\n",
    ],
)
def test_layouts_outside_the_subset_are_declined(text: str) -> None:
    assert read_canonical(text) is None
    _agrees(text)


_CHARS = [*"abnoyYNtTfF019eE._/-+:#,'\"\\ []{}?&*!|>%@`~=<()", "\t", "\xe9", "\xa0", "\x85", "\ufeff"]
_WORDS = ["yes", "No", "on", "null", "~", "0123", "0x1f", "1e5", "1.5", ".inf", "2020-01-01", "<<", "=", "-1"]
_FRIENDLY = list("abnoyYtf019e._/-+:' ")
_scalar_text = st.one_of(
    st.sampled_from(_WORDS),
    st.text(st.sampled_from(_FRIENDLY), min_size=1, max_size=7).map(str.strip).filter(bool),
    st.text(st.sampled_from(_FRIENDLY), min_size=1, max_size=7).map(str.strip).filter(bool),
    st.text(st.sampled_from(_CHARS), max_size=5),
)


@st.composite
def _scalar(draw: st.DrawFn) -> str:
    text = draw(_scalar_text)
    # mostly the styles the writer uses, sometimes a quoted scalar left unescaped
    style = draw(st.sampled_from(["plain"] * 4 + ["single"] * 3 + ["double", "raw-single", "raw-double"]))
    if style == "single":
        return "'" + text.replace("'", "''") + "'"
    if style == "double":
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if style == "raw-single":
        return f"'{text}'"
    if style == "raw-double":
        return f'"{text}"'
    return text


_keys = st.sampled_from(["id", "kind", "note", "status", "test", "source", "yes", "null", "a_1", "x y"])


@functools.cache  # one strategy object per depth: building them inside every draw was most of the test
def _flow(depth: int) -> st.SearchStrategy[str]:
    if depth == 0:
        return _scalar()
    inner = _flow(depth - 1)
    mapping = st.lists(st.tuples(_keys, inner), max_size=4).map(
        lambda items: "{" + ", ".join(f"{k}: {v}" for k, v in items) + "}"
    )
    sequence = st.lists(inner, max_size=3).map(lambda items: "[" + ", ".join(items) + "]")
    return st.one_of(_flow(0), mapping, sequence)


@st.composite
def _document(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        key = draw(_keys)
        shape = draw(st.sampled_from(["inline", "rows", "block"]))
        if shape == "inline":
            lines.append(f"{key}: {draw(_flow(2))}")
        elif shape == "rows":
            lines.append(f"{key}:")
            lines.extend(f"- {draw(_flow(2))}" for _ in range(draw(st.integers(1, 3))))
        else:
            lines.append(f"{key}:")
            for _ in range(draw(st.integers(1, 3))):
                lines.append(f"  {draw(_keys)}: {draw(_flow(1))}")
    text = "\n".join(lines) + "\n"
    if draw(st.integers(0, 2)) == 0:  # one random edit: an inserted, deleted or replaced character
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["insert", "delete", "replace"]))
        char = draw(st.sampled_from([*_CHARS, "\n", "  "]))
        if edit == "insert":
            text = text[:at] + char + text[at:]
        elif edit == "delete":
            text = text[:at] + text[at + 1 :]
        else:
            text = text[:at] + char + text[at + 1 :]
    return text


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_document())
def test_generated_text_is_declined_or_read_identically(text: str) -> None:
    _agrees(text)


@pytest.mark.slow  # a misread label file would change scores silently: CI searches much further
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_document())
def test_generated_text_is_declined_or_read_identically_over_1000_examples(text: str) -> None:
    _agrees(text)


@functools.cache
def _small_document() -> dict[str, Any]:
    data = yamlload.parse_yaml(SMALL.read_text(encoding="utf-8"), str(SMALL))
    data["correspondences"] = data["correspondences"][:3]
    return data


@settings(max_examples=examples(150), deadline=None)
@given(st.text(max_size=12), st.text(max_size=6))
def test_dumped_labels_read_back_identically(note: str, origin: str) -> None:
    data = copy.deepcopy(_small_document())
    data["correspondences"][0]["note"] = note
    data["provenance"]["origin"] = origin or "x"
    try:
        text = io.dump_labels(data)
    except AlignbenchError:
        return  # a note the schema refuses is never written
    fast = read_canonical(text)
    assert repr(fast if fast is not None else parse_labels_text(text, "x")) == repr(data)
    _agrees(text)
