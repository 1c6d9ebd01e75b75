"""The score stage's outputs, all written atomically and byte-stable (no clock, host or path)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from alignbench import manifest
from alignbench.atomic import dump_json, prune, write_texts
from alignbench.generate.holdout import read_holdout_seed
from alignbench.provenance import score_params as params_read_by_score
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
    latest = {"schema": LATEST_SCHEMA, **summary, "tables": [f"results/tables/{name}.csv" for name in tables]}
    results = root / "results"
    table_dir = results / "tables"
    files: list[tuple[Path, str]] = [
        (results / "metrics.json", dump_json(metrics_view(summary))),
        (results / "latest.json", dump_json(latest)),
        *((table_dir / f"{name}.csv", to_csv(frame)) for name, frame in tables.items()),
        *((results / "plots" / f"{b}.json", dump_json(plot_records(pairs, b))) for b in BACKENDS),
        (results / "plots" / "sweep.json", dump_json(sweep_records(summary, align_params))),
    ]
    manifest.invalidate(table_dir)  # a run killed from here on leaves no manifest: report refuses it
    write_texts(files)  # one flush to disk for all of them
    prune(table_dir, [table_dir / f"{name}.csv" for name in tables])  # kept between runs: drop old tables
    manifest.write(table_dir, "score", params_read_by_score(root), None, [path for path, _ in files])
    return latest


def gate_lines(latest: Mapping[str, Any]) -> list[str]:
    return [f"{g['name']}: {g['status']}" for g in latest["gates"]]
