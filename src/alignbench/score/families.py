"""The real tier per family (issue 12): one tier-wide F1 can hide a family the engine cannot read.

A family is where a pair's documents come from (GitHub site policy, Common Paper, US bills, ...), as
recorded by the prepare stage in ``corpus/real/<pair>/manifest.json``. Figures are micro-averaged: the
integer counts of the family's pairs are summed and each ratio is computed once from the sums, as for
the tier headline, so a family's F1 is never a mean of per-pair F1s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench.errors import AlignbenchError
from alignbench.runs import read_stage_json
from alignbench.score.ratios import headline, total
from alignbench.score.texttable import TextTable

REAL = "real"
ALL_FAMILIES = "all families"


@dataclass(frozen=True)
class PairOrigin:
    family: str
    restructured: bool
    control: bool


def pair_origin(root: Path, pair: str) -> PairOrigin:
    """Family, heavy-restructuring flag and control flag of one real pair, from its manifest."""
    shown = f"corpus/real/{pair}/manifest.json"
    manifest = read_stage_json(root / shown, shown, "prepare")
    family = manifest.get("family") if isinstance(manifest, dict) else None
    if not isinstance(family, str) or not family:
        raise AlignbenchError(f"{shown}: field 'family' is missing or empty; run `dvc repro -f prepare`")
    return PairOrigin(family, manifest.get("restructured") is not None, manifest.get("control") is True)


# The subject engines' figures that carry a bootstrap interval per family (issue #27).
INTERVAL_METRICS: tuple[str, ...] = ("f1", "f1_plain", "move_precision", "move_recall")


def _intervals(members: Sequence[Any], engine: str, settings: Mapping[str, Any] | None) -> dict[str, Any]:
    """``metric -> [low, high]`` over the family's pairs resampled (the tier's bootstrap settings)."""
    if settings is None:
        return {}
    from alignbench.score.ratios import bootstrap_indices, bootstrap_intervals

    indices = bootstrap_indices(
        len(members), int(settings["bootstrap_samples"]), int(settings["bootstrap_seed"])
    )
    found = bootstrap_intervals(
        [p.counts[engine]["all"] for p in members], indices, float(settings["confidence"])
    )
    return {m: found.get(m) for m in INTERVAL_METRICS}


def _row(
    family: str,
    members: Sequence[Any],
    peers: Sequence[str],
    engines: Any,
    settings: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    reference = engines.reference
    counts = total([p.counts[reference or engines.headline[0]]["all"] for p in members])
    row: dict[str, Any] = {
        "family": family,
        "pairs": len(members),
        "restructured": sum(1 for p in members if p.restructured),
        "labelled_links": counts.labelled_links,
        "labelled_moves": counts.labelled_moves,
        "labelled_renumbers": counts.labelled_renumbers,
    }
    for backend in engines.subjects:
        values = headline(total([p.counts[backend]["all"] for p in members]))
        row[f"{backend}_f1"] = values["f1"]
        row[f"{backend}_f1_plain"] = values["f1_plain"]
        row[f"{backend}_move_precision"] = values["move_precision"]
        row[f"{backend}_move_recall"] = values["move_recall"]
        for metric, interval in _intervals(members, backend, settings).items():
            row[f"{backend}_{metric}_ci"] = (
                None if interval is None else f"[{interval[0]:.4f}, {interval[1]:.4f}]"
            )
    if reference is not None:
        row[f"{reference}_f1"] = headline(counts)["f1"]
    for peer in peers:
        row[f"{peer}_f1"] = headline(total([p.counts[peer]["all"] for p in members]))["f1"]
    return row


def family_columns(peers: Sequence[str], engines: Any = None, intervals: bool = False) -> list[str]:
    """``engines`` is an :class:`alignbench.engines.registry.Roster` (default: the default selection);
    ``intervals`` adds each subject figure's bootstrap interval column (``<metric>_ci``)."""
    engines = engines or _default_roster()
    columns = ["family", "pairs", "restructured", "labelled_links", "labelled_moves", "labelled_renumbers"]
    for backend in engines.subjects:
        columns += [
            f"{backend}_f1",
            f"{backend}_f1_plain",
            f"{backend}_move_precision",
            f"{backend}_move_recall",
        ]
        if intervals:
            columns += [f"{backend}_{metric}_ci" for metric in INTERVAL_METRICS]
    reference = [f"{engines.reference}_f1"] if engines.reference else []
    return columns + reference + [f"{peer}_f1" for peer in peers]


def _default_roster() -> Any:
    from alignbench.engines.registry import roster

    return roster()


def family_rows(
    pairs: Sequence[Any], peers: Sequence[str], engines: Any = None, settings: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]:
    """One row per family of the real tier (sorted by name), then the whole tier.

    A real pair scored without a manifest family (a test fixture) is grouped under ``n/a`` rather
    than dropped, so the rows always add up to the tier.
    """
    real = [p for p in pairs if p.tier == REAL]
    groups: dict[str, list[Any]] = {}
    for p in real:
        groups.setdefault(p.family or "n/a", []).append(p)
    engines = engines or _default_roster()
    rows = [_row(family, groups[family], peers, engines, settings) for family in sorted(groups)]
    if real:
        rows.append(_row(ALL_FAMILIES, real, peers, engines, settings))
    return rows


def per_family_frame(
    rows: list[dict[str, Any]], peers: Sequence[str], cell: Any, engines: Any = None, intervals: bool = False
) -> TextTable:
    columns = family_columns(peers, engines, intervals)
    return TextTable.from_records([{c: cell(r.get(c)) for c in columns} for r in rows], columns)
