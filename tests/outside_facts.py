"""Facts a reviewer checks by eye on the outside-corpus pairs (tests/outside/), and a per-pair summary.

The facts are stated in terms that survive address changes: a block is named by a short prefix of its
rendered text (its label excluded), never by its address, so a reader fix that renumbers addresses
does not invalidate a fact; only a reading that contradicts the rendered document does. See
tests/outside/README.md for the vocabulary and how facts are chosen.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench import outside
from alignbench.atomic import load_yaml
from alignbench.blocks import TEXT_KINDS, Block, BlockTree, normalise
from alignbench.outside import OutsidePair, bullet_renumbers, load_outside_pair, summarise_pair

OUTSIDE_DIR = Path(__file__).resolve().parent / "outside"
SIDES: tuple[str, ...] = outside.SIDES
FACT_KINDS: tuple[str, ...] = (
    "not_inside",
    "inside",
    "items",
    "label",
    "no_label",
    "kind",
    "not_body",
    "paired",
    "not_moved",
    "no_moves",
    "no_renumber_of_bullets",
)


class FactError(AssertionError):
    """A fact does not hold (or its anchor cannot be found): the message says what a reviewer would see."""


@dataclass(frozen=True)
class Fact:
    pair: str
    id: str
    kind: str
    args: Any
    why: str
    engine_reason: str | None  # set for facts listed under engine_facts (xfail, not a reader fact)


# One outside pair read and aligned once; the package owns reading, aligning and the summary.
Pair = OutsidePair


def pair_dirs() -> list[Path]:
    return outside.pair_dirs(OUTSIDE_DIR)


@functools.cache
def load_pair(pair_dir: Path) -> Pair:
    return load_outside_pair(pair_dir)


def load_facts(pair_dir: Path) -> list[Fact]:
    data = load_yaml(pair_dir / "facts.yaml")
    if not isinstance(data, Mapping) or data.get("pair") != pair_dir.name:
        raise ValueError(f"{pair_dir}/facts.yaml: expected a mapping with pair: {pair_dir.name}")
    facts: list[Fact] = []
    for section, engine in (("facts", False), ("engine_facts", True)):
        for row in data.get(section) or []:
            kinds = [k for k in row if k in FACT_KINDS]
            if len(kinds) != 1 or not row.get("id") or not row.get("why"):
                raise ValueError(f"{pair_dir}/facts.yaml: {row!r} needs an id, a why and one of {FACT_KINDS}")
            if engine and not row.get("reason"):
                raise ValueError(f"{pair_dir}/facts.yaml: engine fact {row['id']} needs a reason")
            reason = str(row["reason"]) if engine else None
            facts.append(
                Fact(pair_dir.name, str(row["id"]), kinds[0], row[kinds[0]], str(row["why"]), reason)
            )
    ids = [f.id for f in facts]
    if len(ids) != len(set(ids)):
        raise ValueError(f"{pair_dir}/facts.yaml: fact ids must be unique")
    return facts


# --- anchors ---------------------------------------------------------------------------------------


def _text_blocks(tree: BlockTree) -> Iterator[Block]:
    return (b for b in tree.blocks() if b.kind in TEXT_KINDS)


def matches(tree: BlockTree, prefix: str, of: str | None = None) -> list[Block]:
    """Text blocks (of kind ``of`` if given) whose normalised text starts with ``prefix``.

    An exact match beats longer ones, so "github.com/jupyter" names that item, not "github.com/jupyterhub".
    """
    want = normalise(prefix)
    found = [
        b for b in _text_blocks(tree) if b.normalised_text.startswith(want) and (of is None or b.kind == of)
    ]
    exact = [b for b in found if b.normalised_text == want]
    return exact or found


def anchor(pair: Pair, side: str, prefix: str, of: str | None = None) -> Block:
    found = matches(pair.tree(side), prefix, of)
    if not found:
        what = of or "heading, paragraph, list item or cell"
        raise FactError(f"{pair.name}/{side}: no {what} starts with {prefix!r}")
    if len(found) > 1:
        where = ", ".join(b.address for b in found[:4])
        raise FactError(f"{pair.name}/{side}: {prefix!r} is ambiguous ({len(found)} blocks: {where})")
    return found[0]


def _parent_address(address: str) -> str:
    return address.rsplit("/", 1)[0] or "/"


def _ancestors(tree: BlockTree, block: Block) -> Iterator[Block]:
    address = block.address
    while address != "/":
        address = _parent_address(address)
        yield tree.find(address)


def _heading_of(block: Block) -> str:
    """A block's own text, or for a section the text of its heading (what a reader calls it)."""
    if block.kind == "section":
        for child in block.children:
            if child.kind == "heading":
                return child.normalised_text
        return ""
    return block.normalised_text


def _sides(args: Mapping[str, Any]) -> tuple[str, ...]:
    side = args.get("side", "both")
    return SIDES if side == "both" else (side,)


# --- checks ------------------------------------------------------------------------------------------


def _not_inside(pair: Pair, args: Mapping[str, Any]) -> None:
    for side in _sides(args):
        tree = pair.tree(side)
        block = anchor(pair, side, args["text"], args.get("of"))
        bad = [a for a in _ancestors(tree, block) if a.kind == args["kind"]]
        if bad:
            raise FactError(
                f"{pair.name}/{side}: {args['text']!r} ({block.address}) is read inside "
                f"{args['kind']} {bad[0].address} ({bad[0].normalised_text[:50]!r})"
            )


