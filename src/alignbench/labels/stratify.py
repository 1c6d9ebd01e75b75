"""Which real pairs get a blind second pass: a seeded, stratified draw that anyone can recompute.

The first blind pass drew 7 pairs uniformly; 6 of them had no correction and engine F1 1.0, so their
perfect agreement said little. Agreement is informative where labelling is hard, so the draw is
stratified: a pair is *non-trivial* when its primary labels hold a correction, a move, a split or a
merge, or `corpus/pairs.yaml` marks it as heavy restructuring. The rule, fixed in
`corpus/labels/real/blind-subset.yaml` before any pair of this draw was blind-labelled:

1. keep every pair already blind-labelled under an earlier rule (`kept`);
2. order every stratum by blake2b-64 of ``"<seed>:<pair>"``, lowest first;
3. add pairs marked heavy restructuring in `corpus/pairs.yaml` in that order until the subset holds
   at least ``fraction`` of all real pairs (this step needs no labels, so the blind pass can start
   while the primary pass is still running, and every pair it adds is non-trivial);
4. then add other non-trivial pairs in that order until the subset holds at least half of all
   labelled moves;
5. if the heavy stratum runs out before the fraction, add non-trivial, then trivial pairs to reach it.

`label check` recomputes the draw from the committed labels and fails if the file disagrees, so the
subset cannot be edited by hand to avoid a hard pair.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench.atomic import load_yaml
from alignbench.errors import AlignbenchError

SUBSET_FILE = "corpus/labels/real/blind-subset.yaml"
# The rule of the module docstring, as REPORT.md prints it (seed and fraction come from SUBSET_FILE).
DRAW_RULE: tuple[str, ...] = (
    "keep every pair already blind-labelled under an earlier rule (`kept`)",
    "order every stratum by blake2b-64 of `<seed>:<pair>`, lowest first",
    "add pairs marked heavy restructuring in `corpus/pairs.yaml` in that order until the subset holds "
    "at least `fraction` of all real pairs",
    "then add other non-trivial pairs (a correction, move, split or merge in the primary labels) in "
    "that order until the subset holds at least half of all labelled moves",
    "if the heavy stratum runs out before the fraction, add non-trivial, then trivial pairs to reach it",
)


@dataclass(frozen=True)
class PairFacts:
    """What the draw needs to know about one real pair, from its primary labels and pairs.yaml."""

    pair: str
    moves: int
    nontrivial: bool
    heavy: bool = False


@dataclass(frozen=True)
class Draw:
    subset: tuple[str, ...]
    nontrivial: int
    moves: int
    total_pairs: int
    total_moves: int

    def meets(self, fraction: float) -> list[str]:
        """The bars the subset misses (empty when it meets all three)."""
        missed = []
        if len(self.subset) < math.ceil(fraction * self.total_pairs):
            missed.append(f"{len(self.subset)} of {self.total_pairs} pairs is under {fraction:.0%}")
        if 2 * self.nontrivial < len(self.subset):
            missed.append(f"only {self.nontrivial} of {len(self.subset)} drawn pairs are non-trivial")
        if 2 * self.moves < self.total_moves:
            missed.append(f"the subset holds {self.moves} of {self.total_moves} labelled moves, under half")
        return missed


def draw_key(seed: str, pair: str) -> str:
    return hashlib.blake2b(f"{seed}:{pair}".encode(), digest_size=8).hexdigest()


def draw(facts: list[PairFacts], kept: list[str], seed: str, fraction: float) -> Draw:
    """Apply the rule in the module docstring; deterministic for the same facts."""
    by_pair = {f.pair: f for f in facts}
    unknown = sorted(p for p in kept if p not in by_pair)
    if unknown:
        raise AlignbenchError(f"{SUBSET_FILE}: kept pair(s) {', '.join(unknown)} are not real pairs")
    chosen = list(dict.fromkeys(kept))
    total_moves = sum(f.moves for f in facts)
    need = math.ceil(fraction * len(facts))

    def state() -> Draw:
        picked = [by_pair[p] for p in chosen]
        return Draw(
            tuple(chosen),
            sum(1 for f in picked if f.nontrivial),
            sum(f.moves for f in picked),
            len(facts),
            total_moves,
        )

    def ordered(keep: Callable[[PairFacts], bool]) -> list[str]:
        stratum = (f.pair for f in facts if keep(f) and f.pair not in chosen)
        return sorted(stratum, key=lambda p: (draw_key(seed, p), p))

    def short_of_fraction() -> bool:
        return len(chosen) < need

    def short_of_moves() -> bool:
        return 2 * state().moves < total_moves

    steps: tuple[tuple[Callable[[PairFacts], bool], Callable[[], bool]], ...] = (
        (lambda f: f.heavy, short_of_fraction),
        (lambda f: f.nontrivial, short_of_moves),
        (lambda f: f.nontrivial, short_of_fraction),
        (lambda f: True, short_of_fraction),
    )
    for keep, short in steps:
        for pair in ordered(keep):
            if not short():
                break
            chosen.append(pair)
    return state()


def read_subset(root: Path) -> dict[str, Any]:
    path = root / SUBSET_FILE
    if not path.is_file():
        raise AlignbenchError(f"{SUBSET_FILE}: not found; fix the blind subset there before blind labelling")
    return load_yaml(path, "blind-subset")


def pair_facts(labels: dict[str, Any], heavy: bool) -> PairFacts:
    """A pair's stratum from its primary labels: any correction, move, split or merge, or heavy."""
    moves = sum(1 for r in labels["correspondences"] if r["kind"] == "move")
    corrected = any(
        r.get("status") == "corrected"
        for section in ("correspondences", "inserted", "deleted", "splits", "merges")
        for r in labels[section]
    )
    nontrivial = heavy or corrected or moves > 0 or bool(labels["splits"]) or bool(labels["merges"])
    return PairFacts(labels["pair"], moves, nontrivial, heavy)


