"""The plain-scalar shortcut of the label dumper answers exactly as the YAML round trip it skips."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from alignbench.labels import io
from alignbench.labels.fastload import load_labels_yaml

ROOT = Path(__file__).resolve().parent.parent


def _scalars(value: object) -> list[str]:
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_scalars(k), *_scalars(v))]
    if isinstance(value, list):
        return [s for v in value for s in _scalars(v)]
    return [value] if isinstance(value, str) and value else []


def _agree(texts: list[str]) -> list[str]:
    return [t for t in texts if io._plain_is_safe(t) != io._plain_round_trips.__wrapped__(t)]


def test_shortcut_matches_round_trip_on_committed_label_scalars() -> None:
    texts: set[str] = set()
    real = sorted((ROOT / "corpus" / "labels" / "real").glob("*/labels.yaml"))
    for path in real[:30] + sorted((ROOT / "corpus" / "synthetic").glob("*/labels.yaml"))[:30]:
        # the fast reader: the strict loader's values (test_labels_fastload), in a fifth of its time
        texts.update(_scalars(load_labels_yaml(path)))
    assert len(texts) > 500
    assert _agree(sorted(texts)) == []


@pytest.mark.parametrize(
    "text",
    [
        "yes",
        "No",
        "ON",
        "off",
        "null",
        "Null",
        "true",
        "y",
        "n",
        "nan",
        "inf",
        "0b101",
        "0x1f",
        "0b1e",
        "123",
        "0123",
        "1e5",
        "12e3",
        "1_000",
        "a:b",
        "a b",
        "2020-01-01",
        "~",
        "a#b",
        "c-7bf3f3ffd6f9",
        "d3217a8ee30c310e",
        "599bfba7f9afecfc",
        "alignbench/labels/v1",
        "stages/prepare.py",
        "x.",
    ],
)
def test_shortcut_matches_round_trip_on_edge_cases(text: str) -> None:
    assert io._plain_is_safe(text) == io._plain_round_trips.__wrapped__(text)


def test_shortcut_matches_round_trip_on_fuzz() -> None:
    rng = random.Random(13)
    alphabet = "abcdefxyYnNoOtTrRuUlLsS0123456789._/-:e "
    texts = sorted({"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))) for _ in range(6000)})
    assert _agree(texts) == []
