"""The score stage's outputs, all written atomically and byte-stable (no clock, host or path)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from alignbench import manifest
from alignbench.atomic import dump_json, prune, write_texts
from alignbench.engines.registry import Roster, selected
from alignbench.generate.holdout import read_holdout_seed
from alignbench.provenance import score_params as params_read_by_score
from alignbench.runs import read_params
from alignbench.score.aggregate import metrics_view, plot_records, summarise, sweep_records
from alignbench.score.collect import score_all
from alignbench.score.dvcmetrics import HEADLINE_DIR, headline_files
from alignbench.score.settings import score_settings
from alignbench.score.tables import all_tables, to_csv

LATEST_SCHEMA = "alignbench/latest/v1"


def score_repository(root: Path) -> dict[str, Any]:
    """Score every pair and write the headline (headline/<tier>/<metric>.json, what `dvc metrics`
    reads), metrics.json, latest.json, tables/*.csv and the plot files."""
    score_params = score_settings(read_params(root, "score"))
    align_params = read_params(root, "align")
    engines = Roster(selected(root))
    pairs = score_all(root, align_params, engines)
    summary = summarise(pairs, score_params, read_holdout_seed(root), engines)
    tables = all_tables(summary, pairs, engines)
    latest = {"schema": LATEST_SCHEMA, **summary, "tables": [f"results/tables/{name}.csv" for name in tables]}
    results = root / "results"
    table_dir = results / "tables"
    headline = {
        root / path: dump_json(row) for path, row in headline_files(summary, engines.subjects).items()
    }
    files: list[tuple[Path, str]] = [
        *headline.items(),
        (results / "metrics.json", dump_json(metrics_view(summary))),
        (results / "latest.json", dump_json(latest)),
        *((table_dir / f"{name}.csv", to_csv(frame)) for name, frame in tables.items()),
        *((results / "plots" / f"{b}.json", dump_json(plot_records(pairs, b))) for b in engines.subjects),
        (results / "plots" / "sweep.json", dump_json(sweep_records(summary, align_params, engines.subjects))),
    ]
    manifest.invalidate(table_dir)  # a run killed from here on leaves no manifest: report refuses it
    write_texts(files)  # one flush to disk for all of them
    prune(table_dir, [table_dir / f"{name}.csv" for name in tables])  # kept between runs: drop old tables
    prune(root / HEADLINE_DIR, list(headline))  # a metric or tier dropped leaves no stale row behind
    plots = [path for path, _ in files if path.parent == results / "plots"]
    prune(results / "plots", plots)  # a subject no longer selected leaves no plot behind
    manifest.write(table_dir, "score", params_read_by_score(root), None, [path for path, _ in files])
    return latest


def gate_lines(latest: Mapping[str, Any]) -> list[str]:
    return [f"{g['name']}: {g['status']}" for g in latest["gates"]]
