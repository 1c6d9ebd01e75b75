"""Never below a flat diff: where the engine drops a leaf pair the flat floor got (issue 29).

A structure-aware engine may disagree with the floor (moves, renumbers, containers), but two things
the floor gets are never worth losing, because a flat line diff is the least a reader can expect:

- **(a) a similar pair left unpaired.** The floor pairs two leaves whose texts are at least
  ``min_similarity`` alike, and the engine leaves *both* unpaired: a reader sees a delete and an
  insert of what is plainly one clause.
- **(b) an anchored identical pair broken.** The floor pairs a leaf with a partner of the same text
  whose reading-order neighbours (the previous and the next leaf, where they exist) it pairs with
  each other too, and the engine pairs either leaf with something else. Identical blocks in the
  same surroundings are the same clause; pairing one with a copy elsewhere is the twin mistake of
  class 1 (copies paired across the document instead of in reading order).

  The neighbours are the leaves around the *run* of consecutive copies a leaf belongs to, and the
  two copies must hold the same place in runs of the same length ("anchored by unique neighbours",
  as the issue puts it). Taking the next leaf itself would let a run of identical paragraphs anchor
  itself: on the committed synthetic tier 73 of 118 such "anchored" pairs inside a run of 28 copies
  whose section moved were pairs the generator's truth gives to the engine, not the floor.

An anchored identical pair that the engine leaves unpaired on both sides is kind (a) (its similarity
is 1.0). Leaves are the floor's units: text-bearing blocks (heading, paragraph, list item, cell) with
text. Texts are compared without their labels (a renumbered clause is still the same clause; a block
that is only a label is compared by its label), after
:func:`alignbench.blocks.normalise`; the similarity is the token Indel ratio 2*M/(|a|+|b|) (rapidfuzz,
the longest common subsequence of whitespace tokens), a measure of its own so the check does not move
when the engine's similarity internals do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz.distance import Indel

from alignbench.blocks import TEXT_KINDS, Block, BlockTree, normalise

KIND_SIMILAR_UNPAIRED = "similar-unpaired"
KIND_ANCHORED_TWIN = "anchored-twin-elsewhere"
SHOWN_CHARACTERS = 80


@dataclass(frozen=True)
class Violation:
    """One place the engine falls below the floor; ``engine_*`` say what the engine did instead."""

    kind: str
    pair: str
    source: str
    test: str
    source_text: str
    test_text: str
    similarity: float
    engine_source_partner: str | None = None  # whom the engine paired the floor's source leaf with
    engine_test_partner: str | None = None  # whom the engine paired the floor's test leaf with

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "pair": self.pair,
            "source": self.source,
            "test": self.test,
            "source_text": self.source_text,
            "test_text": self.test_text,
            "similarity": round(self.similarity, 4),
            "engine_source_partner": self.engine_source_partner,
            "engine_test_partner": self.engine_test_partner,
        }

    def describe(self) -> str:
        """One line for a terminal."""
        engine = f"engine: {self.engine_source_partner or '-'} / {self.engine_test_partner or '-'}"
        return (
            f"{self.pair}: {self.kind} {self.source} -> {self.test} sim {self.similarity:.2f} ({engine})"
            f"\n    old: {self.source_text}\n    new: {self.test_text}"
        )


def shorten(text: str, limit: int = SHOWN_CHARACTERS) -> str:
    """A text cut to ``limit`` characters with an ellipsis, so a report line stays one line."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def similarity(a: str, b: str) -> float:
    """Token Indel ratio of two normalised texts (1.0 for two empty texts)."""
    tokens_a, tokens_b = a.split(), b.split()
    if not tokens_a and not tokens_b:
        return 1.0
    return float(Indel.normalized_similarity(tokens_a, tokens_b))


def leaf_text(block: Block) -> str:
    """What is compared: the normalised text, or the label of a block that has nothing else."""
    return normalise(block.text) or normalise(block.label or "")


