"""xmldiff 3.x over our block trees: its own node matching, and its own moves.

Settings are ``Differ(fast_match=True, ratio_mode="accurate")``: the defaults are far slower and pair
near-duplicates worse (issue 7). Pairs come straight from ``Differ.match``; moves are the ``MoveNode``
actions of ``Differ.diff`` over the same matching, read while the generator is paused on each action,
so the action's path still names the node before it moves. The block address rides in an ignored
attribute, so it never enters a similarity ratio.
"""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

from lxml import etree
from xmldiff import actions
from xmldiff.diff import Differ

from alignbench.blocks import BlockTree
from alignbench.errors import AlignbenchError
from alignbench.peers.blocks_xml import ADDRESS_ATTR, tree_to_xml
from alignbench.peers.output import PeerPair, alignment_json
from alignbench.peers.rules import XMLDIFF_RULES, XMLDIFF_SETTINGS

SETTINGS: dict[str, Any] = dict(XMLDIFF_SETTINGS)
RULES: tuple[str, ...] = XMLDIFF_RULES


def engine_info() -> dict[str, str]:
    return {"name": "xmldiff", "version": version("xmldiff")}


def new_differ() -> Differ:
    return Differ(ignored_attrs=[ADDRESS_ATTR], uniqueattrs=[], **XMLDIFF_SETTINGS)


def xmldiff_alignment(source: BlockTree, test: BlockTree) -> dict[str, Any]:
    """xmldiff's pairing of two block trees in the alignment JSON shape."""
    differ = new_differ()
    matches = differ.match(tree_to_xml(source), tree_to_xml(test))
    # Read every address and ratio before diff() starts rewriting the left tree.
    found = [
        (left.get(ADDRESS_ATTR), right.get(ADDRESS_ATTR), differ.node_ratio(left, right))
        for left, right, _ in matches
    ]
    moved = _moved_sources(differ)
    pairs = [PeerPair(s, t, ratio, s in moved) for s, t, ratio in found]
    units_source = [b.address for b in source.blocks()]
    units_test = [b.address for b in test.blocks()]
    return alignment_json(engine_info(), SETTINGS, RULES, source, test, pairs, units_source, units_test)


def _moved_sources(differ: Differ) -> set[str]:
    """Source addresses of the nodes xmldiff's edit script moves."""
    tree = differ.left.getroottree()
    moved: set[str] = set()
    for action in differ.diff():
        if isinstance(action, actions.MoveNode):
            nodes = tree.xpath(action.node)
            if len(nodes) != 1 or not isinstance(nodes[0], etree._Element):
                raise AlignbenchError(
                    f"xmldiff: MoveNode path {action.node} names no single node; report this as a bug"
                )
            moved.add(nodes[0].get(ADDRESS_ATTR))
    return moved
