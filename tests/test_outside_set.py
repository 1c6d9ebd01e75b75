"""The outside-corpus regression set (issue 11): real revisions nobody tuned the readers for.

Each fact in tests/outside/<pair>/facts.yaml is one test. Facts say what a correct reading of the
rendered document gives; facts under ``engine_facts`` name an alignment-engine weakness rather than a
reader one and are expected to fail (not strictly) until the engine improves.
"""

from __future__ import annotations

import hashlib
import re

import pytest

from alignbench.atomic import load_yaml
from outside_facts import (
    OUTSIDE_DIR,
    bullet_renumbers,
    check,
    load_facts,
    load_pair,
    pair_dirs,
    summarise,
)

PAIRS = pair_dirs()
_SPDX = re.compile(r"^(LicenseRef-[A-Za-z0-9.-]+|[A-Za-z0-9.+-]+)( (OR|AND) [A-Za-z0-9.+-]+)*$")
RESERVED = (
    "github/site-policy",
    "commonpaper",
    "uslm",
    "creativecommons",
    "basecamp/policies",
    "legalmattic",
)


def _fact_params() -> list[object]:
    params: list[object] = []
    for pair_dir in PAIRS:
        for fact in load_facts(pair_dir):
            marks = [pytest.mark.xfail(strict=False, reason=fact.engine_reason)] if fact.engine_reason else []
            params.append(pytest.param(fact, id=f"{fact.pair}:{fact.id}", marks=marks))
    return params


@pytest.mark.parametrize("fact", _fact_params())
def test_fact(fact: object) -> None:
    check(fact)  # type: ignore[arg-type]


def test_the_set_has_ten_pairs_from_four_families_with_three_to_eight_facts_each() -> None:
    families = {load_yaml(p / "SOURCE.yaml")["family"] for p in PAIRS}
    assert len(PAIRS) >= 10
    assert len(families) >= 4
    for pair_dir in PAIRS:
        reader_facts = [f for f in load_facts(pair_dir) if f.engine_reason is None]
        assert 3 <= len(reader_facts) <= 8, pair_dir.name


@pytest.mark.parametrize("pair_dir", PAIRS, ids=[p.name for p in PAIRS])
def test_source_records_licence_and_bytes_as_committed(pair_dir: object) -> None:
    source = load_yaml(pair_dir / "SOURCE.yaml")  # type: ignore[operator]
    assert source["pair"] == pair_dir.name  # type: ignore[attr-defined]
    assert _SPDX.match(source["licence"]), source["licence"]
    assert source["attribution"].strip()
    assert source["repository"].startswith("https://github.com/")
    assert not any(r in source["repository"].lower() for r in RESERVED), source["repository"]
    for side in ("old", "new"):
        entry = source[side]
        assert re.fullmatch(r"[0-9a-f]{40}", entry["commit"])
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", entry["date"])
        data = (pair_dir / entry["file"]).read_bytes()  # type: ignore[operator]
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], f"{pair_dir}/{entry['file']}"
        assert entry["file"] == f"{side}.{'md' if entry['file'].endswith('.md') else 'txt'}"
    assert source["old"]["date"] <= source["new"]["date"]


def test_no_renumber_on_any_outside_pair_has_a_bullet_or_empty_label() -> None:
    bad = {p.name: bullet_renumbers(load_pair(p))[:3] for p in PAIRS if bullet_renumbers(load_pair(p))}
    assert bad == {}


def test_summarise_counts_are_consistent() -> None:
    for pair_dir in PAIRS:
        row = summarise(pair_dir)
        assert row["pair"] == pair_dir.name
        assert 0 < row["links"] <= min(row["blocks_old"], row["blocks_new"])
        assert row["inserted_blocks"] + row["links"] == row["blocks_new"]
        assert row["deleted_blocks"] + row["links"] == row["blocks_old"]
        assert summarise(OUTSIDE_DIR / pair_dir.name) == row
