"""Score every pair of every tier: read the committed engine outputs, count, and re-run for ``unique``.

Pairs are visited in :func:`alignbench.tiers.discover` order (sorted by tier, then pair) and every
result is keyed the same way, so summed counts never depend on iteration order.

Which engines are scored, and how, comes from the engine registry (:mod:`alignbench.engines.registry`):
the selected engines of ``params.yaml engines:`` by role. Peer engines (shipped or third-party) are
scored by the same counts when their outputs cover every pair and were made from the current
documents (the sha256 each output records equals the labels'); otherwise that peer is left out whole,
never in part.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from alignbench.alignment import PreparedPair
from alignbench.engines import registry
from alignbench.engines.registry import Roster
from alignbench.engines.roles import REFERENCE
from alignbench.recent import RecentByIdentity
from alignbench.runs import LoadedPair, align_loaded, load_pair, read_stage_json
from alignbench.score.calibration import calibration_counts, failure_reason, scored_output
from alignbench.score.ceiling import twin_classes, unrecoverable_moves
from alignbench.score.counts import COLUMNS, PairCounts, count_reported, reported
from alignbench.score.families import REAL, pair_origin
from alignbench.score.holdout import ambiguous_pairs, half_of, is_control
from alignbench.score.passes import (
    DROPPABLE_PASSES,
    NOTHING_TO_LOSE,
    PassCounts,
    needs_rerun,
    pairs_by_pass,
    pass_counts,
)
from alignbench.score.ties import TruthReading, read_truth
from alignbench.score.trust import pair_trust
from alignbench.score.truth import Truth, truth_from_labels
from alignbench.score.verdicts import MoveVerdicts, move_verdicts
from alignbench.tiers import discover


@dataclass
class ScoredPair:
    tier: str
    pair: str
    plan: str
    trust: dict[str, Any]
    counts: dict[str, dict[str, PairCounts]] = field(default_factory=dict)  # engine -> column -> counts
    passes: dict[str, dict[str, PassCounts]] = field(default_factory=dict)  # backend -> pass -> counts
    verdicts: dict[str, MoveVerdicts] = field(default_factory=dict)  # backend -> verdicts
    engine_versions: dict[str, str] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)  # engine -> recorded failure (scored all-missed)
    half: str | None = None  # synthetic hold-out half (dev | check), None on the real tier
    control: bool = False
    ambiguous: dict[str, int] = field(default_factory=dict)  # backend -> pairs placed by order alone
    family: str | None = None  # real tier: the manifest's family (where the documents come from)
    restructured: bool = False  # real tier: marked heavy restructuring in corpus/pairs.yaml


def output_path(root: Path, engine: str, tier: str, pair: str) -> Path:
    return registry.output_path(root, engine, tier, pair)


def read_output(root: Path, engine: str, tier: str, pair: str) -> dict[str, Any]:
    path = output_path(root, engine, tier, pair)
    return load_json(path, str(path.relative_to(root)), registry.info(engine).stage)


# orjson reads an integer beyond 64 bits as a float where the standard parser keeps it exact: any run
# of 19 digits (found at C speed: every digit made "0", then one substring search) takes that parser.
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_DIGIT_RUN = b"0" * 19


def load_json(path: Path, shown: str, stage: str) -> Any:
    """``runs.read_stage_json``, parsed by orjson where that builds the same values: score reads ~2,500
    engine outputs (45 MB), and the standard parser took ~10% of the stage. A text with a long digit
    run (an integer orjson would turn into a float), one orjson refuses (NaN, a lone surrogate) and a
    missing or broken file go to the standard reader, which parses it or names the stage to re-run."""
    try:
        raw = path.read_bytes()
        if _LONG_DIGIT_RUN not in raw.translate(_DIGITS_AS_ZERO):
            return orjson.loads(raw)
    except (OSError, orjson.JSONDecodeError):
        pass
    return read_stage_json(path, shown, stage)


def plan_of(loaded: LoadedPair) -> str:
    """Synthetic pairs group by generator plan; hand-labelled pairs form one group per tier."""
    plan = (loaded.labels.get("provenance") or {}).get("plan")
    return str(plan) if plan else loaded.tier


def count_columns(
    truth: Truth,
    output: Mapping[str, Any],
    lost: frozenset[tuple[str, str]],
    reading: TruthReading,
    where: str,
    twins: tuple[Mapping[str, str], Mapping[str, str]] | None = None,
) -> dict[str, PairCounts]:
    """One engine's counts on one pair, per column, with the move ceiling and tie-set credit applied."""
    found = reported(output, where)  # read once for both columns
    return {
        column: count_reported(truth, found, column, move_ceiling_lost=lost, reading=reading, twins=twins)
        for column in COLUMNS
    }


