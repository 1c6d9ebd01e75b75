"""Release gates (seed 000, issue 7), read from the committed results/metrics.json.

Each is ``xfail(strict=True)`` while unmet: the day a gate is met its test fails because it passed,
so the mark has to be removed on purpose. A gate on a tier that is not assessed (engine-proposed
rows, or hand labels no human signed) is unmet however high the number.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

METRICS = Path(__file__).resolve().parent.parent / "results" / "metrics.json"
BACKENDS = ("difflib", "rapidfuzz")


def _metrics() -> dict:
    if not METRICS.is_file():
        pytest.fail("results/metrics.json is missing; run `dvc repro score`")
    return json.loads(METRICS.read_text(encoding="utf-8"))


def _assessed(metrics: dict, tier: str) -> None:
    assert metrics[tier]["pairs"] > 0, f"{tier} tier has no labelled pairs"
    assert metrics[tier]["assessed"] == 1, (
        f"{tier} tier is not assessed (proposed rows or no human signature)"
    )


def _ratio_at_least(tier: str, metric: str, threshold: float) -> None:
    metrics = _metrics()
    _assessed(metrics, tier)
    for backend in BACKENDS:
        value = metrics[tier][backend][metric]
        assert value is not None and value >= threshold, f"{tier} {backend} {metric} = {value} < {threshold}"


def _verdict_count_zero(field: str) -> None:
    metrics = _metrics()
    _assessed(metrics, "real")
    for backend in BACKENDS:
        assert metrics["real"][backend][f"moves_{field}"] == 0, f"real {backend}: {field} engine moves"


def test_synthetic_f1_at_least_0_95():
    _ratio_at_least("synthetic", "f1", 0.95)


@pytest.mark.xfail(strict=True, reason="issue 7 gate: real F1 >= 0.85; not assessed until a human signs")
def test_real_f1_at_least_0_85():
    _ratio_at_least("real", "f1", 0.85)


def test_synthetic_move_recall_at_least_0_90():
    _ratio_at_least("synthetic", "move_recall", 0.90)


@pytest.mark.xfail(strict=True, reason="issue 7 gate: no engine move ruled wrong (real tier not assessed)")
def test_zero_moves_ruled_wrong():
    _verdict_count_zero("wrong")


@pytest.mark.xfail(strict=True, reason="issue 7 gate: every engine move reviewed (real tier not assessed)")
def test_zero_unreviewed_engine_moves():
    _verdict_count_zero("unreviewed")
