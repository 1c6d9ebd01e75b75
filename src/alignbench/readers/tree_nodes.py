"""The tree builder's nodes: a block under construction, and its freezing into the finished block.

Split from ``nesting`` (which decides where each node goes) because building and freezing a node is
a job of its own: the node has :class:`~alignbench.blocks.Block`'s slot layout, so a finished tree is
the same objects, not a copy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from alignbench.blocks import EMPTY_ATTRS, ROOT_ADDRESS, Block


class Node:
    """A block under construction (children still growing); slotted, as one is made per block.

    Its slots are :class:`Block`'s own, in the same order, so freezing a node turns it into its
    block in place (``__class__`` assignment, which Python allows between classes of one slot
    layout): the tree is not copied into a second set of objects, one per block, at the end of a read.

    A node that has no children has the empty tuple for them (a list once it adopts a child) and one
    with no attributes the shared ``EMPTY_ATTRS``, as its block will: a leaf, most nodes, is frozen by
    giving it its address and its class only.

    It has no ``__init__``: ``Node()`` is made at C speed (no Python frame, nor ``object.__new__``'s
    slot wrapper), and the builder fills the slots of the nodes it makes per block; :func:`make_node`
    makes the others.
    """

    __slots__ = Block.__slots__
    kind: str
    label: str | None
    text: str
    level: int
    attrs: Mapping[str, Any]
    children: list[Node]

    def freeze(self, address: str = ROOT_ADDRESS) -> Block:
        """This node as its immutable block, addresses included (one pass, so ``BlockTree`` need not
        re-address); the node's children are frozen with it and the node must not be used after."""
        counts: dict[str, int] = {}
        items = 0  # list items, the commonest children, are counted without the dict
        prefix = "" if address == ROOT_ADDRESS else address
        children = self.children
        steps = _item_steps(len(children))
        for child in children:
            kind = child.kind
            if kind == "list_item":
                items += 1
                at = prefix + steps[items]  # f"{prefix}/list_item[{items}]", its step made once
            else:
                n = counts[kind] = counts.get(kind, 0) + 1
                at = f"{prefix}/{kind}[{n}]"
            if child.children:
                child.freeze(at)
            else:  # a leaf, frozen here: most blocks are leaves, and a call per block is a tenth of a read
                # (its children are already the empty tuple, its empty attrs EMPTY_ATTRS: see Node)
                child.address = at
                child._digest = None
                child.__class__ = Block  # type: ignore[assignment]
        self.children = tuple(children)  # type: ignore[assignment]
        self.address = address
        self._digest = None
        if not self.attrs:
            self.attrs = EMPTY_ATTRS
        self.__class__ = Block  # type: ignore[assignment]
        return self  # type: ignore[return-value]


# ``/list_item[n]`` at index n: a list item's step in its address, made once for every tree read (a
# formatted string per list item cost a tenth of freezing). Kept up to ``_STEPS_KEPT`` items.
_ITEM_STEPS: list[str] = [""]
_STEPS_KEPT = 4096


def _item_steps(count: int) -> list[str]:
    """The steps of list items 1 to ``count`` at least, by number."""
    steps = _ITEM_STEPS
    if count >= len(steps):
        if count >= _STEPS_KEPT:  # a container this big is rare: its steps are not kept
            return [""] + [f"/list_item[{n}]" for n in range(1, count + 1)]
        steps.extend(f"/list_item[{n}]" for n in range(len(steps), count + 1))
    return steps


def make_node(
    kind: str, label: str | None = None, text: str = "", level: int = 0, attrs: dict[str, Any] | None = None
) -> Node:
    """A node with its slots filled: no children yet (the empty tuple) and, when it has no attributes,
    the shared ``EMPTY_ATTRS``."""
    node = Node()
    node.kind = kind
    node.label = label
    node.text = text
    node.level = level
    node.attrs = attrs if attrs else EMPTY_ATTRS
    node.children = ()  # type: ignore[assignment]
    return node


def adopt(clause: Node, child: Node) -> None:
    """Append ``child`` to a clause's children. A clause starts with the shared empty tuple, as most
    clauses stay leaves, and gets its own list with its first child."""
    children = clause.children
    if children.__class__ is list:
        children.append(child)
    else:
        clause.children = [child]
