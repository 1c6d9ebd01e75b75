"""Table rows pair by content (issue #29, class 5).

A table is a set of records more than a sequence: a revision re-sorts a fee schedule, or inserts a
row at the top, and every later row shifts. Pairing the rows left after the exact pass by rank
(the positional zip) then pairs each row with its neighbour's successor. So inside a pair of tables,
the rows the exact pass left are compared with each other, whatever their order, and paired best
first at ``fuzzy_min_similarity`` or above (ties to the nearer row). A row paired out of order is a
move under the move rule, as a re-sorted record is. Rows no candidate reaches go on to the
positional pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from alignbench.alignment.flat import CLASS_ROW

if TYPE_CHECKING:
    from alignbench.alignment.engine import Walk


def rows_by_content(walk: Walk, left_s: list[int], left_t: list[int]) -> int:
    """Pair the unpaired rows of one table pair by content; returns the pairs made."""
    src, tst, sim = walk.src, walk.tst, walk.sim
    rows_s = [s for s in left_s if src.cls[s] == CLASS_ROW and walk.s2t[s] == -1]
    rows_t = [t for t in left_t if tst.cls[t] == CLASS_ROW and walk.t2s[t] == -1]
    floor = walk.config.fuzzy_min_similarity
    candidates: list[tuple[float, int, int, int]] = []
    for s in rows_s:
        for t in rows_t:
            if not sim.charge():
                break
            score = sim.bounded(src.sim_tokens(s), tst.sim_tokens(t), s, ~t, floor)
            if score is not None:
                candidates.append((-score, walk.nearness(s, t), s, t))
    candidates.sort()
    made = 0
    for neg, _, s, t in candidates:
        if walk.s2t[s] == -1 and walk.t2s[t] == -1:
            walk.pair(s, t, "fuzzy", -neg)
            made += 1
    return made
