"""Byte-identical text, the strongest evidence there is, kept from being outbid (issue #29, class 1).

Two rules read it:
- :func:`twin_ranks` and :func:`copy_distances`: copies of one text within a gap pair in reading
  order, with the other side's copies or, copied on one side only, with the blocks they met;
- :class:`ExactElsewhere`: a near match never takes a block whose byte-identical partner, unique in
  both documents, waits unpaired elsewhere. A wrapper heading inserted above a section ("Copyright
  Infringement Claims" over "Notification of Copyright Infringement Claims") pairs the outer
  sections, and the old heading would pair with the new wrapper's at 0.75 while its own text sits
  one level down; refused here, the move pass's exact stage pairs it with its twin.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from alignbench.alignment.flat import CLASS_HEADING, CLASS_TEXT

if TYPE_CHECKING:
    from alignbench.alignment.engine import Walk
    from alignbench.alignment.flat import FlatDocument


def twin_ranks(keys: list[str | None], blocks: list[int]) -> dict[int, int]:
    """Each block whose key another of ``blocks`` shares, with its rank among them in document order.

    Byte-identical copies (boilerplate under many headings, issue #29 class 1) score alike against any
    partner, so nearness alone pairs a later copy with an earlier partner and strands the earlier one
    across it. Ranked among themselves, the k-th copy on one side prefers the k-th on the other: the
    copies pair in reading order."""
    seen: dict[str, list[int]] = {}
    for b in blocks:
        key = keys[b]
        if key is not None:
            seen.setdefault(key, []).append(b)
    return {b: k for group in seen.values() if len(group) > 1 for k, b in enumerate(group)}


def copy_distances(
    found: list[tuple[float, int, int]],
    keys: tuple[list[str | None], list[str | None]],
    places: tuple[list[int], list[int]],
    twins: tuple[dict[int, int], dict[int, int]],
) -> list[int]:
    """For each candidate ``(score, s, t)``, how far its two blocks stand apart in the copies' reading
    order (0 when neither is a copy): the fuzzy pass ranks equal scores by it before nearness.

    Copies on both sides compare their ranks among themselves (:func:`twin_ranks`). Copies on one side
    only - thirty identical paragraphs of a schedule, each reworded its own way - all score alike
    against each rewording, so which copy takes which is a question of order alone: the copies and the
    blocks they met are matched in order, as many as can be, closest places first
    (:func:`_copies_in_order`; ``places`` are the gap's blocks of this class on each side), and a
    candidate off that matching stands one further apart. The closest rewording then no longer draws
    the first copy to it and strands the copies before it."""
    twin_s, twin_t = twins
    at = ({b: k for k, b in enumerate(places[0])}, {b: k for k, b in enumerate(places[1])})
    met: dict[tuple[int, str], dict[int, set[int]]] = {}  # (side, copied text) -> copy -> partners
    for _, s, t in found:
        if s in twin_s and t not in twin_t:
            met.setdefault((0, keys[0][s] or ""), {}).setdefault(s, set()).add(t)
        elif t in twin_t and s not in twin_s:
            met.setdefault((1, keys[1][t] or ""), {}).setdefault(t, set()).add(s)
    chosen: set[tuple[int, int]] = set()
    for (side, _), partners in sorted(met.items()):
        for copy, other in _copies_in_order(partners, at[side], at[1 - side]):
            chosen.add((copy, other) if side == 0 else (other, copy))
    out = []
    for _, s, t in found:
        a, b = twin_s.get(s), twin_t.get(t)
        if a is not None and b is not None:
            out.append(abs(a - b))
        elif a is not None or b is not None:
            out.append(0 if (s, t) in chosen else 1)
        else:
            out.append(0)
    return out


def _copies_in_order(
    partners: dict[int, set[int]], at_copy: dict[int, int], at_other: dict[int, int]
) -> list[tuple[int, int]]:
    """The largest order-keeping matching of copies to the blocks they met, least place difference
    first among the largest (a dynamic programme over copies x partners, both in document order)."""
    copies = sorted(partners)
    others = sorted({o for met in partners.values() for o in met})
    if len(copies) * len(others) > _MATCHING_CELLS:
        return []
    n = len(others)
    best = [[(0, 0)] * (n + 1) for _ in range(len(copies) + 1)]
    for i, c in enumerate(copies, 1):
        row, above = best[i], best[i - 1]
        for j, o in enumerate(others, 1):
            cell = max(above[j], row[j - 1])
            if o in partners[c]:
                count, cost = above[j - 1]
                cell = max(cell, (count + 1, cost - abs(at_copy[c] - at_other[o])))
            row[j] = cell
    out = []
    i, j = len(copies), n
    while i and j:
        if best[i][j] == best[i - 1][j]:
            i -= 1
        elif best[i][j] == best[i][j - 1]:
            j -= 1
        else:
            out.append((copies[i - 1], others[j - 1]))
            i, j = i - 1, j - 1
    return out


# A copy group meeting more partners than this (copies x partners) is left to nearness: the matching
# would cost more than it can decide.
_MATCHING_CELLS = 40_000


class ExactElsewhere:
    """Which near-match candidates a unique byte-identical partner elsewhere vetoes.

    Built on first use: the whole-document counts cost one pass over each document's text blocks."""

    def __init__(self, walk: Walk) -> None:
        self.walk = walk
        self._twin_of_s: dict[int, int] | None = None
        self._twin_of_t: dict[int, int] = {}

    def vetoes(self, s: int, t: int) -> bool:
        """True when ``s`` or ``t`` has a unique identical partner other than the other, still unpaired."""
        if self._twin_of_s is None:
            self._build()
        assert self._twin_of_s is not None
        walk = self.walk
        twin = self._twin_of_s.get(s)
        if twin is not None and twin != t and walk.t2s[twin] == -1:
            return True
        twin = self._twin_of_t.get(t)
        return twin is not None and twin != s and walk.s2t[twin] == -1

    def _build(self) -> None:
        src, tst = self.walk.src, self.walk.tst
        once_s, once_t = _unique_texts(src), _unique_texts(tst)
        self._twin_of_s = {}
        for key, s in once_s.items():
            t = once_t.get(key)
            if t is not None:
                self._twin_of_s[s] = t
                self._twin_of_t[t] = s


def _unique_texts(doc: FlatDocument) -> dict[tuple[int, str], int]:
    """(kind class, text) -> the one text block (heading, paragraph, list item) that carries it.

    Counted at C speed (``Counter`` over the two columns): on a 20,000-block pair this runs once per
    document, and a Python loop over every block cost a twentieth of the whole alignment."""
    keys = list(zip(doc.cls, doc.text, strict=True))
    counts = Counter(keys)
    where = dict(zip(keys, range(len(keys)), strict=True))
    text_classes = (CLASS_HEADING, CLASS_TEXT)
    return {k: where[k] for k, n in counts.items() if n == 1 and k[1] and k[0] in text_classes}
