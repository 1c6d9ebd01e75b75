"""The walk: a FIFO descent over matched parent pairs, then the global move pass, then positional
rounds until nothing new pairs (seed 001).

Within one sibling group the passes run in a fixed order - cell rule, exact, label, structural,
fuzzy - and positional runs only after moves are known, so it cannot eat a moved block.

Two extensions of seed 001, each measured on the benchmark (see the module docstrings for why):
- after the move pass, the container lift (:mod:`alignbench.alignment.lift`) pairs a moved section
  through its children's moves, so a section move is one move at the section (subtree-once rule);
- a heading, and a section headed by one, is also compared by its name (:meth:`Walk.similarity`),
  and leftover headed sections in a positional gap are ranked by name instead of zipped by rank.

Issue #29 ("never below a flat diff") adds these rules, each where its reason is written down:
- byte-identical copies pair in reading order: fuzzy candidates of equal score are ranked by the
  copies' rank among themselves before nearness, and a near match never takes a block whose
  byte-identical, unique partner waits elsewhere (:mod:`alignbench.alignment.twins`);
- a label agreement does not beat a much better text match, and a defined term is a label
  (:mod:`alignbench.alignment.labelpass`);
- the rows of a table pair by content, not by rank (:mod:`alignbench.alignment.rows`);
- a moved section whose name and body were both revised pairs when the two read alike together, as
  each side's unique best (:mod:`alignbench.alignment.sections`, a round of the container lift);
- last, the text blocks still unpaired on both sides are aligned in reading order between anchors,
  the way a flat diff would, a heading with a paragraph of the same words included
  (:mod:`alignbench.alignment.sequence`).
Similarity reads words case-folded (:meth:`FlatDocument.tokens`): an all-capitals disclaimer re-set
in sentence case is the same clause, while the exact pass still tells the two apart.
"""

from __future__ import annotations

from collections import deque

from alignbench.alignment.config import AlignmentConfig
from alignbench.alignment.exact import exact_pass
from alignbench.alignment.flat import (
    CLASS_CELL,
    CLASS_HEADING,
    CLASS_ROW,
    CLASS_SECTION,
    CLASS_TABLE,
    CLASS_TEXT,
    NAMED_CLASSES,
    FlatDocument,
)
from alignbench.alignment.headings import HeadingReadings
from alignbench.alignment.labelpass import label_pass
from alignbench.alignment.lis import lis_indices
from alignbench.alignment.order import OrderGuard, nearest_order_preserving
from alignbench.alignment.rows import rows_by_content
from alignbench.alignment.section_headings import headings_of_paired_sections
from alignbench.alignment.similarity import PairMemo, Similarity
from alignbench.alignment.twins import ExactElsewhere, copy_distances, twin_ranks

Gap = tuple[list[int], list[int]]


