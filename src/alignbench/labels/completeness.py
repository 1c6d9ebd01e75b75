"""What label_check expects to find, so a half-built tier fails instead of passing on what it holds.

Discovering label files only checks the files that exist: a ``generate`` killed at 213 of 219 pairs
used to pass as "239 pair(s) passed". The expected pairs come from the files that define the tiers:

- real: every pair of ``corpus/pairs.yaml`` has ``corpus/labels/real/<pair>/labels.yaml``;
- synthetic: every pair the plans enabled by ``params.yaml generate.plans`` define
  (``corpus/plans/synthetic.yaml``) has ``corpus/synthetic/<pair>/labels.yaml``;
- the blind subset (``corpus/labels/real/blind-subset.yaml``) names real pairs, each with its blind
  labelling and frozen ``agreement.json``.

A label file no definition asks for is a problem too: it would be scored without being planned.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench.errors import AlignbenchError
from alignbench.labels.adjudication import AGREEMENT_FILE
from alignbench.tiers import TIER_DIRS, TIERS, TierPair
from alignbench.yamlload import load_yaml

BLIND_SUBSET_FILE = "corpus/labels/real/blind-subset.yaml"
BLIND_LABELS_FILE = "blind-labels.yaml"
_SHOWN = 12  # name this many missing pairs, then count the rest


@dataclass(frozen=True)
class Expected:
    """The pairs each tier must hold, and the file(s) that say so."""

    pairs: dict[str, tuple[str, ...]]
    defined_by: dict[str, str]

    def statement(self) -> str:
        """One line a stage prints before checking: what it expects and from where."""
        parts = [f"{len(self.pairs[t])} {t} pair(s) from {self.defined_by[t]}" for t in TIERS]
        return "expecting " + " and ".join(parts)


def expected_pairs(root: Path) -> Expected:
    """The pair ids every tier must hold; any problem in the defining files is one clear error."""
    from alignbench.corpus.pairs import PAIRS_FILE, load_pairs
    from alignbench.generate.plans import load_plans
    from alignbench.generate.stage import PLANS_FILE, enabled_pairs, featured_pairs, read_enabled_plans

    real = tuple(sorted(spec.pair for spec in load_pairs(root)))
    plan_file = load_plans(root / PLANS_FILE, root)
    # `documents: all` keeps only the documents that have the plan's feature: ask the generator's own
    # dry run, so the expectation and the tier cannot drift apart.
    planned = featured_pairs(enabled_pairs(plan_file, read_enabled_plans(root)), root, {})
    synthetic = tuple(sorted(spec.pair for spec in planned))
    return Expected(
        pairs={"real": real, "synthetic": synthetic},
        defined_by={"real": PAIRS_FILE, "synthetic": f"{PLANS_FILE} (params.yaml generate.plans)"},
    )


def _listed(names: list[str]) -> str:
    shown = ", ".join(names[:_SHOWN])
    return shown + (f" and {len(names) - _SHOWN} more" if len(names) > _SHOWN else "")


def completeness_problems(expected: Expected, found: list[TierPair]) -> list[str]:
    """Missing and unplanned pairs per tier, each tier's problems in one line naming the pairs."""
    problems: list[str] = []
    for tier in TIERS:
        want = set(expected.pairs[tier])
        have = {p.pair for p in found if p.tier == tier}
        missing = sorted(want - have)
        extra = sorted(have - want)
        where = TIER_DIRS[tier]
        if missing:
            fix = (
                "run `dvc repro generate` (or `python stages/generate.py`)"
                if tier == "synthetic"
                else "label each (`alignbench label init PAIR`) or remove it from corpus/pairs.yaml"
            )
            problems.append(
                f"{tier}: {len(missing)} of {len(want)} pair(s) named by {expected.defined_by[tier]} have no "
                f"{where}/<pair>/labels.yaml: {_listed(missing)}; {fix}"
            )
        if extra:
            problems.append(
                f"{tier}: {len(extra)} labelled pair(s) under {where} are not named by "
                f"{expected.defined_by[tier]}: {_listed(extra)}; add them there or remove their directories"
            )
    return problems


def blind_subset_problems(
    root: Path, expected: Expected, loaded: Mapping[str, dict[str, Any]] | None = None
) -> list[str]:
    """The blind subset names real pairs, and each has its blind labels and frozen agreement record;
    ``loaded`` (real pair id to validated labels) spares re-reading labels the caller has read."""
    path = root / BLIND_SUBSET_FILE
    if not path.is_file():
        return []
    data = load_yaml(path, "blind-subset")
    problems: list[str] = []
    real = set(expected.pairs["real"])
    pending = set(data.get("pending") or [])
    for key in ("kept", "drawn", "pending"):
        for index, pair in enumerate(data.get(key) or []):
            where = f"{BLIND_SUBSET_FILE}: {key}[{index}] {pair}"
            if pair not in real:
                problems.append(f"{where}: not a real pair of {expected.defined_by['real']}; fix the id")
                continue
            if key == "pending":
                if pair not in data["drawn"]:
                    problems.append(f"{where}: a pending pair must be one of `drawn`")
                continue
            if pair in pending:
                continue
            pair_dir = root / TIER_DIRS["real"] / pair
            for name in (BLIND_LABELS_FILE, AGREEMENT_FILE):
                if not (pair_dir / name).is_file():
                    problems.append(
                        f"{where}: {TIER_DIRS['real']}/{pair}/{name} is missing; finish the blind pass "
                        "(docs/LABELLING.md) or list the pair under `pending`"
                    )
    both = sorted(set(data["kept"]) & set(data["drawn"]))
    if both:
        problems.append(f"{BLIND_SUBSET_FILE}: {', '.join(both)} listed as both kept and drawn")
    if not problems:
        from alignbench.labels.stratify import subset_problems

        problems += subset_problems(root, loaded)
    return problems


def require_checkout(root: Path) -> None:
    """Refuse to check "every pair" of a directory that is not an alignbench checkout.

    Outside a checkout, discovery finds nothing and "all pairs passed" would be vacuously true.
    """
    from alignbench.corpus.pairs import PAIRS_FILE

    base = root.resolve()
    looked = [base / PAIRS_FILE, *(base / TIER_DIRS[t] for t in TIERS)]
    if not looked[0].is_file() or not any(p.is_dir() for p in looked[1:]):
        raise AlignbenchError(
            f"{base} is not an alignbench checkout: looked for {', '.join(str(p) for p in looked)} "
            "and found no tier; run from the repository root or pass --root"
        )
