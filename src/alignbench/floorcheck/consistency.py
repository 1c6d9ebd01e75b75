"""Never below a flat diff: where the engine drops a leaf pair the flat floor got (issue 29).

A structure-aware engine may disagree with the floor (moves, renumbers, containers), but two things
the floor gets are never worth losing, because a flat line diff is the least a reader can expect:

- **(a) a similar pair left unpaired.** The floor pairs two leaves whose texts are at least
  ``min_similarity`` alike, and the engine leaves *both* unpaired: a reader sees a delete and an
  insert of what is plainly one clause.
- **(b) an anchored identical pair broken.** The floor pairs a leaf with a partner of the same text,
  anchored by unique neighbours, and the engine pairs either copy with something else. The anchors
  are the lines a patience diff anchors on: the nearest leaf before each copy whose text occurs
  exactly once in each document, and the nearest such leaf after. The two copies are anchored when
  they have the same anchors (the same texts, paired with each other by the floor) and each is the
  only copy between its anchors, or, among several copies, each sits as many leaves from the
  anchors as the other. Identical blocks in the same surroundings are the same clause; pairing one
  with a copy elsewhere is the twin mistake of class 1 (copies paired across the document instead of
  in reading order).

  A block that is only a label ("SEC. 413") is never such a copy: after a deletion the floor pairs
  old 413 with the new 413, which is the old 414 (the truth's link on the real tier).

  Weaker anchors flag the floor's own guesses. With the plain previous and next leaf, a run of 28
  identical paragraphs whose section moved anchored itself (73 of 118 flagged pairs on the committed
  synthetic tier were pairs the generator's truth gives to the engine); with unique but not common
  leaves, the floor's positional pairing of two different sentences (a ``replace`` run, after whole
  sections moved) anchored the repeated paragraphs after them (8 of 8 flagged on the
  ``fix-restructured`` plan of the boilerplate document were the engine's, by the truth).

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
class _Anchors:
    """The nearest unique common leaves before and after a leaf (see :func:`_anchors`), as (address,
    text), and how many leaves away each is (a document edge stands in for a missing anchor)."""

    before: tuple[str, str] | None
    before_distance: int
    after: tuple[str, str] | None
    after_distance: int
    alone: bool  # no other leaf between the two anchors has this leaf's text


def _counts(order: Sequence[Block]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for block in order:
        text = leaf_text(block)
        counts[text] = counts.get(text, 0) + 1
    return counts


def _anchors(order: Sequence[Block], other: Mapping[str, int]) -> dict[str, _Anchors]:
    """Each leaf's anchors: the nearest leaves whose text occurs exactly once in this document and
    exactly once in the ``other`` (its text counts), the lines a patience diff anchors on."""
    texts = [leaf_text(block) for block in order]
    mine = _counts(order)
    unique = [mine[text] == 1 and other.get(text) == 1 for text in texts]
    before: list[int | None] = []
    last: int | None = None
    for index in range(len(order)):
        before.append(last)
        if unique[index]:
            last = index
    after: list[int | None] = [None] * len(order)
    last = None
    for index in range(len(order) - 1, -1, -1):
        after[index] = last
        if unique[index]:
            last = index
    in_window: dict[tuple[int | None, int | None, str], int] = {}
    for index, text in enumerate(texts):
        key = (before[index], after[index], text)
        in_window[key] = in_window.get(key, 0) + 1
    found: dict[str, _Anchors] = {}
    for index, block in enumerate(order):
        b, a = before[index], after[index]
        found[block.address] = _Anchors(
            (order[b].address, texts[b]) if b is not None else None,
            index - b if b is not None else index + 1,
            (order[a].address, texts[a]) if a is not None else None,
            a - index if a is not None else len(order) - index,
            in_window[(b, a, texts[index])] == 1,
        )
    return found


def _anchored(
    source: str,
    test: str,
    floor: Mapping[str, str],
    source_anchors: Mapping[str, _Anchors],
    test_anchors: Mapping[str, _Anchors],
) -> bool:
    """Both copies have the same unique anchors (same text), which the floor pairs with each other,
    before and after (a missing anchor must be missing on both sides); and either each copy is the
    only one of its text between them, or each sits as many leaves from them as the other."""
    mine, theirs = source_anchors[source], test_anchors[test]
    for source_side, test_side in ((mine.before, theirs.before), (mine.after, theirs.after)):
        if source_side is None or test_side is None:
            if source_side is not test_side:
                return False
        elif source_side[1] != test_side[1] or floor.get(source_side[0]) != test_side[0]:
            return False
    if mine.alone and theirs.alone:
        return True
    return (mine.before_distance, mine.after_distance) == (theirs.before_distance, theirs.after_distance)


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
    source_anchors = _anchors(source_leaves, _counts(test_leaves))
    test_anchors = _anchors(test_leaves, _counts(source_leaves))
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
            normalise(block.text)  # a label alone is a number, not content: a renumber breaks it
            and old == new
            and _anchored(block.address, partner.address, floor_forward, source_anchors, test_anchors)
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