class Walk:
    """One alignment run. Pairs live in ``s2t``/``t2s``; pass and score are kept per source index, in
    columns like ``s2t`` (None and 0.0 where a source block is unpaired): a list slot is written and read
    for a fraction of what a dict entry costs, and a pair is never undone."""

    def __init__(
        self,
        src: FlatDocument,
        tst: FlatDocument,
        config: AlignmentConfig,
        memo: PairMemo | None = None,
        headings: HeadingReadings | None = None,
    ) -> None:
        """``memo`` and ``headings`` carry over what earlier runs on the same two documents worked out
        (:class:`alignbench.alignment.prepared.PreparedPair`); they never change what a run finds."""
        self.src = src
        self.tst = tst
        self.config = config
        memo = PairMemo(src.vocabulary) if memo is None else memo
        self.sim = Similarity(config.similarity, config.max_comparisons, memo=memo)
        self.s2t = [-1] * len(src)
        self.t2s = [-1] * len(tst)
        self.matched_by: list[str | None] = [None] * len(src)
        self.confidence: list[float] = [0.0] * len(src)
        self.queue: deque[tuple[int, int]] = deque()
        self.first_descent = True  # the descent from the roots, before any other pass
        self.groups: list[tuple[int, int]] = []
        # Pairs placed by order alone (a bucket of byte-identical siblings), by source index, and the
        # (kind class, text) keys such a bucket left over on each side: content cannot say which of the
        # twins is the leftover, so the move pass must not build a move on it (see :mod:`.moves`).
        self.ambiguous: set[int] = set()
        self.ambiguous_keys: tuple[set[tuple[int, str]], set[tuple[int, str]]] = (set(), set())
        self.headings = HeadingReadings(src, tst) if headings is None else headings
        fuzzy = {CLASS_HEADING, CLASS_TEXT, CLASS_SECTION}
        if config.table_fuzzy:
            fuzzy |= {CLASS_TABLE, CLASS_ROW}
        self.fuzzy_classes = tuple(sorted(fuzzy))  # the order fuzzy visits them in
        self.rows_by_content = config.table_fuzzy and config.enabled("fuzzy")
        self.exact_elsewhere = ExactElsewhere(self)
        # Structural pairs keyless containers (key None: no text key, heading or cells) on both sides; a
        # document pair without them on one side (the root aside) leaves it nothing to do in any group.
        self.keyless = None in src.key[1:] and None in tst.key[1:]

    # -- bookkeeping -------------------------------------------------------------------------
    def pair(self, s: int, t: int, matched_by: str, confidence: float) -> None:
        # exact._pair_unique_keys writes this out for its pairs; a change here goes there too.
        self.s2t[s] = t
        self.t2s[t] = s
        self.matched_by[s] = matched_by
        self.confidence[s] = confidence
        if self.src.children[s] or self.tst.children[t]:
            self.queue.append((s, t))

    def score(self, s: int, t: int) -> float:
        """The similarity of a pair already decided (its confidence, or a positional floor)."""
        best = self.sim.keyed_ratio(self.src.sim_tokens(s), self.tst.sim_tokens(t), s, ~t)
        if best != 1.0 and self.src.cls[s] in NAMED_CLASSES:
            named = self.headings.name_similarity(s, t, 0.0)
            if named is not None and named > best:
                best = named
            kept = self.headings.kept_children(s, t)
            if kept is not None and kept > best:
                best = kept
        return best

    def similarity(self, s: int, t: int, floor: float) -> float | None:
        """The best reading of a candidate that can reach ``floor``, else None.

        Content (own tokens, or a container's whole subtree) is always read. A heading, and a section
        headed by one, is also read by its name (:meth:`FlatDocument.names`): a rewritten section keeps
        its heading ("Definitions" -> "Definitions.") while its subtree text drifts far apart. Every
        reading is backend-independent up to the ratio itself (names are scored in pure Python), so
        both backends look at the same candidates.
        """
        best = self.sim.bounded(self.src.sim_tokens(s), self.tst.sim_tokens(t), s, ~t, floor)
        if best != 1.0 and self.src.cls[s] in NAMED_CLASSES:
            named = self.headings.name_similarity(s, t, floor)
            if named is not None and (best is None or named > best):
                best = named
            kept = self.headings.kept_children(s, t)
            if kept is not None and kept >= floor and (best is None or kept > best):
                best = kept
        return best

    def nearness(self, s: int, t: int) -> int:
        return abs(self.src.position[s] - self.tst.position[t])

    # -- the walk ------------------------------------------------------------------------------
    def run(self) -> None:
        self.pair(0, 0, "root", 1.0)
        self.descend()
        self.first_descent = False
        if self.config.enabled("move"):
            from alignbench.alignment.lift import lift_containers
            from alignbench.alignment.loose import loose_move_pass
            from alignbench.alignment.moves import move_pass

            move_pass(self)
            self.descend()
            while lift_containers(self):
                self.descend()
            if loose_move_pass(self):
                self.descend()
                while lift_containers(self):
                    self.descend()
        self.positional_rounds(0)
        if self.config.enabled("sequence"):
            from alignbench.alignment.lift import lift_containers
            from alignbench.alignment.sequence import sequence_pass

            start = len(self.groups)
            if sequence_pass(self):
                self.descend()
                # Containers whose children the sequence pass paired pair by that support, so their
                # other children align inside them (containers by content, not by position).
                while lift_containers(self):
                    self.descend()
                self.positional_rounds(start)

    def positional_rounds(self, start: int) -> None:
        """Positional filling over the groups from ``start`` on, until a round pairs nothing."""
        while True:
            groups = self.groups[start:] if start else list(self.groups)
            start = len(self.groups)
            made = 0
            for ps, pt in groups:
                made += self.positional(ps, pt)
            self.descend()
            if not made:
                break

    def descend(self) -> None:
        while self.queue:
            ps, pt = self.queue.popleft()
            self.groups.append((ps, pt))
            self.align_group(ps, pt)

    def align_group(self, ps: int, pt: int) -> None:
        src, tst = self.src, self.tst
        if src.kind[ps] == "row" and tst.kind[pt] == "row":
            self.cell_rule(ps, pt)
            return
        s2t, t2s, cls_s, cls_t = self.s2t, self.t2s, src.cls, tst.cls
        if self.first_descent and not (src.has_cells or tst.has_cells):
            # Before the move pass a block pairs only in its parent's group, which runs once: every
            # child is still unpaired here, and the per-child test below would keep them all. The
            # children lists themselves go to the exact pass, which reads them and never changes them.
            left_s, left_t = src.children[ps], tst.children[pt]
        else:
            left_s = [c for c in src.children[ps] if s2t[c] == -1 and cls_s[c] != CLASS_CELL]
            left_t = [c for c in tst.children[pt] if t2s[c] == -1 and cls_t[c] != CLASS_CELL]
        if not left_s or not left_t:
            return
        left_s, left_t = exact_pass(self, left_s, left_t)
        if not (left_s and left_t) and not (src.has_cells or tst.has_cells):
            return  # a side with nothing left unpaired: what _has_leftovers would find
        if left_s and left_t and self.rows_by_content and src.kind[ps] == "table" and tst.kind[pt] == "table":
            rows_by_content(self, left_s, left_t)
        if left_s and left_t and self.config.enabled("label"):
            self.label(left_s, left_t)
        if not self._has_leftovers(ps, pt):
            return
        gaps = self.gaps(ps, pt)
        if self.keyless and self.structural(gaps):
            gaps = self.gaps(ps, pt)  # the new container pairs split the gaps further
        if self.config.enabled("fuzzy"):
            self.fuzzy(gaps)

    def _has_leftovers(self, ps: int, pt: int) -> bool:
        # ``-1 in map(...)`` stops at the first unmatched child, at C speed.
        return -1 in map(self.s2t.__getitem__, self.src.children[ps]) and -1 in map(
            self.t2s.__getitem__, self.tst.children[pt]
        )

    # -- pass 0: cell rule ---------------------------------------------------------------------
    def cell_rule(self, ps: int, pt: int) -> None:
        cells_s = [c for c in self.src.children[ps] if self.src.cls[c] == CLASS_CELL]
        cells_t = [c for c in self.tst.children[pt] if self.tst.cls[c] == CLASS_CELL]
        for s, t in zip(cells_s, cells_t, strict=False):
            if self.s2t[s] == -1 and self.t2s[t] == -1:
                self.pair(s, t, "positional", self.score(s, t))

    # -- pass 1, exact: :mod:`alignbench.alignment.exact` (called by align_group) -----------------
    def nearest_order_preserving(self, sources: list[int], tests: list[int]) -> list[tuple[int, int]]:
        return nearest_order_preserving(sources, tests, self.src.position, self.tst.position)

    # -- pass 2: label: :mod:`alignbench.alignment.labelpass` ------------------------------------
    def label(self, left_s: list[int], left_t: list[int]) -> None:
        label_pass(self, left_s, left_t)

    # -- gaps between the anchors on the longest increasing subsequence --------------------------
    def gaps(self, ps: int, pt: int) -> list[Gap]:
        src, tst = self.src, self.tst
        kids_s, kids_t = src.children[ps], tst.children[pt]
        anchors: list[tuple[int, int]] = []
        for c in kids_s:
            t = self.s2t[c]
            if t != -1 and tst.parent[t] == pt:
                anchors.append((src.position[c], tst.position[t]))
        keep = [anchors[i] for i in lis_indices([a[1] for a in anchors])]
        keep.append((len(kids_s), len(kids_t)))
        out: list[Gap] = []
        prev_s = prev_t = -1
        for a_s, a_t in keep:
            gs = [c for c in kids_s[prev_s + 1 : a_s] if self.s2t[c] == -1 and src.cls[c] != CLASS_CELL]
            gt = [c for c in kids_t[prev_t + 1 : a_t] if self.t2s[c] == -1 and tst.cls[c] != CLASS_CELL]
            if gs and gt:
                out.append((gs, gt))
            prev_s, prev_t = a_s, a_t
        return out

    # -- pass 3: structural ----------------------------------------------------------------------
    def structural(self, gaps: list[Gap]) -> int:
        """Keyless containers (tables, headingless sections) pair in order inside each gap."""
        src, tst = self.src, self.tst
        made = 0
        for gs, gt in gaps:
            for cls in (CLASS_SECTION, CLASS_TABLE, CLASS_ROW):
                ks = [s for s in gs if src.cls[s] == cls and src.key[s] is None]
                kt = [t for t in gt if tst.cls[t] == cls and tst.key[t] is None]
                # Unequal lists pair in order; no ``strict=`` (its keyword parse costs more than the pairing).
                for s, t in zip(ks, kt):  # noqa: B905
                    self.pair(s, t, "structural", self.score(s, t))
                    made += 1
        return made

    # -- pass 4: fuzzy ---------------------------------------------------------------------------
    def fuzzy(self, gaps: list[Gap]) -> None:
        """Token similarity inside each gap, a test block seeing only sources within the rank window."""
        src, tst, sim = self.src, self.tst, self.sim
        floor = self.config.fuzzy_min_similarity
        window = self.config.fuzzy_window
        elsewhere = self.exact_elsewhere
        for gs, gt in gaps:
            candidates: list[tuple[float, int, int, int]] = []
            for cls in self.fuzzy_classes:
                cs = [s for s in gs if src.cls[s] == cls]
                ct = [t for t in gt if tst.cls[t] == cls]
                if not cs or not ct:
                    continue
                found: list[tuple[float, int, int]] = []
                for j, t in enumerate(ct):
                    for s in cs[max(0, j - window) : j + window + 1]:
                        if not sim.charge():
                            break
                        score = self.similarity(s, t, floor)
                        if score is not None and (score == 1.0 or not elsewhere.vetoes(s, t)):
                            found.append((score, s, t))
                    if sim.budget_exhausted:
                        break
                twins = twin_ranks(src.key, cs), twin_ranks(tst.key, ct)
                if not twins[0] and not twins[1]:
                    candidates.extend((-score, self.nearness(s, t), s, t) for score, s, t in found)
                    continue
                # Copies first in their reading order, then by nearness (class 1; twins.copy_distances).
                apart = copy_distances(found, (src.key, tst.key), (cs, ct), twins)
                for (score, s, t), gap in zip(found, apart, strict=True):
                    candidates.append((-score, gap << 32 | self.nearness(s, t), s, t))
            self._accept_in_order(candidates, "fuzzy")

    def _accept_in_order(
        self, candidates: list[tuple[float, int, int, int]], matched_by: str, guard: OrderGuard | None = None
    ) -> int:
        candidates.sort()
        guard = guard or OrderGuard()
        made = 0
        pos_s, pos_t = self.src.position, self.tst.position
        for neg, _, s, t in candidates:
            if self.s2t[s] == -1 and self.t2s[t] == -1 and guard.allows(pos_s[s], pos_t[t]):
                guard.add(pos_s[s], pos_t[t])
                self.pair(s, t, matched_by, -neg)
                made += 1
        return made

    # -- pass 6: positional (after moves) --------------------------------------------------------
    def positional(self, ps: int, pt: int) -> int:
        if self.src.kind[ps] == "row" and self.tst.kind[pt] == "row":
            return 0
        if not self._has_leftovers(ps, pt):
            return 0
        src, tst = self.src, self.tst
        floor = self.config.positional_min_similarity
        made = headings_of_paired_sections(self, ps, pt)
        for gs, gt in self.gaps(ps, pt):
            guard = OrderGuard()
            made += self._named_sections_in_order(gs, gt, guard)
            candidates: list[tuple[int, int, float]] = []
            for cls in (CLASS_HEADING, CLASS_TEXT, CLASS_SECTION, CLASS_TABLE, CLASS_ROW):
                cs = [s for s in gs if src.cls[s] == cls and self.s2t[s] == -1]
                ct = [t for t in gt if tst.cls[t] == cls and self.t2s[t] == -1]
                for s, t in zip(cs, ct):  # noqa: B905 (unequal lists pair in order; see structural)
                    score = self.score(s, t)
                    if score >= floor:
                        candidates.append((s, t, score))
            candidates.sort()  # positional fills in source order; it does not rank
            for s, t, score in candidates:
                if guard.allows(src.position[s], tst.position[t]):
                    guard.add(src.position[s], tst.position[t])
                    self.pair(s, t, "positional", score)
                    made += 1
        return made

    def _named_sections_in_order(self, gs: list[int], gt: list[int], guard: OrderGuard) -> int:
        """Headed sections left in a gap are ranked by name rather than zipped: a rewritten licence keeps
        its section names but drops or adds whole sections, so the i-th leftover is rarely the i-th
        one's partner ("Termination" is "Term and Termination.", two places on). Only the name can
        qualify a candidate here - boilerplate bodies ("For an additional amount for ...") would
        otherwise pair unrelated sections at this low floor. Same window and budget as fuzzy, best
        first, never crossing; whatever this leaves is zipped as before."""
        src, tst, sim = self.src, self.tst, self.sim
        named_s = [s for s in gs if src.cls[s] == CLASS_SECTION and src.names(s) is not None]
        named_t = [t for t in gt if tst.cls[t] == CLASS_SECTION and tst.names(t) is not None]
        if not named_s or not named_t:
            return 0
        floor, window = self.config.positional_min_similarity, self.config.fuzzy_window
        ranked: list[tuple[float, int, int, int]] = []
        for j, t in enumerate(named_t):
            for s in named_s[max(0, j - window) : j + window + 1]:
                if not sim.charge():
                    break
                if self.headings.name_similarity(s, t, floor) is not None:
                    score = self.score(s, t)
                    ranked.append((-score, self.nearness(s, t), s, t))
            if sim.budget_exhausted:
                break
        return self._accept_in_order(ranked, "positional", guard)
