"""The headline a pull request is judged by: the files ``dvc metrics show`` and ``dvc metrics diff`` read.

``dvc metrics show`` prints one row per metrics file and one column per key. One file holding every
tier, engine and metric printed one row 2,000 characters wide, so the headline is laid out the other
way round: one small file per tier and metric (``results/headline/<tier>/<metric>.json``, a row each)
whose keys are the engines, each followed by its bootstrap half-width (``difflib±``). The table stays
narrow whatever is added: a new metric is one more line in :data:`HEADLINE_METRICS` (one more row),
each selected subject engine (``params.yaml`` ``engines``) two columns. Everything else a run
measures is in ``results/metrics.json`` (not declared as DVC metrics), ``results/latest.json``,
``results/tables/`` and ``REPORT.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

HEADLINE_DIR = PurePosixPath("results/headline")
# (file name, the key of ``ratios.headline``): one row of `dvc metrics show` each, per tier.
HEADLINE_METRICS: tuple[tuple[str, str], ...] = (
    ("f1", "f1"),  # twins interchangeable (issue #27)
    ("f1_plain", "f1_plain"),  # the labelled partner only
    ("recall", "recall"),
    ("move_precision", "move_precision"),
    ("move_recall", "move_recall"),
    ("renumber_recall", "renumber_recall"),
)
HALF_WIDTH_MARK = "±"


def half_width(interval: list[float] | None) -> float | None:
    """Half the bootstrap interval's width: a change smaller than this is within the noise.

    The interval's ends are already rounded to 4 places, so the half-width is exact to 1e-4.
    """
    if interval is None:
        return None
    return round((interval[1] - interval[0]) / 2, 4)


def headline_files(summary: Mapping[str, Any], subjects: Sequence[str]) -> dict[str, dict[str, float | None]]:
    """``{relative path: {engine: value, engine±: half-width, ...}}`` for every tier and metric.

    A ratio with no denominator (no labelled move in a tier, say) is null, which DVC shows as ``-``.
    """
    files: dict[str, dict[str, float | None]] = {}
    for tier, data in summary["tiers"].items():
        for name, key in HEADLINE_METRICS:
            row: dict[str, float | None] = {}
            for engine in subjects:
                scored = data["engines"][engine]["all"]
                row[engine] = scored["headline"][key]
                row[engine + HALF_WIDTH_MARK] = half_width(scored["ci"][key])
            files[str(HEADLINE_DIR / tier / f"{name}.json")] = row
    return files
