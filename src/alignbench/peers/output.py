"""Turn a peer's block pairing into the alignment JSON shape, by the same rules for every peer.

A peer only says which block became which, how sure it is, and which pairs it moved. Everything else
is read off that pairing, so no peer is flattered by extra inference:

- ``pairs``: the root first, then source document order;
- ``inserted`` / ``deleted``: blocks the engine addressed (its units) that it left unpaired;
- ``changes``: per pair, move (only where the engine said move) > renumber (labels differ) > modify
  (text differs), in source order; then deletes in source order and inserts in test order, each
  reported once, at the topmost addressed block of its subtree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from alignbench.blocks import ROOT_ADDRESS, Block, BlockTree
from alignbench.errors import AlignbenchError
from alignbench.peers.rules import OUTPUT_RULES


@dataclass(frozen=True)
class PeerPair:
    """One correspondence as a peer engine reported it."""

    source: str
    test: str
    confidence: float
    moved: bool = False


def _parent(address: str) -> str:
    return address.rsplit("/", 1)[0] or ROOT_ADDRESS


def _is_topmost(address: str, units: set[str], unpaired: set[str]) -> bool:
    """True unless the nearest addressed ancestor is itself unpaired (then it reports the subtree)."""
    parent = _parent(address)
    while parent != ROOT_ADDRESS and parent not in units:
        parent = _parent(parent)
    return parent not in unpaired


def _change(kind: str, source: Block | None, test: Block | None) -> dict[str, Any]:
    return {
        "kind": kind,
        "source": source.address if source else None,
        "test": test.address if test else None,
        "source_label": source.label if source else None,
        "test_label": test.label if test else None,
    }


def alignment_json(
    engine: Mapping[str, str],
    settings: Mapping[str, Any],
    rules: Sequence[str],
    source: BlockTree,
    test: BlockTree,
    pairs: Sequence[PeerPair],
    source_units: Sequence[str],
    test_units: Sequence[str],
) -> dict[str, Any]:
    """The alignment JSON of one peer run; ``*_units`` are the addresses the engine could pair."""
    by_source: dict[str, PeerPair] = {}
    taken: set[str] = set()
    for pair in pairs:
        if source.get(pair.source) is None or test.get(pair.test) is None:
            raise AlignbenchError(
                f"{engine['name']}: pair {pair.source} -> {pair.test} names no block; report this as a bug"
            )
        if pair.source in by_source or pair.test in taken:
            raise AlignbenchError(
                f"{engine['name']}: {pair.source} -> {pair.test} pairs a block twice; report this as a bug"
            )
        by_source[pair.source] = pair
        taken.add(pair.test)
    by_source.pop(ROOT_ADDRESS, None)
    taken.discard(ROOT_ADDRESS)

    out_pairs = [_pair_dict(PeerPair(ROOT_ADDRESS, ROOT_ADDRESS, 1.0), "root", False)]
    changes: list[dict[str, Any]] = []
    for block in source.blocks():
        pair = by_source.get(block.address)
        if pair is None:
            continue
        other = test.find(pair.test)
        renumbered = not pair.moved and (block.label or None) != (other.label or None)
        out_pairs.append(_pair_dict(pair, engine["name"], renumbered))
        if pair.moved:
            changes.append(_change("move", block, other))
        elif renumbered:
            changes.append(_change("renumber", block, other))
        elif block.normalised_text != other.normalised_text:
            changes.append(_change("modify", block, other))

    source_set, test_set = set(source_units), set(test_units)
    deleted = [a for a in source_units if a not in by_source and a != ROOT_ADDRESS]
    inserted = [a for a in test_units if a not in taken and a != ROOT_ADDRESS]
    gone, new = set(deleted), set(inserted)
    changes += [_change("delete", source.find(a), None) for a in deleted if _is_topmost(a, source_set, gone)]
    changes += [_change("insert", None, test.find(a)) for a in inserted if _is_topmost(a, test_set, new)]
    return {
        "engine": dict(engine),
        "settings": dict(settings),
        "rules": list(rules) + list(OUTPUT_RULES),
        "pairs": out_pairs,
        "inserted": inserted,
        "deleted": deleted,
        "changes": changes,
    }


def _pair_dict(pair: PeerPair, matched_by: str, renumbered: bool) -> dict[str, Any]:
    return {
        "source": pair.source,
        "test": pair.test,
        "matched_by": matched_by,
        "confidence": round(pair.confidence, 4),
        "moved": pair.moved,
        "renumbered": renumbered,
    }
