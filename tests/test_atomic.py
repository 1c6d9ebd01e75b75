"""Bad YAML gets one clear message naming the file; atomic writes never leave a partial file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.atomic import dump_json, load_yaml, write_bytes, write_text, write_texts
from alignbench.errors import AlignbenchError


def _yaml(tmp_path, data: bytes):
    path = tmp_path / "labels.yaml"
    path.write_bytes(data)
    return path


def test_load_yaml_reads_a_mapping(tmp_path):
    assert load_yaml(_yaml(tmp_path, b"a: 1\nb: [x, y]\n")) == {"a": 1, "b": ["x", "y"]}


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b"", "file is empty"),
        (b"   \n\n", "file is empty"),
        (b"a: \xff\xfe\n", "not valid UTF-8"),
        (b"a: [1, 2\nb: 3\n", ":1:4: malformed YAML: this flow sequence is not closed"),
        (b"a: &x [1, 2]\nb: *x\n", "anchors/aliases are not allowed"),
        (
            b'a: &a ["lol","lol"]\nb: &b [*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b]\nd: [*c,*c,*c,*c]\n',
            "anchors/aliases are not allowed",
        ),
        (b"a: !!python/object/apply:os.system ['true']\n", ":1:4: YAML tag"),
    ],
)
def test_load_yaml_rejects_bad_input_with_the_file_name(tmp_path, data, fragment):
    path = _yaml(tmp_path, data)
    with pytest.raises(AlignbenchError) as info:
        load_yaml(path)
    message = str(info.value)
    assert str(path) in message
    assert fragment in message


def test_load_yaml_names_a_missing_file(tmp_path):
    with pytest.raises(AlignbenchError, match="file not found"):
        load_yaml(tmp_path / "nope.yaml")


def test_write_is_atomic_and_leaves_no_temporary_files(tmp_path):
    target = tmp_path / "out" / "result.json"
    write_text(target, "first\n")
    write_text(target, "second\n")
    assert target.read_text() == "second\n"
    assert sorted(os.listdir(target.parent)) == ["result.json"]


def test_failed_write_keeps_the_old_file(tmp_path):
    target = tmp_path / "result.bin"
    write_bytes(target, b"old")

    with pytest.raises(TypeError):
        write_bytes(target, "not bytes")  # type: ignore[arg-type]
    assert target.read_bytes() == b"old"
    assert sorted(os.listdir(tmp_path)) == ["result.bin"]


def test_dump_json_is_canonical():
    assert dump_json({"b": 1, "a": [1.5]}) == '{\n  "b": 1,\n  "a": [\n    1.5\n  ]\n}\n'


def _standard(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def test_dump_json_is_the_standard_librarys_text_on_every_committed_json_output() -> None:
    root = Path(__file__).resolve().parent.parent
    outputs = sorted((root / "results").rglob("*.json"))[::7]
    paths = outputs + sorted((root / "corpus" / "real").glob("*/*.json"))
    assert len(paths) > 100
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert dump_json(data) == _standard(data), path


_json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-1e-3, max_value=1e-3),
    st.text(),
)
_json_values = st.recursive(
    _json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.one_of(st.text(max_size=4), st.integers(-3, 3), st.booleans()), inner, max_size=4),
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(_json_values)
def test_dump_json_is_the_standard_librarys_text_on_any_data(data: object) -> None:
    assert dump_json(data) == _standard(data)


def test_write_texts_sweeps_each_targets_leftovers_once_and_writes_in_order(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    mine = out / ".a.json.k1ll3d.tmp"
    other = out / ".unrelated.json.k1ll3d.tmp"
    for leftover in (mine, other):
        leftover.write_text("partial", encoding="utf-8")
    write_texts([(out / "a.json", "A\n"), (out / "b" / "c.json", "C\n"), (out / "a.json", "A2\n")])
    assert not mine.exists() and other.exists()  # only the temporaries of files being written
    assert (out / "a.json").read_text(encoding="utf-8") == "A2\n"
    assert (out / "b" / "c.json").read_text(encoding="utf-8") == "C\n"
    assert sorted(p.name for p in out.iterdir()) == [".unrelated.json.k1ll3d.tmp", "a.json", "b"]
