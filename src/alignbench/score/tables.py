"""The CSV tables (:mod:`alignbench.score.texttable`): headline, per pass, per plan, per pair, backend delta
and leaderboard.

Values are written as fixed 4-place text with ``n/a`` for undefined ratios, so a CSV diff shows a
change of meaning, never a change of float formatting.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from alignbench.engines.registry import Roster, roster
from alignbench.score.aggregate import plan_counts
from alignbench.score.collect import ScoredPair, scored_peers
from alignbench.score.counts import COLUMNS, PairCounts
from alignbench.score.families import family_rows, per_family_frame
from alignbench.score.passes import PASS_NAMES
from alignbench.score.ratios import HEADLINES, fmt, headline, rounded, total
from alignbench.score.texttable import TextTable

LEADERBOARD_METRICS: tuple[str, ...] = (
    "f1",
    "precision",
    "recall",
    "spurious_rate",
    "move_precision",
    "move_recall",
    "move_pair_recall",
    "renumber_recall",
)


def _cell(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return fmt(value)
    return str(value)


def _frame(rows: list[dict[str, Any]], columns: Sequence[str]) -> TextTable:
    return TextTable.from_records([{c: _cell(r.get(c)) for c in columns} for r in rows], columns)


def headline_table(summary: Mapping[str, Any], engines: Roster | None = None) -> TextTable:
    engines = engines or roster()
    rows = []
    for tier, data in summary["tiers"].items():
        for engine in engines.headline:
            for column in COLUMNS:
                block = data["engines"][engine][column]
                for metric in HEADLINES:
                    ci = block["ci"][metric]
                    rows.append(
                        {
                            "tier": tier,
                            "engine": engine,
                            "column": column,
                            "metric": metric,
                            "value": block["headline"][metric],
                            "ci_low": ci[0] if ci else None,
                            "ci_high": ci[1] if ci else None,
                        }
                    )
    return _frame(rows, ["tier", "engine", "column", "metric", "value", "ci_low", "ci_high"])


def per_pass_table(summary: Mapping[str, Any], engines: Roster | None = None) -> TextTable:
    engines = engines or roster()
    rows = []
    for tier, data in summary["tiers"].items():
        for backend in engines.subjects:
            for name in PASS_NAMES:
                rows.append(
                    {"tier": tier, "backend": backend, "pass": name, **data["per_pass"][backend][name]}
                )
    return _frame(rows, ["tier", "backend", "pass", "made", "in_scope", "wrong", "wrong_rate", "unique"])


def per_plan_table(pairs: Sequence[ScoredPair], engines: Roster | None = None) -> TextTable:
    engines = engines or roster()
    rows = []
    for engine in engines.headline:
        for tier, plan, n, summed in plan_counts(pairs, engine):
            rows.append({"tier": tier, "plan": plan, "engine": engine, "pairs": n, **headline(summed)})
    columns = [
        "tier",
        "plan",
        "engine",
        "pairs",
        "precision",
        "recall",
        "f1",
        "spurious_rate",
        "move_recall",
        "move_pair_recall",
        "renumber_recall",
    ]
    return _frame(rows, columns).sorted_by(["tier", "plan", "engine"])


def per_pair_table(pairs: Sequence[ScoredPair], engines: Roster | None = None) -> TextTable:
    engines = engines or roster()
    rows = []
    for p in pairs:
        for engine in engines.headline:
            counts = p.counts[engine]["all"]
            h = headline(counts)
            rows.append(
                {
                    "tier": p.tier,
                    "pair": p.pair,
                    "plan": p.plan,
                    "engine": engine,
                    **counts.to_dict(),
                    "precision": h["precision"],
                    "recall": h["recall"],
                    "f1": h["f1"],
                    "move_recall": h["move_recall"],
                    "renumber_recall": h["renumber_recall"],
                }
            )
    columns = [
        "tier",
        "pair",
        "plan",
        "engine",
        "labelled_links",
        "reported_links",
        "hit_links",
        "spurious_links",
        "labelled_moves",
        "reported_moves",
        "hit_moves",
        "move_pairs_hit",
        "move_ceiling_lost",
        "labelled_renumbers",
        "reported_renumbers",
        "hit_renumbers",
        "splits",
        "merges",
        "unscored",
        "precision",
        "recall",
        "f1",
        "move_recall",
        "renumber_recall",
    ]
    return _frame(rows, columns)


def backend_delta_table(summary: Mapping[str, Any], engines: Roster | None = None) -> TextTable:
    """The second subject minus the first on every headline, from the rounded-at-output values'
    unrounded source."""
    pair = (engines or roster()).compared
    if pair is None:
        return _frame([], ["tier", "column", "metric", "delta"])
    first, second = pair
    rows = []
    for tier, data in summary["tiers"].items():
        for column in COLUMNS:
            counts = {b: data["engines"][b][column]["counts"] for b in pair}
            values = {b: headline(PairCounts(**counts[b])) for b in pair}
            for metric in HEADLINES:
                d, r = values[first][metric], values[second][metric]
                rows.append(
                    {
                        "tier": tier,
                        "column": column,
                        "metric": metric,
                        first: d,
                        second: r,
                        "delta": None if d is None or r is None else r - d,
                    }
                )
    return _frame(rows, ["tier", "column", "metric", first, second, "delta"])


def leaderboard_table(
    summary: Mapping[str, Any], pairs: Sequence[ScoredPair] = (), engines: Roster | None = None
) -> TextTable:
    """Our engines and the floor from the summary; scored peers from the same per-pair counts."""
    engines = engines or roster()
    peers = scored_peers(list(pairs), engines.peers)
    rows = []
    for tier, data in summary["tiers"].items():
        failed = data.get("failed_pairs", {})
        for engine in (*engines.headline, *engines.calibration):
            row: dict[str, Any] = {"tier": tier, "engine": engine, "failed_pairs": failed.get(engine, 0)}
            for column in COLUMNS:
                for metric in LEADERBOARD_METRICS:
                    row[f"{metric}_{column}"] = data["engines"][engine][column]["headline"][metric]
            rows.append(row)
        members = [p for p in pairs if p.tier == tier]
        for peer in peers:
            row = {"tier": tier, "engine": peer, "failed_pairs": sum(1 for p in members if peer in p.failed)}
            for column in COLUMNS:
                values = headline(total([p.counts[peer][column] for p in members]))
                for metric in LEADERBOARD_METRICS:
                    row[f"{metric}_{column}"] = rounded(values[metric])
            rows.append(row)
    columns = ["tier", "engine", "failed_pairs"] + [f"{m}_{c}" for c in COLUMNS for m in LEADERBOARD_METRICS]
    return _frame(rows, columns)


def per_family_table(
    pairs: Sequence[ScoredPair], engines: Roster | None = None, settings: Mapping[str, Any] | None = None
) -> TextTable:
    """The real tier per family (micro), with each scored peer's F1 beside ours and the floor's; with
    ``settings`` (the score stage's bootstrap), each subject figure's interval beside it."""
    engines = engines or roster()
    peers = scored_peers(list(pairs), engines.peers)
    rows = family_rows(pairs, peers, engines, settings)
    return per_family_frame(rows, peers, _cell, engines, intervals=settings is not None)


def all_tables(
    summary: Mapping[str, Any], pairs: Sequence[ScoredPair], engines: Roster | None = None
) -> dict[str, TextTable]:
    """File stem -> table, in a fixed order."""
    engines = engines or roster()
    return {
        "headline": headline_table(summary, engines),
        "per_pass": per_pass_table(summary, engines),
        "per_plan": per_plan_table(pairs, engines),
        "per_family": per_family_table(pairs, engines, summary.get("score_params")),
        "per_pair": per_pair_table(pairs, engines),
        "backend_delta": backend_delta_table(summary, engines),
        "leaderboard": leaderboard_table(summary, pairs, engines),
    }


def to_csv(frame: TextTable) -> str:
    return frame.to_csv()
