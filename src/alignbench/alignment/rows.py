"""Table rows pair by content (issue #29, class 5).

A table is a set of records more than a sequence: a revision re-sorts a fee schedule, or inserts a
row at the top, and every later row shifts. Pairing the rows left after the exact pass by rank
(the positional zip) then pairs each row with its neighbour's successor. So inside a pair of tables,
the rows the exact pass left are compared with each other, whatever their order, and paired best
first at ``fuzzy_min_similarity`` or above (ties to the nearer row). A row paired out of order is a
move under the move rule, as a re-sorted record is.

Then a row rewritten in place ("Extra storage per terabyte | 30" -> "Included | 30") reads below any
similarity floor, yet keeps a cell word for word in the same column where a flat diff pairs it: rows
still unpaired pair by such identical cells, most first, only in table order (never crossing a row
pair), so a cell a flat diff would keep is never lost. Rows with nothing in common go on to the
positional pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from alignbench.alignment.flat import CLASS_CELL, CLASS_ROW
from alignbench.alignment.order import OrderGuard

if TYPE_CHECKING:
    from alignbench.alignment.engine import Walk
    from alignbench.alignment.flat import FlatDocument


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
    return made + _rows_by_kept_cells(walk, left_s, left_t)


def _rows_by_kept_cells(walk: Walk, left_s: list[int], left_t: list[int]) -> int:
    src, tst = walk.src, walk.tst
    rows_s = [s for s in left_s if src.cls[s] == CLASS_ROW and walk.s2t[s] == -1]
    rows_t = [t for t in left_t if tst.cls[t] == CLASS_ROW and walk.t2s[t] == -1]
    if not rows_s or not rows_t:
        return 0
    guard = OrderGuard()
    for s in src.children[src.parent[rows_s[0]]]:
        t = walk.s2t[s]
        if t != -1 and src.cls[s] == CLASS_ROW and tst.parent[t] == tst.parent[rows_t[0]]:
            guard.add(src.position[s], tst.position[t])
    candidates: list[tuple[int, int, int, int]] = []
    for s in rows_s:
        cells_s = _cells(src, s)
        for t in rows_t:
            kept = sum(1 for a, b in zip(cells_s, _cells(tst, t)) if a and a == b)  # noqa: B905
            if kept:
                candidates.append((-kept, walk.nearness(s, t), s, t))
    candidates.sort()
    made = 0
    for _, _, s, t in candidates:
        ps, pt = src.position[s], tst.position[t]
        if walk.s2t[s] == -1 and walk.t2s[t] == -1 and guard.allows(ps, pt):
            guard.add(ps, pt)
            walk.pair(s, t, "positional", walk.score(s, t))
            made += 1
    return made


def _cells(doc: FlatDocument, row: int) -> list[str]:
    return [doc.text[c] for c in doc.children[row] if doc.cls[c] == CLASS_CELL]
