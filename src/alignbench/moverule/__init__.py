"""The move rule, once (issue #27): a move is a change of place in reading order.

The engine's ``moved`` flag, the generator's truth, ``alignbench label migrate-moves`` and the
scorer's tie-set credit all read correspondences through this package, and a test recomputes the
rule independently of it (tests/test_moverule_independent.py).
"""

from alignbench.moverule.sequence import kept_in_order, tie_groups
from alignbench.moverule.tree import LinkReading, Reading, Shape, classify_links, read_moves, shape_of

__all__ = [
    "LinkReading",
    "Reading",
    "Shape",
    "classify_links",
    "kept_in_order",
    "read_moves",
    "shape_of",
    "tie_groups",
]
