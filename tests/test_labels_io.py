"""labels.yaml load/dump: the golden round-trips byte for byte and every bad file gets one clear error."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.errors import AlignbenchError
from alignbench.labels.fastload import parse_labels_text
from alignbench.labels.io import dump_labels, load_labels, row_id
from labels_fixtures.support import FIXTURES
from property_budget import examples

GOLDEN = FIXTURES / "labels.yaml"


def test_golden_round_trips_byte_for_byte() -> None:
    text = GOLDEN.read_text(encoding="utf-8")
    assert dump_labels(load_labels(GOLDEN)) == text


def test_dump_is_independent_of_key_order() -> None:
    data = load_labels(GOLDEN)
    shuffled = {k: data[k] for k in reversed(list(data))}
    shuffled["correspondences"] = [{k: r[k] for k in reversed(list(r))} for r in data["correspondences"]]
    assert dump_labels(shuffled) == dump_labels(data)


def test_every_row_is_one_line() -> None:
    text = GOLDEN.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("- ")]
    data = load_labels(GOLDEN)
    assert len(rows) == sum(len(data[k]) for k in ("correspondences", "inserted", "deleted", "move_verdicts"))


def test_row_id_is_stable_and_side_sensitive() -> None:
    assert row_id("c", "/paragraph[1]", "/paragraph[2]") == row_id("c", "/paragraph[1]", "/paragraph[2]")
    assert row_id("c", "/paragraph[1]", "/paragraph[2]") != row_id("c", "/paragraph[2]", "/paragraph[1]")
    assert row_id("i", None, "/paragraph[2]").startswith("i-")
    assert len(row_id("d", "/paragraph[1]", None)) == 14


@cache
def _golden() -> dict:
    return load_labels(GOLDEN)


@settings(max_examples=examples(100), deadline=None)
@given(st.text(min_size=1, max_size=40))
def test_any_note_text_round_trips(note: str) -> None:
    """The note reads back through the pure-Python YAML parser (the strictest) and our own reader.

    The pure-Python parser reads the note's row alone (~14 ms for the whole file, ~1 ms for the row):
    every row is one line, checked here, so the rest of the file cannot change how that line reads."""
    data = copy.deepcopy(_golden())
    data["correspondences"][0]["note"] = note
    text = dump_labels(data)
    lines = text.split("\n")
    rows = [line for line in lines if line.startswith("- ")]
    assert len(rows) == 10
    first_row = lines[lines.index("correspondences:") + 1]
    assert yaml.safe_load(first_row) == [data["correspondences"][0]]
    assert parse_labels_text(text, "labels.yaml") == data


def _write(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "labels.yaml"
    # yaml.safe_dump so the invalid document reaches the schema check (dump_labels refuses it)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def _broken(mutate) -> dict:
    data = copy.deepcopy(load_labels(GOLDEN))
    mutate(data)
    return data


def test_unknown_key_is_named_with_its_path(tmp_path: Path) -> None:
    path = _write(tmp_path, _broken(lambda d: d["correspondences"][1].update(colour="red")))
    with pytest.raises(AlignbenchError) as err:
        load_labels(path)
    message = str(err.value)
    assert str(path) in message
    assert "$.correspondences[1]: unknown key(s) 'colour'" in message


def test_bad_address_pattern(tmp_path: Path) -> None:
    path = _write(tmp_path, _broken(lambda d: d["deleted"][0].update(source="/section[1]/para[1]")))
    with pytest.raises(
        AlignbenchError, match=r"\$\.deleted\[0\]\.source: bad address '/section\[1\]/para\[1\]'"
    ):
        load_labels(path)


def test_container_address_is_a_bad_address(tmp_path: Path) -> None:
    path = _write(tmp_path, _broken(lambda d: d["deleted"][0].update(source="/section[1]")))
    with pytest.raises(AlignbenchError, match="containers are not labelled"):
        load_labels(path)


def test_root_address(tmp_path: Path) -> None:
    path = _write(tmp_path, _broken(lambda d: d["correspondences"][0].update(source="/", test="/")))
    with pytest.raises(AlignbenchError) as err:
        load_labels(path)
    message = str(err.value)
    assert "$.correspondences[0].source: root address '/' used" in message
    assert "$.correspondences[0].test: root address '/' used" in message
    assert "2 schema problem(s)" in message


def test_every_problem_is_listed_at_once(tmp_path: Path) -> None:
    def mutate(d: dict) -> None:
        d["correspondences"][0]["status"] = "maybe"
        d["inserted"][0]["digest"] = "XYZ"
        del d["review"]["labelled_by"]

    path = _write(tmp_path, _broken(mutate))
    with pytest.raises(AlignbenchError) as err:
        load_labels(path)
    message = str(err.value)
    assert "3 schema problem(s)" in message
    assert "$.correspondences[0].status: 'maybe' is not one of: proposed, confirmed, corrected" in message
    assert "$.inserted[0].digest" in message
    assert "$.review: 'labelled_by' is a required property" in message


def test_dump_refuses_an_invalid_document() -> None:
    with pytest.raises(AlignbenchError, match="unknown key"):
        dump_labels(_broken(lambda d: d.update(extra=1)))


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "file is empty"),
        (b"   \n", "file is empty"),
        (b"schema: [unclosed\n", ":1:9: malformed YAML: this flow sequence is not closed"),
        (b"\xff\xfe\x00bad", "not valid UTF-8"),
        (b"a: &x [1, 2]\nb: *x\n", "anchors/aliases are not allowed"),
        (
            b'a: &a ["lol","lol"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n',
            "anchors/aliases are not allowed",
        ),
        (b"- just\n- a list\n", "expected a YAML mapping"),
    ],
)
def test_malformed_yaml_gives_one_clear_error(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "labels.yaml"
    path.write_bytes(content)
    with pytest.raises(AlignbenchError) as err:
        load_labels(path)
    assert expected in str(err.value)
    assert str(path) in str(err.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(AlignbenchError, match="file not found"):
        load_labels(tmp_path / "nope.yaml")
