"""The sequence pass: never below a flat diff (issue #29).

The passes before it pair a block only inside its parent's group, or globally on unambiguous
evidence. A clause whose parents did not pair (a section renamed past recognition, a definition list
flattened into paragraphs, a heading demoted to a bold line) and whose text was rewritten is left
unpaired on both sides, while a flat line diff, reading both documents in order, pairs it with its
counterpart between two kept neighbours. So, last, the text blocks (headings, paragraphs, list items,
table cells) still unpaired are aligned the flat way: the paired text blocks whose order both
documents keep (a longest increasing chain) are anchors; between two consecutive anchors, the
unpaired blocks of each side are aligned as two sequences, maximising the summed similarity of
order-preserving pairs that clear ``sequence_min_similarity`` (a paragraph with a heading, or
anything with a table cell, only at ``move_min_similarity``: the same words in another kind - a
policy re-set as a table - not a guess; a label-only heading only with one of the same label).

Every pair it makes keeps reading order with its anchors, so none is a move; pairs whose parents
differ are reparented, as the move rule says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from alignbench.alignment.flat import CLASS_CELL, CLASS_HEADING, CLASS_TEXT, unmatched
from alignbench.alignment.lis import lis_indices

if TYPE_CHECKING:
    from alignbench.alignment.engine import Walk
    from alignbench.alignment.flat import FlatDocument

_TEXT_CLASSES = (CLASS_HEADING, CLASS_TEXT, CLASS_CELL)
# Cells of the alignment grid a gap may fill: a gap larger than this on both sides is aligned inside a
# band around its diagonal, so a document rewritten end to end costs the band, not the square.
_BAND = 40


def sequence_pass(walk: Walk) -> int:
    """Pair the unpaired text blocks between reading-order anchors; returns the pairs made."""
    src, tst = walk.src, walk.tst
    # Most runs leave no unpaired text block on one side or the other: found at C speed, that ends it.
    if not any(_readable(src, i) for i in unmatched(walk.s2t)) or not any(
        _readable(tst, i) for i in unmatched(walk.t2s)
    ):
        return 0
    text_s = [i for i in range(1, len(src)) if _readable(src, i)]
    text_t = [i for i in range(1, len(tst)) if _readable(tst, i)]
    rank_t = {t: k for k, t in enumerate(text_t)}
    paired = [(k, rank_t[walk.s2t[s]]) for k, s in enumerate(text_s) if walk.s2t[s] in rank_t]
    anchors = [paired[i] for i in lis_indices([p[1] for p in paired])]
    anchors.append((len(text_s), len(text_t)))
    made = 0
    prev_s = prev_t = -1
    for a_s, a_t in anchors:
        gs = [s for s in text_s[prev_s + 1 : a_s] if walk.s2t[s] == -1]
        gt = [t for t in text_t[prev_t + 1 : a_t] if walk.t2s[t] == -1]
        if gs and gt:
            made += _align_gap(walk, gs, gt)
        prev_s, prev_t = a_s, a_t
        if walk.sim.budget_exhausted:
            break
    return made


def _readable(doc: FlatDocument, i: int) -> bool:
    """A text block with words, or with a label: a block with neither carries nothing to pair it by."""
    return doc.cls[i] in _TEXT_CLASSES and bool(doc.text[i] or doc.label[i])


def _score(walk: Walk, s: int, t: int) -> float | None:
    """The pair's similarity if it may pair here, else None. A label-only block ("Sec. 601", its text
    below it) is read by its label alone: the same label between the same anchors is the same heading."""
    src, tst, config = walk.src, walk.tst, walk.config
    if not src.text[s] or not tst.text[t]:
        same = not src.text[s] and not tst.text[t] and src.label[s] == tst.label[t]
        return 1.0 if same and src.cls[s] == tst.cls[t] else None
    if src.cls[s] == tst.cls[t] and src.cls[s] != CLASS_CELL:
        return walk.similarity(s, t, config.sequence_min_similarity)
    # Another kind, or a table cell (short, and paired inside its row when the rows pair): the same
    # words only, not a guess.
    return walk.sim.bounded(src.tokens(s), tst.tokens(t), s, ~t, config.move_min_similarity)


def _align_gap(walk: Walk, gs: list[int], gt: list[int]) -> int:
    """Maximum-weight order-preserving pairing of one gap (a weighted longest common subsequence)."""
    n, m = len(gs), len(gt)
    scores: dict[tuple[int, int], float] = {}
    for i in range(n):
        centre = (i * m) // n
        lo, hi = (0, m) if n * m <= _BAND * _BAND else (max(0, centre - _BAND), min(m, centre + _BAND + 1))
        for j in range(lo, hi):
            if not walk.sim.charge():
                break
            score = _score(walk, gs[i], gt[j])
            if score is not None:
                scores[(i, j)] = score
    if not scores:
        return 0
    # best[i][j]: the best total over gs[i:], gt[j:]; filled backwards, rows kept whole (gaps are small).
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = best[i], best[i + 1]
        for j in range(m - 1, -1, -1):
            value = below[j] if below[j] >= row[j + 1] else row[j + 1]
            score = scores.get((i, j))
            if score is not None and score + below[j + 1] > value:
                value = score + below[j + 1]
            row[j] = value
    made = i = j = 0
    while i < n and j < m:
        score = scores.get((i, j))
        if score is not None and best[i][j] == score + best[i + 1][j + 1]:
            walk.pair(gs[i], gt[j], "sequence", score)
            made += 1
            i += 1
            j += 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return made