# Consecutive pairs of one base document share their source tree: its twin classes are made once.
_twin_classes = RecentByIdentity(twin_classes)


def score_pair(
    root: Path, loaded: LoadedPair, align_params: Mapping[str, Any] | None, roster: Roster | None = None
) -> ScoredPair:
    """Counts of every engine on one pair; ``align_params`` enables the per-pass ``unique`` re-runs."""
    roster = roster or registry.roster()
    where = f"corpus labels of {loaded.tier}/{loaded.pair}"
    truth = truth_from_labels(loaded.labels, where)
    lost = unrecoverable_moves(truth, loaded.source, loaded.test)
    reading = read_truth(truth, loaded.source, loaded.test)
    twins = (_twin_classes(loaded.source), _twin_classes(loaded.test))
    scored = ScoredPair(loaded.tier, loaded.pair, plan_of(loaded), pair_trust(loaded.labels))
    scored.counts.update(
        calibration_counts(truth, loaded.source, loaded.test, lost, where, roster.calibration, loaded.labels)
    )
    scored.half, scored.control = half_of(loaded.labels), is_control(loaded.labels)
    if loaded.tier == REAL:
        origin = pair_origin(root, loaded.pair)
        scored.family, scored.restructured = origin.family, origin.restructured
        scored.control = scored.control or origin.control
    # Every re-run of this pair (each pass left out, each backend) shares the flattened trees and the
    # similarity memo, built on the first re-run: each result is the one a fresh run gives.
    prepared = PreparedPair(loaded.source, loaded.test)
    for engine in roster.headline:
        recorded = read_output(root, engine, loaded.tier, loaded.pair)
        output = _intent_to_treat(scored, engine, recorded)
        source = str(output_path(root, engine, loaded.tier, loaded.pair).relative_to(root))
        scored.counts[engine] = count_columns(truth, output, lost, reading, source, twins)
        if registry.info(engine).role == REFERENCE:
            continue
        scored.engine_versions[engine] = str((recorded.get("engine") or {}).get("version", ""))
        scored.ambiguous[engine] = ambiguous_pairs(output)
        scored.verdicts[engine] = move_verdicts(
            truth, loaded.labels, output, source, (loaded.source, loaded.test)
        )
        reduced: dict[str, Mapping[str, Any]] = {}
        grouped = pairs_by_pass(output)
        if align_params is not None:
            enabled = list(align_params.get("passes") or [])
            for name in DROPPABLE_PASSES:
                if name in enabled and not needs_rerun(truth, output, name, grouped):
                    reduced[name] = NOTHING_TO_LOSE
                elif name in enabled:
                    config = registry.info(engine).engine.config(align_params, without=name)
                    reduced[name] = align_loaded(loaded, config, prepared)
        scored.passes[engine] = pass_counts(truth, output, reduced, grouped)
    for peer in roster.peers:
        recorded = current_peer_output(root, peer, loaded)
        if recorded is not None:
            output = _intent_to_treat(scored, peer, recorded)
            source = str(output_path(root, peer, loaded.tier, loaded.pair).relative_to(root))
            scored.counts[peer] = count_columns(truth, output, lost, reading, source, twins)
    return scored


def _intent_to_treat(scored: ScoredPair, engine: str, output: dict[str, Any]) -> Mapping[str, Any]:
    """A failed run counts as finding nothing (its gold links stay missed) and is recorded as failed."""
    reason = failure_reason(output)
    if reason is not None:
        scored.failed[engine] = reason
    return scored_output(output)


def current_peer_output(root: Path, peer: str, loaded: LoadedPair) -> dict[str, Any] | None:
    """A peer's output for this pair, or ``None`` if it is absent or was made from other documents."""
    if not output_path(root, peer, loaded.tier, loaded.pair).is_file():
        return None
    output = read_output(root, peer, loaded.tier, loaded.pair)
    made_from = output.get("documents") or {}
    for side in ("source", "test"):
        if made_from.get(side) != (loaded.labels.get(side) or {}).get("sha256"):
            return None
    return output


def scored_peers(pairs: list[ScoredPair], peers: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The peers (default: the default selection's) every pair has current outputs for (none when
    there are no pairs)."""
    peers = registry.roster().peers if peers is None else peers
    return tuple(peer for peer in peers if pairs and all(peer in p.counts for p in pairs))


def score_all(
    root: Path, align_params: Mapping[str, Any] | None, roster: Roster | None = None
) -> list[ScoredPair]:
    roster = roster or registry.Roster(registry.selected(root))
    pairs = [score_pair(root, load_pair(root, tp), align_params, roster) for tp in discover(root)]
    keep = scored_peers(pairs, roster.peers)
    for p in pairs:  # a peer missing any pair is left out whole, so no tier is scored on a subset
        for peer in roster.peers:
            if peer not in keep:
                p.counts.pop(peer, None)
    return pairs
