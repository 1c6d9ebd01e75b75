"""The move rule, with worked examples, in one place: the labeller's tools and docs quote this text.

A move is a change of place in reading order (issue #27), the rule Word's "track moves" and legal
compare tools apply: a moved clause is text that now sits somewhere else. The flags are a function
of the links (:mod:`alignbench.moverule` computes them; ``alignbench label migrate-moves`` applies it
to a label file), so labellers decide links, and the rule decides which of them moved.
"""

from __future__ import annotations

MOVE_RULE = """\
THE MOVE RULE. Read both versions top to bottom, headings included. Keep the largest set of
correspondences that keep their relative order; every correspondence outside it is a `move`. Mark a
move once, at the topmost block of the subtree that travelled (a moved section on its heading); its
children are ordinary rows. Ties (several equally small move sets): the block whose section changed
moved, then the block that comes later in the source. A change of parent that leaves reading order
intact is NOT a move: it is counted as `reparented`. A label change alone is never a move.

Worked examples:
1. Swap. Siblings A B became B A. B (later in the source) is the move; A is same/renumber. The scorer
   credits an engine move on A too: both are equally small move sets for the same links.
2. A heading inserted above clauses (a new "Part II" wrapper), deleted, promoted or demoted, or turned
   into a paragraph: nothing moved; the blocks under it are reparented.
3. A list re-indented in place (3 spaces to 4, an item promoted to a heading): not a move.
4. Section A (heading and clauses) now comes after sections B, C, D: A's heading is the one move.
5. A clause now sits under another section, earlier or later in the document: a move.
6. Not a move: (i) was deleted and (ii), (iii) became (i), (ii): renumbers.
"""
