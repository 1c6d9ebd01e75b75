"""The leaderboard's calibration lines: the scorer self-test (oracle), the null row, failed pairs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from alignbench.score.calibration import oracle_violations


def calibration_notes(latest: Mapping[str, Any]) -> list[str]:
    """Printed above the leaderboard so a reader sees the scale before the scores, and a broken scorer."""
    problems = oracle_violations(latest)
    if problems:
        verdict = f"**Scorer self-test: FAILED** ({'; '.join(problems)}). No score below can be trusted."
    else:
        verdict = (
            "**Scorer self-test: passed.** The `oracle` row - the labels themselves turned into an "
            "alignment and scored by the same scorer - gives exactly 1.0000 on every accuracy metric "
            "(spurious rate 0.0000) in every tier and column (n/a where a tier has nothing of that kind)."
        )
    failed = {
        tier: {engine: n for engine, n in data.get("failed_pairs", {}).items() if n}
        for tier, data in latest["tiers"].items()
    }
    failed_text = "; ".join(
        f"{tier}: " + ", ".join(f"{engine} {n}" for engine, n in engines.items())
        for tier, engines in failed.items()
        if engines
    )
    return [
        verdict,
        "",
        "The `null` row pairs the i-th block of each kind in the source with the i-th block of that kind "
        "in the test, by position alone, and reports no change: the score of knowing nothing about the "
        "text. Every engine, the floor included, should be above it.",
        "",
        "**Intent-to-treat:** a pair an engine failed on or timed out on is scored as an alignment that "
        "found nothing - its gold links stay in the denominator as missed - and is never dropped; "
        "`failed_pairs` counts them per engine and tier. "
        + (f"Failed pairs: {failed_text}." if failed_text else "No engine failed on any pair."),
        "",
    ]
