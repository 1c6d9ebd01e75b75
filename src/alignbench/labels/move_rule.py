"""The move rule, with worked examples, in one place: the labeller's tools and docs quote this text.

Moves are where independent labellers disagreed most (11 move flags and split memberships on three
re-labelled pairs), and every disagreement traced to one of the cases below. The rule is seed 001's
definition, which is also the engine's and the scorer's, so labels, engine and metric agree by
construction: a correspondence is a move iff its source and test parents do not correspond, or it
crosses its siblings in its own scope; a moved subtree is marked once, at its topmost block.
"""

from __future__ import annotations

MOVE_RULE = """\
THE MOVE RULE. A correspondence is `move` iff (a) its source parent and test parent do not correspond
to each other, or (b) it crossed its siblings (it is outside the longest run of siblings that kept
their order). Mark a moved subtree once, at its topmost block; its children are ordinary rows.
A label change alone is never a move: inside corresponding parents, in order, it is a renumber.

Worked examples:
1. Swap. Siblings A B became B A. Exactly one of them crossed; mark the one that comes LATER in the
   source (it jumped back over the other); the other is same/renumber. For a longer run, the blocks
   outside the longest in-order run are the moves. The scorer credits an engine move reported on
   either partner of a labelled swap, since both readings describe the same event.
2. Parent split. Section 5 (5.1-5.4) became section 5 (5.1, 5.2) and a NEW section 6 (6.1, 6.2 =
   old 5.3, 5.4). Heading 6 is inserted. Old 5.3 and 5.4 now sit under a parent with no counterpart,
   so each is a `move` (two moves, one per topmost block), even though document order is unchanged.
3. Parent merged. Section 6's heading was deleted and its clauses 6.1, 6.2 now continue section 5 as
   5.5, 5.6. Heading 6 is deleted; 6.1 and 6.2 are each a `move` (their old parent has no
   counterpart). If the whole section moved with its heading, mark only the heading's section.
4. Clause moves, its heading is deleted. "Publicity" (heading + one clause) is gone as a section and
   its clause now sits in "General". The heading is deleted; the clause is a `move` to its new place.
5. Not a move. (i) was deleted and (ii), (iii) became (i), (ii) under the same parent: renumbers.
   A paragraph merged into its neighbour is a merge row, not a move.
"""
