"""The stated rules by which each peer's own output becomes block pairs, importable without the extra.

The report prints them beside the leaderboard (every rule that could flatter or hobble a peer), and
each engine copies them into its outputs, so the two never drift apart.
"""

from __future__ import annotations

from typing import Any

XMLDIFF_SETTINGS: dict[str, Any] = {"fast_match": True, "ratio_mode": "accurate", "F": 0.5}
XMLDIFF_RULES: tuple[str, ...] = (
    "xmldiff: one XML element per block (tag = block kind, text = '<label> <text>'), the block address "
    "in an attribute passed to ignored_attrs; pairs are Differ.match() node pairs, moves are the "
    "MoveNode actions of Differ.diff() over the same matching; confidence is Differ.node_ratio",
)
DOCXODUS_SETTINGS: dict[str, Any] = {"docx_diff_settings": "defaults (detect_moves, deterministic)"}
DOCXODUS_RULES: tuple[str, ...] = (
    "Docxodus: one .docx paragraph per text-bearing block ('<label> <text>'); EqualBlock and ModifyBlock "
    "pair their anchors' blocks; the MoveBlock/MoveModifyBlock operations of a move group pair source "
    "with destination in order and are moves; confidence is 1 for EqualBlock, else 2 x equal tokens / "
    "(left + right tokens) of the operation's tokenDiff",
    "Docxodus: SplitBlock pairs its left block with the split segment sharing the most equal tokens, "
    "MergeBlock its right block with the merged segment sharing the most (ties: the first); the other "
    "segments stay unpaired",
    "Docxodus: a row (not a paragraph) pairs with the test row holding the plurality of its cells' "
    "partners (ties: earliest in test order; a row already taken is skipped)",
)
OUTPUT_RULES: tuple[str, ...] = (
    "both: moves are exactly the pairs the engine itself reports as moved",
    "both: a pair the engine did not move whose clause labels differ (labels as our reader parsed them) "
    "is a renumber; a remaining pair whose text differs is a modify",
    "both: inserted and deleted list the blocks the engine addressed and left unpaired; changes report "
    "each unpaired subtree once, at its topmost addressed block",
)
