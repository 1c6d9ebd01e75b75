"""What the engine stages do, kept out of ``stages/engines.py`` so the script stays thin."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from alignbench.atomic import dump_json, prune, write_text
from alignbench.engines.registry import PLUGIN_DIR, info, selection
from alignbench.engines.run import read_all_params, run_engine

INDEX_SCHEMA = "alignbench/engines-run/v1"


def run_named(root: Path, names: Sequence[str]) -> list[str]:
    lines = []
    for name in names:
        written = run_engine(root, name)
        lines.append(f"{name}: {len(written)} pairs written to {info(name).output_dir}")
    return lines


def run_third_party(root: Path) -> list[str]:
    """Every selected third-party engine, isolated; ``results/engines/index.json`` records the runs."""
    from alignbench.engines.isolation import run_isolated

    params = read_all_params(root)
    chosen = [n for n in selection(params, str(root / "params.yaml")) if info(n).third_party]
    index: dict[str, Any] = {"schema": INDEX_SCHEMA, "engines": {}}
    lines = []
    kept: list[Path] = [root / PLUGIN_DIR / "index.json"]
    for name in chosen:
        run = run_isolated(root, name, params)
        kept += run.written
        kinds: dict[str, int] = {}
        for failure in run.failed.values():
            kinds[failure["kind"]] = kinds.get(failure["kind"], 0) + 1
        index["engines"][name] = {
            "distribution": info(name).distribution,
            "version": info(name).version,
            "capabilities": info(name).capabilities.to_dict(),
            "pairs": len(run.written),
            "failed": dict(sorted(kinds.items())),
            "failed_pairs": dict(sorted(run.failed.items())),
        }
        lines.append(
            f"{name}: {len(run.written)} pairs, {len(run.failed)} failed, in {info(name).output_dir}"
        )
    write_text(root / PLUGIN_DIR / "index.json", dump_json(index))
    prune(root / PLUGIN_DIR, kept)  # an engine no longer selected leaves no output behind
    if not chosen:
        lines.append("no third-party engine is selected (params.yaml engines:)")
    return lines
