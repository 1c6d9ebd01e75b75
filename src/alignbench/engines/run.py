"""Run one registered engine over every labelled pair into its output directory, whatever it is.

Shipped engines run in-process (the headline engines fan out over pairs on
:func:`alignbench.runs.write_per_pair`; peers run serially, as their host processes want); a
third-party engine runs isolated (:mod:`alignbench.engines.isolation`). A peer's and a third-party
engine's outputs record the sha256 of both documents, so the scorer can tell a stale frozen output
from a current one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench.atomic import dump_json, load_yaml, write_text
from alignbench.engines.registry import engine_params, info
from alignbench.engines.roles import CALIBRATION, PEER
from alignbench.errors import AlignbenchError
from alignbench.runs import LoadedPair, load_pair, write_per_pair
from alignbench.tiers import discover


def read_all_params(root: Path) -> dict[str, Any]:
    path = root / "params.yaml"
    params = load_yaml(path, "params")
    if not isinstance(params, dict):
        raise AlignbenchError(f"{path}: expected a mapping; restore it from git")
    return params


def document_hashes(root: Path, labels: Mapping[str, Any]) -> dict[str, str]:
    """sha256 of the two documents the labels name (label_check already proved they exist)."""
    return {
        side: hashlib.sha256((root / labels[side]["file"]).read_bytes()).hexdigest()
        for side in ("source", "test")
    }


@dataclass(frozen=True)
class EngineJob:
    """``make`` of :func:`alignbench.runs.write_per_pair`: picklable, found again by name in a worker."""

    name: str
    params: Mapping[str, Any]

    def __call__(self, loaded: LoadedPair) -> Mapping[str, Any]:
        return info(self.name).engine.align(loaded.source, loaded.test, self.params)


def _run_peer(root: Path, name: str, params: Mapping[str, Any]) -> list[Path]:
    """A shipped peer, serially; any failure inside the third-party library names the pair."""
    engine = info(name).engine
    out_dir = root / info(name).output_dir
    written: list[Path] = []
    try:
        for tier_pair in discover(root):
            loaded = load_pair(root, tier_pair)
            hashes = document_hashes(root, loaded.labels)
            try:
                output = engine.align(loaded.source, loaded.test, params)
            except AlignbenchError as exc:
                raise AlignbenchError(f"{loaded.tier}/{loaded.pair}: {exc}") from None
            except Exception as exc:  # a peer is third-party code: report its failure as one line
                raise AlignbenchError(
                    f"{loaded.tier}/{loaded.pair}: {name} failed ({type(exc).__name__}: {exc}); "
                    "check the peers extra matches requirements-peers.lock"
                ) from None
            target = out_dir / tier_pair.tier / f"{tier_pair.pair}.json"
            write_text(target, dump_json({"documents": dict(hashes), **output}))
            written.append(target)
    finally:
        close = getattr(engine, "close", None)
        if close is not None:
            close()
    keep = set(written)
    for stale in sorted(out_dir.rglob("*.json")):
        if stale not in keep:
            stale.unlink()
    return written


def run_engine(root: Path, name: str) -> list[Path]:
    """Write ``<output_dir>/<tier>/<pair>.json`` of engine ``name`` for every pair; returns the files."""
    engine_info = info(name)
    if engine_info.role == CALIBRATION:
        raise AlignbenchError(f"engine {name!r} is a calibration row: the score stage computes it")
    params = engine_params(name, read_all_params(root))
    if engine_info.third_party:
        from alignbench.engines.isolation import run_isolated

        return run_isolated(root, name).written
    if engine_info.role == PEER:
        return _run_peer(root, name, params)
    preload = getattr(engine_info.engine, "preload", None)
    if preload is not None:
        preload(params)  # imported (and params checked) once here, not once per forked worker
    out_dir = root / engine_info.output_dir
    from alignbench.provenance import made_by

    job = EngineJob(name, params)
    return write_per_pair(
        root, out_dir, job, what=engine_info.stage, header_only=True, made_by=made_by(root, name)
    )
