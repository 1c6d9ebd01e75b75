"""Which stage makes which output directory, from which params: the manifests every consumer checks.

Each ``verify_*`` refuses (one :class:`AlignbenchError` line naming the stage to re-run) an input
directory whose manifest (:mod:`alignbench.manifest`) does not match this checkout's params and
engine, or whose files are not exactly the ones its stage wrote. The stage scripts call these
whether DVC runs them or a person runs ``python stages/<stage>.py`` directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from alignbench import manifest
from alignbench.errors import AlignbenchError
from alignbench.runs import alignment_config, read_params

REAL_DIR = "corpus/real"
SYNTHETIC_DIR = "corpus/synthetic"
FLOOR_DIR = "results/floor"
TABLES_DIR = "results/tables"


def alignments_dir(backend: str) -> str:
    return f"results/alignments/{backend}"


def align_engine(root: Path, backend: str, params: Mapping[str, Any] | None = None) -> str:
    """The engine version ``align@backend`` records under the current ``align:`` params."""
    from alignbench.alignment import engine_version

    return engine_version(alignment_config(params or read_params(root, "align"), backend))


def score_params(root: Path) -> dict[str, Any]:
    """Everything the score stage reads from params.yaml (the report checks the same)."""
    return {name: read_params(root, name) for name in ("align", "generate", "score")}


def write_stage_manifest(
    root: Path, relative: str, stage: str, params: Any, engine: str | None, files: Iterable[Path]
) -> None:
    manifest.write(root / relative, stage, params, engine, files)


def verify_corpus(root: Path, synthetic: bool = True) -> dict[str, str]:
    """The prepared real tier (and the synthetic tier under the current ``generate:`` params); the
    digest of each manifest read, for a consumer to record. A tier directory that does not exist is
    left to the completeness checks, which name every pair it should hold."""
    read: dict[str, str] = {}
    if (root / REAL_DIR).exists():
        manifest.verify(root, REAL_DIR, "prepare")
        read[REAL_DIR] = manifest.digest(root, REAL_DIR)
    if synthetic and (root / SYNTHETIC_DIR).exists():
        manifest.verify(root, SYNTHETIC_DIR, "generate", read_params(root, "generate"))
        read[SYNTHETIC_DIR] = manifest.digest(root, SYNTHETIC_DIR)
    return read


def made_by(root: Path, name: str) -> tuple[str, Any, str | None]:
    """What a registered engine's output manifest records: its stage, the params it was run with (our
    subject engines read ``align:``; the others none) and its engine version."""
    from alignbench.engines.registry import info
    from alignbench.engines.roles import SUBJECT

    engine = info(name)
    if engine.role == SUBJECT:
        params = read_params(root, "align")
        return engine.stage, params, align_engine(root, name, params)
    return engine.stage, None, engine.version


def verify_engine_outputs(root: Path) -> None:
    """Every selected subject engine under the current ``align:`` params and engine, and the reference
    (the floor): the outputs the score stage reads whole. Peers and third-party engines are scored only
    where their outputs match the documents (each records both documents' sha256)."""
    from alignbench.engines.registry import Roster, info, selected

    for name in Roster(selected(root)).headline:
        stage, params, version = made_by(root, name)
        manifest.verify(root, info(name).output_dir, stage, params, version)


def verify_score_outputs(root: Path) -> None:
    """The score stage's tables, latest.json, metrics.json and plots, all from one run at these params."""
    manifest.verify(root, TABLES_DIR, "score", score_params(root))


def verify_label_record(root: Path, record: Mapping[str, Any], read: Mapping[str, str]) -> None:
    """label_check's record (``results/labels.json``) names the corpus manifests it checked: they must
    be the ones on disk now (``read``), or the labels passed were another corpus's."""
    recorded = record.get("inputs")
    if recorded != dict(read):
        changed = sorted(
            name for name in read if not isinstance(recorded, Mapping) or recorded.get(name) != read[name]
        )
        shown = ", ".join(changed) or "its inputs"
        raise AlignbenchError(
            f"results/labels.json: label_check passed another {shown} than the one on disk; "
            f"{manifest.rerun_hint('label_check')}"
        )
