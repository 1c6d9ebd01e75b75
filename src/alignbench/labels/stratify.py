"""Which real pairs get a blind second pass: a seeded, stratified draw that anyone can recompute.

The first blind pass drew 7 pairs uniformly; 6 of them had no correction and engine F1 1.0, so their
perfect agreement said little. Agreement is informative where labelling is hard, so the draw is
stratified: a pair is *non-trivial* when its primary labels hold a correction, a move, a split or a
merge, or `corpus/pairs.yaml` marks it as heavy restructuring. The rule, fixed in
`corpus/labels/real/blind-subset.yaml` before any pair of this draw was blind-labelled:

1. keep every pair already blind-labelled under an earlier rule (`kept`);
2. order each stratum by blake2b-64 of ``"<seed>:<pair>"``, lowest first;
3. add non-trivial pairs in that order until the subset holds at least ``fraction`` of all real pairs,
   at least half of its pairs are non-trivial, and it holds at least half of all labelled moves;
4. if the non-trivial stratum runs out first, add trivial pairs in their order to reach the fraction.

`label check` recomputes the draw from the committed labels and fails if the file disagrees, so the
subset cannot be edited by hand to avoid a hard pair.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench.atomic import load_yaml
from alignbench.errors import AlignbenchError

SUBSET_FILE = "corpus/labels/real/blind-subset.yaml"


@dataclass(frozen=True)
class PairFacts:
    """What the draw needs to know about one real pair, from its primary labels and pairs.yaml."""

    pair: str
    moves: int
    nontrivial: bool


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

    for want_nontrivial in (True, False):
        stratum = sorted(
            (f.pair for f in facts if f.nontrivial is want_nontrivial and f.pair not in chosen),
            key=lambda p: (draw_key(seed, p), p),
        )
        for pair in stratum:
            if not state().meets(fraction):
                break
            if not want_nontrivial and len(chosen) >= need:
                break
            chosen.append(pair)
    return state()


def read_subset(root: Path) -> dict[str, Any]:
    path = root / SUBSET_FILE
    if not path.is_file():
        raise AlignbenchError(f"{SUBSET_FILE}: not found; fix the blind subset there before blind labelling")
    data = load_yaml(path)
    for key, kind in (("seed", str), ("fraction", float), ("kept", list), ("drawn", list)):
        if not isinstance(data.get(key), kind):
            raise AlignbenchError(f"{SUBSET_FILE}: `{key}` must be a {kind.__name__}")
    return data


def pair_facts(labels: dict[str, Any], heavy: bool) -> PairFacts:
    """A pair's stratum from its primary labels: any correction, move, split or merge, or heavy."""
    moves = sum(1 for r in labels["correspondences"] if r["kind"] == "move")
    corrected = any(
        r.get("status") == "corrected"
        for section in ("correspondences", "inserted", "deleted", "splits", "merges")
        for r in labels[section]
    )
    nontrivial = heavy or corrected or moves > 0 or bool(labels["splits"]) or bool(labels["merges"])
    return PairFacts(labels["pair"], moves, nontrivial)
