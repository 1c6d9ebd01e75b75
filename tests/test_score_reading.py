"""score reads engine outputs through orjson and counts each output once for both columns: both
shortcuts must give exactly what the standard parser and the per-column count give."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.errors import AlignbenchError
from alignbench.score.collect import load_json
from alignbench.score.passes import pairs_by_pass, pass_pairs
from property_budget import examples

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


def _same(a: object, b: object) -> bool:
    """Equal, with NaN equal to NaN and int distinct from float (1 vs 1.0)."""
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)  # type: ignore[index]
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))  # type: ignore[arg-type]
    return a == b


@pytest.fixture(scope="module")
def json_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One directory for every example's file (examples run one at a time, each writes it afresh),
    not a numbered directory per example: 200 directories fewer for pytest to create, and to delete
    when it prunes the run three runs later."""
    return tmp_path_factory.mktemp("json")


@settings(max_examples=examples(200), deadline=None)
@given(_values, st.sampled_from([None, 2]))
def test_load_json_builds_what_the_standard_parser_builds(json_dir: Path, value, indent) -> None:
    path = json_dir / "out.json"
    path.write_text(json.dumps(value, indent=indent, ensure_ascii=False), encoding="utf-8")
    assert _same(load_json(path, "out.json", "align@difflib"), json.loads(path.read_text(encoding="utf-8")))


def test_load_json_takes_a_duplicate_key_as_the_standard_parser_does(tmp_path: Path) -> None:
    path = tmp_path / "dup.json"
    path.write_text('{"a": 1, "b": 2, "a": 3}', encoding="utf-8")
    assert list(load_json(path, "dup.json", "floor").items()) == list(json.loads(path.read_text()).items())


def test_load_json_names_the_stage_for_a_missing_or_broken_file(tmp_path: Path) -> None:
    with pytest.raises(AlignbenchError, match=r"results/floor/x\.json is missing; run `dvc repro floor`"):
        load_json(tmp_path / "x.json", "results/floor/x.json", "floor")
    broken = tmp_path / "broken.json"
    broken.write_text('{"pairs": [', encoding="utf-8")
    with pytest.raises(AlignbenchError, match=r"not valid JSON .*dvc repro -f align@rapidfuzz"):
        load_json(broken, "broken.json", "align@rapidfuzz")


def test_pairs_by_pass_groups_each_pair_once_in_output_order() -> None:
    alignment = {
        "pairs": [
            {"source": "/", "test": "/", "matched_by": "root"},
            {"source": "/p[1]", "test": "/p[2]", "matched_by": "move"},
            {"source": "/p[2]", "test": "/p[1]", "matched_by": "fuzzy"},
            {"source": "/p[3]", "test": "/p[3]", "matched_by": "move"},
            {"source": "/p[4]", "test": "/p[4]"},
        ]
    }
    grouped = pairs_by_pass(alignment)
    assert grouped["move"] == [("/p[1]", "/p[2]"), ("/p[3]", "/p[3]")]
    assert grouped[None] == [("/p[4]", "/p[4]")]
    for name in ("root", "move", "fuzzy", "label"):
        assert pass_pairs(alignment, name) == [
            (p["source"], p["test"]) for p in alignment["pairs"] if p.get("matched_by") == name
        ]
