"""The score stage's outputs, all written atomically and byte-stable (no clock, host or path)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from alignbench.atomic import write_json, write_text
from alignbench.generate.holdout import read_holdout_seed
from alignbench.runs import BACKENDS, read_params
from alignbench.score.aggregate import metrics_view, plot_records, summarise, sweep_records
from alignbench.score.collect import score_all
from alignbench.score.settings import score_settings
from alignbench.score.tables import all_tables, to_csv

LATEST_SCHEMA = "alignbench/latest/v1"


def score_repository(root: Path) -> dict[str, Any]:
    """Score every pair and write metrics.json, latest.json, tables/*.csv and the plot files."""
    score_params = score_settings(read_params(root, "score"))
    align_params = read_params(root, "align")
    pairs = score_all(root, align_params)
    summary = summarise(pairs, score_params, read_holdout_seed(root))
    tables = all_tables(summary, pairs)
    results = root / "results"
    write_json(results / "metrics.json", metrics_view(summary))
    latest = {"schema": LATEST_SCHEMA, **summary, "tables": [f"results/tables/{name}.csv" for name in tables]}
    write_json(results / "latest.json", latest)
    table_dir = results / "tables"
    for name, frame in tables.items():
        write_text(table_dir / f"{name}.csv", to_csv(frame))
    for stale in sorted(table_dir.glob("*.csv")):
        if stale.stem not in tables:
            stale.unlink()
    for backend in BACKENDS:
        write_json(results / "plots" / f"{backend}.json", plot_records(pairs, backend))
    write_json(results / "plots" / "sweep.json", sweep_records(summary, align_params))
    return latest


def gate_lines(latest: Mapping[str, Any]) -> list[str]:
    return [f"{g['name']}: {g['status']}" for g in latest["gates"]]