def facts_from_repo(root: Path, loaded: Mapping[str, dict[str, Any]] | None = None) -> list[PairFacts]:
    """Every real pair's facts: heavy from `corpus/pairs.yaml`, the rest from its primary labels (taken
    from ``loaded``, pair id to validated labels, when the caller has read them already)."""
    from alignbench.corpus.pairs import load_pairs
    from alignbench.labels.io import load_labels

    facts = []
    for spec in sorted(load_pairs(root), key=lambda s: s.pair):
        path = root / "corpus/labels/real" / spec.pair / "labels.yaml"
        heavy = spec.restructured is not None
        if not path.is_file():
            facts.append(PairFacts(spec.pair, 0, heavy, heavy))
            continue
        labels = loaded.get(spec.pair) if loaded is not None else None
        facts.append(pair_facts(labels if labels is not None else load_labels(path, root), heavy))
    return facts


def subset_problems(root: Path, loaded: Mapping[str, dict[str, Any]] | None = None) -> list[str]:
    """Why the committed subset is not the rule's draw, or misses a bar (empty when it is right)."""
    data = read_subset(root)
    result = draw(facts_from_repo(root, loaded), list(data["kept"]), data["seed"], data["fraction"])
    drawn = [p for p in result.subset if p not in data["kept"]]
    problems = []
    if drawn != list(data["drawn"]):
        problems.append(
            f"{SUBSET_FILE}: `drawn` is {data['drawn']} but the rule draws {drawn}; "
            "run `alignbench label blind-draw --write`"
        )
    problems += [f"{SUBSET_FILE}: {missed}" for missed in result.meets(data["fraction"])]
    return problems


def pending_pairs(root: Path) -> list[str]:
    """Drawn pairs whose blind pass is not finished (they count for no agreement figure)."""
    return list(read_subset(root).get("pending") or [])


_HEADER = """\
# The blind second-pass subset of the real tier (issue 12, seed 003 section 5).
# Rule (alignbench.labels.stratify, written down before any pair of this draw was blind-labelled):
# keep `kept` (blind-labelled under rule v1: required csa-1.1-to-2.0 and hjres-37-rh-to-rfs, then the
# lowest blake2b-64 of 'alignbench/blind-subset/v1:<pair>'); then, ordered by blake2b-64 of
# '<seed>:<pair>', add pairs marked `restructured` in corpus/pairs.yaml until the subset holds
# `fraction` of all real pairs; then other non-trivial pairs (a correction, move, split or merge in the
# primary labels) until it holds half of all labelled moves. `label check` recomputes the draw;
# `alignbench label blind-draw --write` rewrites `drawn` and `strata`.
"""


def write_draw(root: Path, write: bool = False) -> tuple[Draw, float, str]:
    """The rule's draw on today's labels, the fraction, and the file text (written with ``write``)."""
    from alignbench.atomic import write_text

    data = read_subset(root)
    facts = facts_from_repo(root)
    result = draw(facts, list(data["kept"]), data["seed"], data["fraction"])
    drawn = [p for p in result.subset if p not in data["kept"]]
    pending = set(data.get("pending") or [])
    by_pair = {f.pair: f for f in facts}

    def stratum(pair: str) -> str:
        f = by_pair[pair]
        return "heavy" if f.heavy else ("non-trivial" if f.nontrivial else "trivial")

    lines = [
        _HEADER.rstrip("\n"),
        "version: 2",
        f"seed: {data['seed']}",
        f"fraction: {data['fraction']}",
        f"kept: [{', '.join(data['kept'])}]",
        f"drawn: [{', '.join(drawn)}]",
        *([f"pending: [{', '.join(p for p in drawn if p in pending)}]"] if pending else []),
        f"# {len(result.subset)} of {result.total_pairs} pairs; {result.nontrivial} non-trivial; "
        f"{result.moves} of {result.total_moves} labelled moves",
        "strata:",
        *(f"  {pair}: {stratum(pair)}" for pair in result.subset),
    ]
    text = "\n".join(lines) + "\n"
    if write:
        write_text(root / SUBSET_FILE, text)
    return result, data["fraction"], text
