"""Sum pair counts per tier (micro-average), attach bootstrap intervals, gates and move verdicts.

Everything returned is plain data with floats rounded to 4 places at this edge only; ratios were
computed from unrounded integer sums.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from alignbench.engines import registry
from alignbench.engines.registry import Roster
from alignbench.engines.roles import REFERENCE, SUBJECT
from alignbench.score.calibration import failed_pairs
from alignbench.score.collect import ScoredPair, scored_peers
from alignbench.score.counts import COLUMNS, PairCounts
from alignbench.score.holdout import assign_family_halves, holdout_summary
from alignbench.score.passes import PASS_NAMES, PassCounts
from alignbench.score.ratios import bootstrap_indices, bootstrap_intervals, headline, ratio, rounded, total
from alignbench.score.trust import tier_trust
from alignbench.score.verdicts import MoveVerdicts
from alignbench.tiers import TIERS

# name, tier, metric (all column), threshold; the verdict gates compare a count with zero.
RATIO_GATES: tuple[tuple[str, str, str, float], ...] = (
    ("synthetic_f1", "synthetic", "f1", 0.95),
    ("real_f1", "real", "f1", 0.85),
    ("synthetic_move_recall", "synthetic", "move_recall", 0.90),
)
VERDICT_GATES: tuple[tuple[str, str, str], ...] = (
    ("zero_moves_ruled_wrong", "real", "wrong"),
    ("zero_unreviewed_engine_moves", "real", "unreviewed"),
)


def _round_all(values: Mapping[str, float | None]) -> dict[str, float | None]:
    return {k: rounded(v) for k, v in values.items()}


def _interval(value: tuple[float, float] | None) -> list[float] | None:
    return None if value is None else [round(value[0], 4), round(value[1], 4)]


def tier_pairs(pairs: Sequence[ScoredPair], tier: str) -> list[ScoredPair]:
    return [p for p in pairs if p.tier == tier]


def engine_summary(
    pairs: Sequence[ScoredPair], engine: str, indices: Any, confidence: float
) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for column in COLUMNS:
        counts = [p.counts[engine][column] for p in pairs]
        summed = total(counts)
        intervals = bootstrap_intervals(counts, indices, confidence)
        summary[column] = {
            "counts": summed.to_dict(),
            "headline": _round_all(headline(summed)),
            "ci": {name: _interval(intervals[name]) for name in intervals},
        }
    return summary


def pass_table(pairs: Sequence[ScoredPair], backend: str) -> dict[str, dict[str, Any]]:
    table: dict[str, dict[str, Any]] = {}
    for name in PASS_NAMES:
        summed = PassCounts(unique=0)
        for p in pairs:
            summed = summed + p.passes[backend][name]
        table[name] = {
            "made": summed.made,
            "in_scope": summed.in_scope,
            "wrong": summed.wrong,
            "wrong_rate": rounded(ratio(summed.wrong, summed.in_scope)),
            "unique": summed.unique if pairs else None,
        }
    return table


def verdict_summary(pairs: Sequence[ScoredPair], backend: str) -> dict[str, int]:
    summed = MoveVerdicts()
    for p in pairs:
        summed = summed + p.verdicts[backend]
    return {
        "unlabelled": summed.unlabelled,
        "wrong": summed.wrong,
        "acceptable": summed.acceptable,
        "unreviewed": summed.unreviewed,
    }


def summarise(
    pairs: Sequence[ScoredPair],
    score_params: Mapping[str, Any],
    holdout_seed: int | None = None,
    roster: Roster | None = None,
) -> dict[str, Any]:
    """The whole scored state: per tier trust, engines (with CIs), per-pass tables, verdicts, the
    hold-out halves (the real tier's by family when ``holdout_seed`` is given); and gates."""
    roster = roster or registry.roster()
    subjects = roster.subjects
    samples, seed = int(score_params["bootstrap_samples"]), int(score_params["bootstrap_seed"])
    confidence = float(score_params["confidence"])
    tiers: dict[str, Any] = {}
    # peers only when every pair has their output; the calibration rows always
    engines = (*roster.headline, *roster.calibration, *scored_peers(list(pairs), roster.peers))
    for tier in TIERS:
        members = tier_pairs(pairs, tier)
        indices = bootstrap_indices(len(members), samples, seed)
        tiers[tier] = {
            "pairs": [p.pair for p in members],
            # declared controls: pairs meant to change nothing that counts, counted apart
            "controls": sum(1 for p in members if p.control),
            "trust": {
                k: (rounded(v) if isinstance(v, float) else v)
                for k, v in tier_trust([p.trust for p in members]).items()
            },
            "engines": {engine: engine_summary(members, engine, indices, confidence) for engine in engines},
            "failed_pairs": failed_pairs(members, engines),
            "per_pass": {backend: pass_table(members, backend) for backend in subjects},
            "move_verdicts": {backend: verdict_summary(members, backend) for backend in subjects},
        }
    versions = sorted({(b, p.engine_versions[b]) for p in pairs for b in subjects})
    return {
        "score_params": {"bootstrap_samples": samples, "bootstrap_seed": seed, "confidence": confidence},
        "engine_versions": {b: sorted(v for name, v in versions if name == b) for b in subjects},
        "tiers": tiers,
        "holdout": holdout_summary(pairs, subjects=subjects),
        "holdout_real": (
            {}
            if holdout_seed is None
            else holdout_summary(pairs, "real", assign_family_halves(pairs, holdout_seed), subjects)
        ),
        "gates": gates(tiers, subjects),
    }


def gates(tiers: Mapping[str, Any], subjects: Sequence[str]) -> list[dict[str, Any]]:
    """Each gate per subject engine; met only when every one meets it; not assessed when the tier is not.

    "No engine move ruled wrong" is also not assessed while any engine move is unreviewed: with no
    verdict applying the count of moves ruled wrong is zero because nobody ruled, which says nothing
    about whether they are right.
    """
    result = []
    for name, tier, metric, threshold in RATIO_GATES:
        values = {b: tiers[tier]["engines"][b]["all"]["headline"][metric] for b in subjects}
        met = all(v is not None and v >= threshold for v in values.values())
        assessed = bool(tiers[tier]["trust"]["assessed"])
        result.append(_gate(name, tier, f"{metric} >= {threshold}", values, met, assessed))
    for name, tier, field in VERDICT_GATES:
        verdicts = tiers[tier]["move_verdicts"]
        values = {b: verdicts[b][field] for b in subjects}
        met = all(v == 0 for v in values.values())
        assessed = bool(tiers[tier]["trust"]["assessed"])
        if field == "wrong":
            assessed = assessed and all(verdicts[b]["unreviewed"] == 0 for b in subjects)
        result.append(_gate(name, tier, f"{field} engine moves == 0", values, met, assessed))
    return result


def _gate(
    name: str, tier: str, rule: str, values: Mapping[str, Any], met: bool, assessed: bool
) -> dict[str, Any]:
    status = "met" if assessed and met else ("unmet" if assessed else "not assessed")
    return {
        "name": name,
        "tier": tier,
        "rule": rule,
        "values": dict(values),
        "met": met,
        "assessed": assessed,
        "status": status,
    }


# results/metrics.json: the figures a reviewer may want beside the headline (score/dvcmetrics.py, what
# `dvc metrics diff` reads by default); it is not declared as DVC metrics, so it is read with
# `dvc metrics diff --targets results/metrics.json`. Everything else is in results/latest.json,
# results/tables/ and REPORT.md.
HEADLINE_METRICS: tuple[str, ...] = ("f1", "f1_plain", "move_precision", "move_recall", "renumber_recall")
VERDICT_FIELDS: tuple[str, ...] = ("wrong", "unreviewed")
# The hold-out in a diff: is the engine as good on check as on dev? Full figures stay in latest.json.
HOLDOUT_METRICS: tuple[str, ...] = ("f1", "move_recall")


def metrics_view(summary: Mapping[str, Any]) -> dict[str, Any]:
    """``results/metrics.json``: per tier and backend the headline again with the move verdicts, the
    floor's F1, the hold-out halves and each gate's status (null for n/a)."""
    view: dict[str, Any] = {}
    for tier, data in summary["tiers"].items():
        tier_view: dict[str, Any] = {"pairs": len(data["pairs"]), "assessed": int(data["trust"]["assessed"])}
        for engine, columns in data["engines"].items():
            headline_all = columns["all"]["headline"]
            role = registry.info(engine).role
            if role == REFERENCE:
                tier_view[engine] = {"f1": headline_all["f1"], "f1_plain": headline_all["f1_plain"]}
                tier_view["labelled_reparented"] = columns["all"]["counts"]["labelled_reparented"]
                continue
            if role != SUBJECT:
                continue
            engine_view = {metric: headline_all[metric] for metric in HEADLINE_METRICS}
            engine_view["reparented"] = columns["all"]["counts"]["reported_reparented"]
            verdicts = data["move_verdicts"].get(engine)
            if verdicts is not None:
                engine_view.update({f"moves_{k}": verdicts[k] for k in VERDICT_FIELDS})
            tier_view[engine] = engine_view
        view[tier] = tier_view
    for key in ("holdout", "holdout_real"):
        holdout = summary.get(key) or {}
        if holdout.get("engines"):
            view[key] = {
                backend: {
                    half: {metric: data[half][metric] for metric in HOLDOUT_METRICS}
                    for half in ("dev", "check", "gap")
                }
                for backend, data in holdout["engines"].items()
            }
    # A gate reads as what it means: "met", "unmet" or "not assessed", never a 1 a reader takes for met.
    view["gates"] = {g["name"]: g["status"] for g in summary["gates"]}
    return view


def plan_counts(
    pairs: Sequence[ScoredPair], engine: str, column: str = "all"
) -> list[tuple[str, str, int, PairCounts]]:
    """(tier, plan, number of pairs, summed counts), sorted by tier then plan."""
    groups: dict[tuple[str, str], list[PairCounts]] = {}
    for p in pairs:
        groups.setdefault((p.tier, p.plan), []).append(p.counts[engine][column])
    return [
        (tier, plan, len(groups[(tier, plan)]), total(groups[(tier, plan)])) for tier, plan in sorted(groups)
    ]


def plot_records(pairs: Sequence[ScoredPair], backend: str) -> list[dict[str, Any]]:
    """Per plan ``{plan, f1, precision, recall}`` for ``dvc plots``."""
    records = []
    for tier, plan, _, summed in plan_counts(pairs, backend):
        h = headline(summed)
        label = plan if plan == tier else f"{tier}:{plan}"
        records.append(
            {
                "plan": label,
                "f1": rounded(h["f1"]),
                "precision": rounded(h["precision"]),
                "recall": rounded(h["recall"]),
            }
        )
    return records


SWEEP_PARAM = "fuzzy_min_similarity"


# The figures drawn against the threshold, as their series names say them.
SWEEP_FIGURES: tuple[tuple[str, str], ...] = (("f1", "F1"), ("move_recall", "move recall"))


def sweep_records(
    summary: Mapping[str, Any], align_params: Mapping[str, Any], subjects: Sequence[str]
) -> list[dict[str, Any]]:
    """One point per tier, figure and subject engine at this run's ``align.fuzzy_min_similarity``.

    A single run is one point per series; `dvc plots diff` over the experiments of a sweep overlays
    every run's points, which draws each figure against the threshold. Long form (one ``value`` per
    record, its ``series`` naming tier and figure) so each series gets its own colour.
    """
    records = []
    for tier, data in summary["tiers"].items():
        for key, figure in SWEEP_FIGURES:
            for backend in subjects:
                records.append(
                    {
                        SWEEP_PARAM: align_params.get(SWEEP_PARAM),
                        "series": f"{tier} {figure}",
                        "backend": backend,
                        "value": data["engines"][backend]["all"]["headline"][key],
                    }
                )
    return records