def _inside(pair: Pair, args: Mapping[str, Any]) -> None:
    for side in _sides(args):
        tree = pair.tree(side)
        block = anchor(pair, side, args["text"], args.get("of"))
        owner = next((a for a in _ancestors(tree, block) if a.kind in TEXT_KINDS), None)
        if owner is None or not owner.normalised_text.startswith(normalise(args["under"])):
            got = "no item" if owner is None else f"{owner.address} ({owner.normalised_text[:50]!r})"
            raise FactError(
                f"{pair.name}/{side}: {args['text']!r} is read under {got}, not {args['under']!r}"
            )


def _items(pair: Pair, args: Mapping[str, Any]) -> None:
    for side in _sides(args):
        tree = pair.tree(side)
        blocks = [anchor(pair, side, text, "list_item") for text in args["texts"]]
        for text, block in zip(args["texts"], blocks, strict=True):
            if block.kind != "list_item":
                raise FactError(
                    f"{pair.name}/{side}: {text!r} is a {block.kind} ({block.address}), not an item"
                )
        addresses = [b.address for b in blocks]
        if len(set(addresses)) != len(addresses):
            raise FactError(
                f"{pair.name}/{side}: items {args['texts']!r} are not separate blocks: {addresses}"
            )
        parents = sorted({_parent_address(a) for a in addresses})
        if len(parents) != 1:
            raise FactError(f"{pair.name}/{side}: items {args['texts']!r} are not siblings: {addresses}")
        if "under" in args:
            parent_text = _heading_of(tree.find(parents[0]))
            if not parent_text.startswith(normalise(args["under"])):
                raise FactError(
                    f"{pair.name}/{side}: items sit under {parents[0]} ({parent_text[:50]!r}), "
                    f"not under {args['under']!r}"
                )


def _label(pair: Pair, args: Mapping[str, Any]) -> None:
    for side in _sides(args):
        block = anchor(pair, side, args["text"], args.get("of"))
        if block.label != str(args["label"]):
            raise FactError(
                f"{pair.name}/{side}: {args['text']!r} has label {block.label!r}; "
                f"the rendered document shows {args['label']!r}"
            )


def _no_label(pair: Pair, args: Mapping[str, Any]) -> None:
    for side in _sides(args):
        block = anchor(pair, side, args["text"], args.get("of"))
        if block.label is not None:
            raise FactError(f"{pair.name}/{side}: {args['text']!r} has label {block.label!r}, expected none")


def _kind(pair: Pair, args: Mapping[str, Any]) -> None:
    for side in _sides(args):
        block = anchor(pair, side, args["text"], args.get("of"))
        if block.kind != args["kind"]:
            raise FactError(
                f"{pair.name}/{side}: {args['text']!r} is a {block.kind} ({block.address}), "
                f"not a {args['kind']}"
            )


def _not_body(pair: Pair, args: Mapping[str, Any]) -> None:
    want = normalise(args["text"])
    for side in _sides(args):
        hits = [b for b in _text_blocks(pair.tree(side)) if want in b.normalised_text]
        if hits:
            raise FactError(
                f"{pair.name}/{side}: {args['text']!r} is read as body text "
                f"in {hits[0].kind} {hits[0].address}"
            )


def _pairs_by_source(pair: Pair) -> dict[str, Any]:
    return {p.source_path: p for p in pair.alignment.pairs}


def _paired(pair: Pair, args: Mapping[str, Any]) -> None:
    old = anchor(pair, "old", args["old"], args.get("of"))
    new = anchor(pair, "new", args["new"], args.get("of"))
    linked = _pairs_by_source(pair).get(old.address)
    if linked is None:
        raise FactError(f"{pair.name}: old {args['old']!r} ({old.address}) is reported deleted")
    if linked.test_path != new.address:
        raise FactError(
            f"{pair.name}: old {args['old']!r} ({old.address}) is linked to {linked.test_path}, "
            f"not to new {args['new']!r} ({new.address})"
        )


def _moved_sources(pair: Pair) -> list[str]:
    return sorted(c.source for c in pair.alignment.changes if c.kind == "move" and c.source)


def _not_moved(pair: Pair, args: Mapping[str, Any]) -> None:
    old = anchor(pair, "old", args["old"], args.get("of"))
    linked = _pairs_by_source(pair).get(old.address)
    if linked is None:
        raise FactError(f"{pair.name}: old {args['old']!r} ({old.address}) is reported deleted")
    for source in _moved_sources(pair):
        if old.address == source or old.address.startswith(source + "/"):
            raise FactError(
                f"{pair.name}: old {args['old']!r} ({old.address}) is reported moved (under {source})"
            )


def _no_moves(pair: Pair, args: Any) -> None:
    moves = [(c.source, c.test) for c in pair.alignment.changes if c.kind == "move"]
    if args and moves:
        raise FactError(f"{pair.name}: {len(moves)} move(s) reported, first {moves[0]}")


def _no_renumber_of_bullets(pair: Pair, args: Any) -> None:
    bad = bullet_renumbers(pair)
    if args and bad:
        raise FactError(f"{pair.name}: {len(bad)} renumber(s) of a bullet or empty label, first {bad[0]}")


CHECKS: dict[str, Callable[[Pair, Any], None]] = {
    "not_inside": _not_inside,
    "inside": _inside,
    "items": _items,
    "label": _label,
    "no_label": _no_label,
    "kind": _kind,
    "not_body": _not_body,
    "paired": _paired,
    "not_moved": _not_moved,
    "no_moves": _no_moves,
    "no_renumber_of_bullets": _no_renumber_of_bullets,
}


def check(fact: Fact) -> None:
    """Raise :class:`FactError` when the fact does not hold on the current reader and engine."""
    CHECKS[fact.kind](load_pair(OUTSIDE_DIR / fact.pair), fact.args)


def summarise(pair_dir: Path) -> dict[str, Any]:
    """Counts for one pair (the REPORT.md outside-set table), from the package's summary."""
    path = Path(pair_dir).resolve()
    return summarise_pair(load_pair(path), path)
