"""Run the floor-consistency check over the committed tiers or over the wild run's import.

Both the floor and the engine are run here, on the trees the pipeline reads, so the check never
reads a stale ``results/``: both take well under a second per pair. The engine's config is
params.yaml ``align:`` with the chosen similarity backend; the threshold is ``floorcheck:``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench.errors import AlignbenchError
from alignbench.floorcheck.consistency import Violation, check_pair

DEFAULT_BACKEND = "auto"  # the engine's own choice of similarity backend (alignment.config.BACKENDS)


@dataclass(frozen=True)
class Settings:
    """What one run needs from params.yaml: the threshold and the engine's ``align:`` section."""

    min_similarity: float
    align: Mapping[str, Any]


def read_settings(root: Path) -> Settings:
    """``floorcheck.min_similarity`` and ``align:`` of ``root/params.yaml`` (validated by its schema)."""
    from alignbench.yamlload import load_yaml

    path = root / "params.yaml"
    params = load_yaml(path, "params")
    section = params.get("floorcheck") if isinstance(params, dict) else None
    if not isinstance(section, dict) or "min_similarity" not in section:
        raise AlignbenchError(f"{path}: missing 'floorcheck: min_similarity:'; restore it from git")
    return Settings(min_similarity=float(section["min_similarity"]), align=params["align"])


def engine_alignment(source: Any, test: Any, align_params: Mapping[str, Any], backend: str) -> dict[str, Any]:
    from alignbench.alignment import align
    from alignbench.runs import alignment_config

    return align(source, test, alignment_config(align_params, backend)).to_dict()


def check_trees(
    name: str, source: Any, test: Any, settings: Settings, backend: str = DEFAULT_BACKEND
) -> list[Violation]:
    """Run the floor and the engine on one pair of trees and check the engine against the floor."""
    from alignbench.floor import floor_alignment

    floor = floor_alignment(source, test)
    engine = engine_alignment(source, test, settings.align, backend)
    return check_pair(name, source, test, floor, engine, settings.min_similarity)


def check_tiers(
    root: Path, tiers: Sequence[str], backend: str = DEFAULT_BACKEND, settings: Settings | None = None
) -> dict[str, list[Violation]]:
    """Every violation of every pair of the given tiers, keyed by tier (every asked tier present)."""
    from alignbench.runs import load_pair
    from alignbench.tiers import discover

    settings = settings or read_settings(root)
    found: dict[str, list[Violation]] = {tier: [] for tier in sorted(tiers)}
    for tier_pair in discover(root, tuple(sorted(tiers))):
        loaded = load_pair(root, tier_pair, header_only=True)
        name = f"{tier_pair.tier}/{tier_pair.pair}"
        found[tier_pair.tier] += check_trees(name, loaded.source, loaded.test, settings, backend)
    return found


@dataclass(frozen=True)
class WildJob:
    """One consecutive revision pair of the wild import (picklable, for forked workers)."""

    root: str
    old_file: str
    new_file: str
    name: str
    settings: Settings
    backend: str

    def __call__(self) -> list[dict[str, Any]]:
        from alignbench.readers import read

        source, test = read(Path(self.root) / self.old_file), read(Path(self.root) / self.new_file)
        return [v.to_dict() for v in check_trees(self.name, source, test, self.settings, self.backend)]


def _run_wild_job(job: WildJob) -> list[dict[str, Any]]:
    return job()


def check_wild(
    root: Path,
    dest: Path,
    limit: int | None = None,
    backend: str = DEFAULT_BACKEND,
    setting: str | None = None,
    settings: Settings | None = None,
) -> tuple[int, list[Violation]]:
    """The wild run's pairs (docs/WILD.md; development only, never a test): pairs run, violations."""
    from alignbench.fanout import map_pairs
    from alignbench.wild.history import consecutive_pairs, load_index
    from alignbench.wild.run import sample

    settings = settings or read_settings(root)
    chosen = sample(consecutive_pairs(load_index(dest)), limit)
    jobs = [
        WildJob(
            str(dest), old.file, new.file, f"{old.document}#{old.number}->{new.number}", settings, backend
        )
        for old, new in chosen
    ]
    results = map_pairs(_run_wild_job, jobs, [job.name for job in jobs], "floorcheck-wild", setting)
    return len(jobs), [Violation(**row) for rows in results for row in rows]
