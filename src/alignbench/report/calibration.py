"""The leaderboard's calibration lines: the scorer self-test, the other calibration rows, failed pairs.

The words about each calibration row are its plug-in's (``passed_note`` of a self-test row,
``report_note`` of any other)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from alignbench.engines.registry import info, roster
from alignbench.score.calibration import oracle_violations, self_test_engines


def calibration_notes(latest: Mapping[str, Any], names: Sequence[str] | None = None) -> list[str]:
    """Printed above the leaderboard so a reader sees the scale before the scores, and a broken scorer."""
    problems = oracle_violations(latest, names)
    checks = self_test_engines(names)
    if problems:
        verdict = f"**Scorer self-test: FAILED** ({'; '.join(problems)}). No score below can be trusted."
    else:
        verdict = " ".join(str(info(n).engine.passed_note) for n in checks)
    others = [n for n in roster(names).calibration if n not in checks]
    notes: list[str] = []
    for name in others:
        notes += [str(info(name).engine.report_note), ""]
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
        *notes,
        "**Intent-to-treat:** a pair an engine failed on or timed out on is scored as an alignment that "
        "found nothing - its gold links stay in the denominator as missed - and is never dropped; "
        "`failed_pairs` counts them per engine and tier. "
        + (f"Failed pairs: {failed_text}." if failed_text else "No engine failed on any pair."),
        "",
    ]
