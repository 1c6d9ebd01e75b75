"""The compiled validator only ever short-cuts valid data: invalid data still gets the Python errors."""

from __future__ import annotations

import copy
import datetime
from pathlib import Path

from alignbench import yamlload

ROOT = Path(__file__).resolve().parent.parent


def _both(data: object) -> tuple[bool, bool]:
    python_valid = not list(yamlload._validator("labels").iter_errors(data))
    return yamlload._surely_valid(data, "labels"), python_valid


def test_fast_and_python_validators_agree_on_mutated_label_files() -> None:
    path = sorted((ROOT / "corpus" / "labels" / "real").glob("*/labels.yaml"))[0]
    base = yamlload.parse_yaml(path.read_text(encoding="utf-8"), str(path))
    assert _both(base) == (True, True)
    mutations = {
        "unknown key": lambda d: d.update(surprise=1),
        "missing key": lambda d: d.pop("pair"),
        "root address": lambda d: d["correspondences"][0].update(source="/"),
        "container address": lambda d: d["correspondences"][0].update(source="/section[1]"),
        "date where text belongs": lambda d: d.update(pair=datetime.date(2020, 1, 1)),
        "bool for a string": lambda d: d.update(tier=True),
    }
    for name, mutate in mutations.items():
        data = copy.deepcopy(base)
        mutate(data)
        fast, python = _both(data)
        assert not python, name
        assert not fast, name
        assert yamlload.schema_errors(data, "labels"), name


def test_python_rules_decide_when_the_validators_differ() -> None:
    """Python's ``$`` accepts a trailing newline and Rust's does not: the Python verdict stands."""
    path = sorted((ROOT / "corpus" / "labels" / "real").glob("*/labels.yaml"))[0]
    data = yamlload.parse_yaml(path.read_text(encoding="utf-8"), str(path))
    row = data["correspondences"][0]
    row["source_digest"] += "\n"
    assert _both(data) == (False, True)
    assert yamlload.schema_errors(data, "labels") == []
