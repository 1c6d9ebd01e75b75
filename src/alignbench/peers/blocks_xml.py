"""Our block trees as XML for xmldiff: one element per block, the address in an attribute it ignores.

The element tag is the block kind and its text is :func:`alignbench.peers.lines.block_line`. The
address rides in :data:`ADDRESS_ATTR`, which the xmldiff engine passes as ``ignored_attrs`` so it never
enters a similarity ratio, yet every matched node still names the block it came from.
"""

from __future__ import annotations

from lxml import etree

from alignbench.blocks import Block, BlockTree
from alignbench.peers.lines import block_line, xml_safe

ADDRESS_ATTR = "addr"


# Characters XML 1.0 cannot carry; lxml refuses them, so they become U+FFFD on both sides alike.
def _element(block: Block) -> etree._Element:
    element = etree.Element(block.kind, {ADDRESS_ATTR: block.address})
    line = block_line(block)
    if line:
        element.text = xml_safe(line)
    for child in block.children:
        element.append(_element(child))
    return element


def tree_to_xml(tree: BlockTree) -> etree._Element:
    """The root ``<document>`` element of the whole tree."""
    return _element(tree.root)


def xml_bytes(tree: BlockTree) -> bytes:
    """Serialised XML (UTF-8, with declaration); handy for inspection and tests."""
    return etree.tostring(tree_to_xml(tree), encoding="UTF-8", xml_declaration=True)
