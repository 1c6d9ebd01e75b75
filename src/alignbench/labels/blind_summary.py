"""The blind second pass as REPORT.md shows it: the draw's bars, agreement per stratum and kind, rulings.

Everything is recomputed from committed files, never typed: the bars from the draw rule
(:mod:`alignbench.labels.stratify`) on today's primary labels, agreement from each pair's
``agreement.json`` (frozen before adjudication, so it measures the labellers, not the adjudicator),
and rulings from ``review.adjudications`` in each ``labels.yaml``. Agreement is pooled per stratum,
F1 = 2 * agreed / (a + b) over the summed counts, because one hard pair's 40 moves should weigh more
than an easy pair's none.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from alignbench.errors import AlignbenchError
from alignbench.labels.agree import AGREEMENT_KINDS
from alignbench.labels.fastload import load_labels_yaml
from alignbench.labels.stratify import (
    DRAW_RULE,
    SUBSET_FILE,
    draw,
    facts_from_repo,
    pending_pairs,
    read_subset,
)

REAL_LABELS = "corpus/labels/real"
STRATA: tuple[str, ...] = ("heavy", "non-trivial", "trivial")
RULINGS: tuple[str, ...] = ("a", "b", "neither")


def agreement_record(root: Path, pair: str) -> dict[str, Any]:
    shown = f"{REAL_LABELS}/{pair}/agreement.json"
    try:
        return json.loads((root / shown).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AlignbenchError(
            f"{shown} is missing but {pair} is in the blind subset; freeze it with "
            "`alignbench label agree` or list the pair under `pending`"
        ) from None
    except json.JSONDecodeError as exc:
        raise AlignbenchError(f"{shown}: not valid JSON (line {exc.lineno})") from None


def pair_rulings(root: Path, pair: str) -> dict[str, str]:
    """Disagreement id -> ruling of one pair's adjudications."""
    shown = f"{REAL_LABELS}/{pair}/labels.yaml"
    data = load_labels_yaml(root / shown)
    review = data.get("review") if isinstance(data, Mapping) else None
    if not isinstance(review, Mapping):
        raise AlignbenchError(f"{shown}: no review section; run `alignbench label check {pair}`")
    return {str(a["disagreement"]): str(a["ruling"]) for a in review.get("adjudications") or []}


def _bars(root: Path, subset: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The three bars of issue 12, each with what it needs and what the subset holds."""
    result = draw(facts_from_repo(root), list(subset["kept"]), subset["seed"], subset["fraction"])
    n = len(result.subset)
    fraction = float(subset["fraction"])
    need_pairs = math.ceil(fraction * result.total_pairs)
    return [
        {
            "bar": f"at least {fraction:.0%} of real pairs",
            "needed": need_pairs,
            "held": n,
            "of": result.total_pairs,
            "met": n >= need_pairs,
        },
        {
            "bar": "at least half of the drawn pairs non-trivial",
            "needed": math.ceil(n / 2),
            "held": result.nontrivial,
            "of": n,
            "met": 2 * result.nontrivial >= n,
        },
        {
            "bar": "at least half of all labelled moves in the drawn pairs",
            "needed": math.ceil(result.total_moves / 2),
            "held": result.moves,
            "of": result.total_moves,
            "met": 2 * result.moves >= result.total_moves,
        },
    ]


def _pool(records: list[Mapping[str, Any]], kind: str) -> dict[str, Any]:
    with_kind = [r[kind] for r in records if kind in r]
    return {
        "pairs": len(with_kind),
        "missing": len(records) - len(with_kind),
        "a": sum(int(k["a"]) for k in with_kind),
        "b": sum(int(k["b"]) for k in with_kind),
        "agreed": sum(int(k["agreed"]) for k in with_kind),
    }


def _stratum_row(name: str, pairs: list[str], records: Mapping[str, Any], rulings: Mapping[str, Any]) -> dict:
    chosen = [records[p] for p in pairs]
    counted = {r: 0 for r in RULINGS}
    for pair in pairs:
        for ruling in rulings[pair].values():
            counted[ruling] = counted.get(ruling, 0) + 1
    return {
        "stratum": name,
        "pairs": len(pairs),
        "kinds": {kind: _pool(chosen, kind) for kind in AGREEMENT_KINDS},
        "disagreements": sum(len(r["disagreements"]) for r in chosen),
        "pairs_with_disagreements": sum(1 for r in chosen if r["disagreements"]),
        "rulings": {r: counted[r] for r in sorted(counted, key=lambda r: (r not in RULINGS, r))},
    }


def blind_pass_summary(root: Path) -> dict[str, Any]:
    """The rule, the bars, and agreement and rulings per stratum (plus all strata), as plain data."""
    subset = read_subset(root)
    strata = subset.get("strata") or {}
    pending = set(pending_pairs(root))
    subset_pairs = [*subset["kept"], *subset["drawn"]]
    unknown = sorted(p for p in subset_pairs if strata.get(p) not in STRATA)
    if unknown:
        raise AlignbenchError(
            f"{SUBSET_FILE}: `strata` gives no stratum ({', '.join(STRATA)}) for {', '.join(unknown)}; "
            "run `alignbench label blind-draw --write`"
        )
    measured = sorted(p for p in subset_pairs if p not in pending)
    records = {p: agreement_record(root, p) for p in measured}
    rulings = {p: pair_rulings(root, p) for p in measured}
    rows = [_stratum_row(s, [p for p in measured if strata[p] == s], records, rulings) for s in STRATA]
    rows.append(_stratum_row("all", measured, records, rulings))
    return {
        "version": subset.get("version"),
        "seed": subset["seed"],
        "fraction": subset["fraction"],
        "rule": list(DRAW_RULE),
        "kept": len(subset["kept"]),
        "drawn": len(subset["drawn"]),
        "pending": sorted(pending),
        "bars": _bars(root, subset),
        "strata": rows,
        "moves_now": moves_agreement_now(root, measured),
    }


def moves_agreement_now(root: Path, pairs: list[str]) -> dict[str, int]:
    """Move agreement re-run under today's move rule (issue #27): each pair's blind labels against its
    primary labels as they stand now, both with flags derived from their own links by the rule.

    The frozen ``agreement.json`` records were made under the old rule and before adjudication, so
    they are kept as they are (their disagreement ids anchor the rulings); this is computed afresh,
    and the primary side is post-adjudication, which can only raise agreement."""
    from alignbench.labels.agree import agree
    from alignbench.labels.completeness import BLIND_LABELS_FILE
    from alignbench.labels.io import load_labels
    from alignbench.tiers import TIER_DIRS

    pooled = {"pairs": 0, "a": 0, "b": 0, "agreed": 0}
    for pair in pairs:
        pair_dir = root / TIER_DIRS["real"] / pair
        blind = pair_dir / BLIND_LABELS_FILE
        if not blind.is_file():
            continue
        moves = agree(load_labels(pair_dir / "labels.yaml", root), load_labels(blind, root))["moves"]
        pooled["pairs"] += 1
        for key in ("a", "b", "agreed"):
            pooled[key] += moves[key]
    return pooled
