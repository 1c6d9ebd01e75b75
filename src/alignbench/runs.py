"""Batch runs over every labelled pair: every engine stage shares how a pair's documents load.

A pair is found through :func:`alignbench.tiers.discover`; its ``labels.yaml`` names both documents
(repo-relative), their format and profile, so every stage reads exactly what the labels describe.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench.atomic import dump_json, load_yaml, prune, write_texts
from alignbench.blocks import BlockTree
from alignbench.errors import AlignbenchError
from alignbench.tiers import TierPair, discover
from alignbench.yamlload import parse_yaml, read_text


@dataclass(frozen=True)
class LoadedPair:
    tier: str
    pair: str
    labels: dict[str, Any]
    source: BlockTree
    test: BlockTree


def read_params(root: Path, section: str) -> dict[str, Any]:
    """One section of ``params.yaml``; a missing section is a clear error naming the file."""
    path = root / "params.yaml"
    params = load_yaml(path, "params")
    if not isinstance(params, dict) or not isinstance(params.get(section), dict):
        raise AlignbenchError(f"{path}: missing the '{section}:' section; restore it from git")
    return params[section]


def _document(root: Path, labels: Mapping[str, Any], side: str, where: Path) -> BlockTree:
    from alignbench.stagecache import read_tree

    spec = labels.get(side)
    if not isinstance(spec, Mapping) or not spec.get("file"):
        raise AlignbenchError(f"{where}: '{side}.file' is missing; name the {side} document")
    path = root / spec["file"]
    if not path.is_file():
        raise AlignbenchError(f"{where}: {side}.file {spec['file']} does not exist; run `dvc repro` first")
    return read_tree(root, path, spec.get("format"), spec.get("profile"))


# The top-level keys ``dump_labels`` writes first: enough to find and read both documents.
_HEADER_KEYS = frozenset({"schema", "pair", "tier", "source", "test"})


def _labels_header(path: Path) -> Any:
    """Only the leading ``schema``..``test`` keys of a labels.yaml, or ``None`` when they are not first.

    align and floor need the two document specs, not the 16k label rows: parsing just the header (the
    lines before the first other top-level key) saves ~4 s per stage. A hand-edited file with another
    order falls back to the full parse; label_check has validated every file strictly already."""
    text = read_text(path)
    end = 0
    for line in text.splitlines(keepends=True):
        if line[:1] not in (" ", "\t", "\n", "\r") and line.split(":", 1)[0] not in _HEADER_KEYS:
            break
        end += len(line)
    header = parse_yaml(text[:end], str(path)) if end else None
    if isinstance(header, Mapping) and "source" in header and "test" in header:
        return header
    return None


def load_pair(root: Path, tier_pair: TierPair, header_only: bool = False) -> LoadedPair:
    """Labels and both document trees of one pair; with ``header_only`` the labels hold only the keys
    before the rows (schema, pair, tier, source, test), for stages that read nothing else.

    The schema is not re-validated here: the ``label_check`` stage, which every consumer depends on
    in dvc.yaml, validated every file already, and validating 16k rows again per stage costs seconds.
    """
    labels = _labels_header(tier_pair.labels_path) if header_only else None
    if labels is None:
        from alignbench.stagecache import parse_labels

        labels = parse_labels(root, tier_pair.labels_path)
    if not isinstance(labels, Mapping):
        raise AlignbenchError(
            f"{tier_pair.labels_path}: expected a label mapping; run `alignbench label check`"
        )
    where = (
        tier_pair.labels_path.relative_to(root)
        if tier_pair.labels_path.is_absolute()
        else tier_pair.labels_path
    )
    return LoadedPair(
        tier=tier_pair.tier,
        pair=tier_pair.pair,
        labels=labels,
        source=_document(root, labels, "source", where),
        test=_document(root, labels, "test", where),
    )


@dataclass(frozen=True)
class PairTask:
    """One pair's work, shipped to a worker: it loads the pair itself and returns the JSON text."""

    root: Path
    tier_pair: TierPair
    make: Callable[[LoadedPair], Mapping[str, Any]]
    header_only: bool = False

    def __call__(self) -> str:
        return dump_json(self.make(load_pair(self.root, self.tier_pair, self.header_only)))


def _run(task: PairTask) -> str:
    return task()


def write_per_pair(
    root: Path,
    out_dir: Path,
    make: Callable[[LoadedPair], Mapping[str, Any]],
    what: str = "stage",
    header_only: bool = False,
    made_by: tuple[str, Any, str | None] | None = None,
) -> list[Path]:
    """Write ``<out_dir>/<tier>/<pair>.json`` for every pair; drop stale JSON files no pair produced.

    The pairs are computed through :func:`alignbench.fanout.map_pairs` (in-process or on Dask) and
    only then written, in discovery order: a failing pair leaves every output as it was. ``make``
    sees only the labels' header (see :func:`load_pair`) when ``header_only``. ``made_by`` (stage,
    params, engine version) is recorded in the directory's manifest, written last
    (:mod:`alignbench.manifest`); the old one is removed before the first file is replaced."""
    from alignbench import manifest
    from alignbench.fanout import map_pairs

    pairs = discover(root)
    texts = map_pairs(
        _run,
        [PairTask(root, tier_pair, make, header_only) for tier_pair in pairs],
        [f"{tier_pair.tier}/{tier_pair.pair}" for tier_pair in pairs],
        what,
    )
    written = [out_dir / tier_pair.tier / f"{tier_pair.pair}.json" for tier_pair in pairs]
    stage, params, engine = made_by or (what, None, None)
    manifest.invalidate(out_dir)  # a run killed from here on leaves no manifest: consumers refuse it
    write_texts(list(zip(written, texts, strict=True)))
    prune(out_dir, written)  # the stage keeps its directory between runs: drop what no pair made
    manifest.write(out_dir, stage, params, engine, written)
    return written


def alignment_config(params: Mapping[str, Any], backend: str, without: str | None = None) -> Any:
    """The engine config of the ``align:`` params for one backend, optionally with one pass disabled."""
    from alignbench.alignment import AlignmentConfig

    mapping = dict(params)
    if without is not None:
        mapping["passes"] = [p for p in mapping.get("passes", []) if p != without]
    try:
        return AlignmentConfig.from_params(mapping, similarity=backend)
    except ValueError as exc:
        raise AlignbenchError(f"params.yaml align: {exc}; fix the value and re-run") from None


def align_loaded(loaded: LoadedPair, config: Any, prepared: Any = None) -> dict[str, Any]:
    """The Alignment JSON of one pair under one config; ``prepared`` (an
    :class:`alignbench.alignment.PreparedPair` of ``loaded``'s trees) shares work between its runs."""
    from alignbench.alignment import align

    return align(loaded.source, loaded.test, config, prepared=prepared).to_dict()


def read_stage_json(path: Path, shown: str, stage: str) -> Any:
    """A JSON file another stage writes; a missing or broken one names the stage that remakes it."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AlignbenchError(f"{shown} is missing; run `dvc repro {stage}`") from None
    except json.JSONDecodeError as exc:
        raise AlignbenchError(
            f"{shown}: not valid JSON (line {exc.lineno}); run `dvc repro -f {stage}`"
        ) from None