def leaves(tree: BlockTree) -> list[Block]:
    """The floor's units in reading order: text-bearing blocks whose label or text is not empty."""
    return [
        block
        for block in tree.blocks()
        if block.kind in TEXT_KINDS and normalise(f"{block.label or ''} {block.text}")
    ]


def _pair_maps(alignment: Mapping[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    """source -> test and test -> source of an alignment JSON's pairs."""
    forward: dict[str, str] = {}
    backward: dict[str, str] = {}
    for pair in alignment.get("pairs", []):
        forward[pair["source"]] = pair["test"]
        backward[pair["test"]] = pair["source"]
    return forward, backward


@dataclass(frozen=True)
class _Run:
    """Where a leaf sits in its run of consecutive same-text leaves, and the leaves around the run."""

    index: int
    length: int
    before: str | None
    after: str | None


def _runs(order: Sequence[Block]) -> dict[str, _Run]:
    """Each leaf's place in its run of consecutive leaves with its text (a run of one for most)."""
    texts = [leaf_text(block) for block in order]
    found: dict[str, _Run] = {}
    start = 0
    while start < len(order):
        end = start + 1
        while end < len(order) and texts[end] == texts[start]:
            end += 1
        before = order[start - 1].address if start else None
        after = order[end].address if end < len(order) else None
        for index in range(start, end):
            found[order[index].address] = _Run(index - start, end - start, before, after)
        start = end
    return found


def _anchored(
    source: str,
    test: str,
    floor: Mapping[str, str],
    source_runs: Mapping[str, _Run],
    test_runs: Mapping[str, _Run],
) -> bool:
    """The floor pairs the leaves around the two copies with each other: the one before and the one
    after, each outside the run of identical copies it belongs to (a side with no such leaf must be
    matched by none on the other), and the copies hold the same place in runs of the same length."""
    mine, theirs = source_runs[source], test_runs[test]
    if (mine.index, mine.length) != (theirs.index, theirs.length):
        return False
    for source_side, test_side in ((mine.before, theirs.before), (mine.after, theirs.after)):
        if source_side is None or test_side is None:
            if source_side is not test_side:
                return False
        elif floor.get(source_side) != test_side:
            return False
    return True


def check_pair(
    pair: str,
    source: BlockTree,
    test: BlockTree,
    floor: Mapping[str, Any],
    engine: Mapping[str, Any],
    min_similarity: float,
) -> list[Violation]:
    """Every violation of one pair, in the floor's source reading order."""
    source_leaves, test_leaves = leaves(source), leaves(test)
    test_by_address = {block.address: block for block in test_leaves}
    floor_forward, _ = _pair_maps(floor)
    engine_forward, engine_backward = _pair_maps(engine)
    source_runs, test_runs = _runs(source_leaves), _runs(test_leaves)
    found: list[Violation] = []
    for block in source_leaves:
        partner_address = floor_forward.get(block.address)
        partner = test_by_address.get(partner_address) if partner_address else None
        if partner is None or engine_forward.get(block.address) == partner.address:
            continue
        old, new = leaf_text(block), leaf_text(partner)
        score = similarity(old, new)
        engine_source = engine_forward.get(block.address)
        engine_test = engine_backward.get(partner.address)
        if engine_source is None and engine_test is None:
            if score < min_similarity:
                continue
            kind = KIND_SIMILAR_UNPAIRED
        elif (
            old
            and old == new
            and _anchored(block.address, partner.address, floor_forward, source_runs, test_runs)
        ):
            kind = KIND_ANCHORED_TWIN
        else:
            continue
        found.append(
            Violation(
                kind=kind,
                pair=pair,
                source=block.address,
                test=partner.address,
                source_text=shorten(old),
                test_text=shorten(new),
                similarity=score,
                engine_source_partner=engine_source,
                engine_test_partner=engine_test,
            )
        )
    return found
