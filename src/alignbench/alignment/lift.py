"""Container lift: pair a moved container through the moves of its children (an extension of seed 001).

Seed 001 keeps containers out of the move pass, because a container has no text of its own and a
content search over empty blocks pairs everything with everything. But a headed section that moves
*and* is renumbered (heading label 8 -> 3) then has no way to pair at all: its key changed, the label
pass refuses it, and fuzzy is gap-scoped, so it cannot reach a section that crossed its siblings.
The move pass then pairs each child separately, and the change list reports every child as its own
move - thirty moves for one event, which breaks seed 000's subtree-once rule ("a moved subtree
counts once, credited at the highest block whose entire subtree moved").

The lift recovers the container from evidence the move pass already accepted. An unmatched source
container S and an unmatched test container T of the same kind class are paired (``matched_by``
"move") when the pairs between their direct children support it:

- support(S, T) counts the already-made pairs from a child of S to a child of T, plus one when both
  still-unpaired heading children name the same thing (:func:`_headings_agree`: words, case and
  punctuation aside, a renumbered heading keeps its name);
- it needs at least ``LIFT_MIN_SUPPORT`` (2), so one child pair alone never drags a section along -
  unless the pairs carry every child of both containers but their headings (:func:`wholly_carried`:
  a one-clause section renamed and moved has one pair to give);
- S and T must be each other's unique best (ties refused), the move pass's own bar for ambiguity.

A container whose children cannot give support (a heading and a table: rows never move) lifts in a
second stage when its heading name is unique among the unmatched headed containers on both sides and
its whole subtree reads alike (``fuzzy_min_similarity``) - the move pass's exact rule for a name.

Each lifted pair goes back on the descent queue, so the container's remaining children align inside
it and the children the move pass paired now have corresponding parents: they stop being moves and
the container is reported once, at its top. Rounds repeat until nothing lifts, so nested sections
lift bottom-up (an inner section's pair is support for its parent).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from alignbench.alignment.flat import unmatched

if TYPE_CHECKING:
    from alignbench.alignment.engine import Walk
    from alignbench.alignment.flat import FlatDocument

LIFT_MIN_SUPPORT = 2


def _support(walk: Walk) -> dict[tuple[int, int], int]:
    """(S, T) -> number of child pairs linking two unmatched containers of one kind class."""
    src, tst, s2t, t2s = walk.src, walk.tst, walk.s2t, walk.t2s
    support: dict[tuple[int, int], int] = {}
    # A child counts only under an unmatched source container: those (a few in a hundred blocks, found
    # by flat.unmatched at C speed) are visited, not every block. The order of the keys is not read.
    for ps in unmatched(s2t):
        kids = src.children[ps]
        if not kids:
            continue
        cls = src.cls[ps]
        for c in kids:
            t = s2t[c]
            if t == -1:
                continue
            pt = tst.parent[t]
            if pt <= 0 or t2s[pt] != -1 or tst.cls[pt] != cls:
                continue
            key = (ps, pt)
            support[key] = support.get(key, 0) + 1
    return add_heading_support(walk, support)


def add_heading_support(walk: Walk, support: dict[tuple[int, int], int]) -> dict[tuple[int, int], int]:
    """One more for each supported (S, T) whose unpaired headings agree (``_headings_agree``)."""
    src, tst, s2t, t2s = walk.src, walk.tst, walk.s2t, walk.t2s
    for (ps, pt), count in support.items():
        hs, ht = src.heading_child(ps), tst.heading_child(pt)
        if hs is None or ht is None or s2t[hs] != -1 or t2s[ht] != -1:
            continue
        if _headings_agree(src, hs, tst, ht):
            support[(ps, pt)] = count + 1
    return support


def _headings_agree(src: FlatDocument, hs: int, tst: FlatDocument, ht: int) -> bool:
    """Two unpaired headings name the same section: the same name, or one name's words (two or more)
    all within the other's - a heading shortened or lengthened in a rewrite ("One More Thing: This
    Policy Is Available Under a Creative Commons Sharealike License" -> "Creative Commons Sharealike
    License") keeps the words that name it. Two headings with the same label agree ("14 Disclaimer of
    Warranties" / "14 Disclaimers"), and so do two with no words at all (label-only): neither names
    anything the other contradicts. Support still needs a child pair and a unique
    best."""
    if src.label[hs] and src.label[hs] == tst.label[ht]:
        return True
    a, b = _bare_name(src, hs), _bare_name(tst, ht)
    if a is None or b is None:
        return a is None and b is None  # two label-only headings ("Sec. 106." / "Sec. 103.") agree
    if a == b:
        return True
    words_a, words_b = set(a), set(b)
    return min(len(words_a), len(words_b)) >= 2 and (words_a <= words_b or words_b <= words_a)


def _bare_name(doc: FlatDocument, heading: int) -> tuple[str, ...] | None:
    """A heading as a name (case-folded words, punctuation dropped): a section that moves up a level
    and is renumbered often loses a trailing full stop too ("17. Arbitration Agreement." ->
    "16\\. Arbitration Agreement"), and byte-equal text would miss it. ``None`` when it has no words."""
    names = doc.names(heading)
    return None if names is None else names[0]


def _unique_best(support: dict[tuple[int, int], int], side: int) -> dict[int, tuple[int, int]]:
    """Block -> (count, partner) of its best supported partner; a tie for the top marks partner -1."""
    best: dict[int, tuple[int, int]] = {}
    for pair in sorted(support):
        count, me, other = support[pair], pair[side], pair[1 - side]
        seen = best.get(me)
        if seen is None or count > seen[0]:
            best[me] = (count, other)
        elif count == seen[0]:
            best[me] = (count, -1)
    return best


def lift_containers(walk: Walk) -> int:
    """One round: supported lifts first, then unique headings. Returns the number of pairs made."""
    from alignbench.alignment.sections import pair_sections_by_name_and_body

    made = _lift_supported(walk)
    made += _lift_unique_headings(walk)
    return made or pair_sections_by_name_and_body(walk)


def _lift_supported(walk: Walk) -> int:
    """Pair every mutually, uniquely best-supported container pair."""
    support = _support(walk)
    if not support:
        return 0
    best_s = _unique_best(support, 0)
    best_t = _unique_best(support, 1)
    named_s, named_t = unmatched_headed(walk, "source"), unmatched_headed(walk, "test")
    made = 0
    for ps in sorted(best_s):
        count, pt = best_s[ps]
        if pt == -1 or best_t[pt] != (count, ps):
            continue
        if count < LIFT_MIN_SUPPORT and not wholly_carried(walk, ps, pt):
            continue
        if named_elsewhere(walk, ps, pt, named_s, named_t):
            continue
        walk.pair(ps, pt, "move", walk.score(ps, pt))
        made += 1
    return made


def wholly_carried(walk: Walk, ps: int, pt: int) -> bool:
    """Every child of either container but its heading is paired into the other: a section of one
    clause whose clause moved into a section of one clause ("Contact" -> "Reach", its one paragraph
    moved with it) is that section, renamed, though one pair is all the support it can have."""
    src, tst, s2t, t2s = walk.src, walk.tst, walk.s2t, walk.t2s
    hs, ht = src.heading_child(ps), tst.heading_child(pt)
    kids_s = [c for c in src.children[ps] if c != hs]
    kids_t = [c for c in tst.children[pt] if c != ht]
    if not kids_s or not kids_t:
        return False
    return all(s2t[c] != -1 and tst.parent[s2t[c]] == pt for c in kids_s) and all(
        t2s[c] != -1 and src.parent[t2s[c]] == ps for c in kids_t
    )


def named_elsewhere(
    walk: Walk,
    ps: int,
    pt: int,
    named_s: dict[tuple[int, tuple[str, ...]], list[int]],
    named_t: dict[tuple[int, tuple[str, ...]], list[int]],
) -> bool:
    """Children's support does not outvote a name: when a wrapper section's sub-sections moved out
    ("Terms of Service:" over 1-5, its parts now under "7 Specific Service Terms") while another
    unmatched container carries its very name ("Terms of Service"), the wrapper is that container and
    its parts moved, not it. True when the two headings do not agree and either side's heading names
    another unmatched container of the other side exactly (words, case and punctuation aside), or is
    already paired into one."""
    src, tst = walk.src, walk.tst
    hs, ht = src.heading_child(ps), tst.heading_child(pt)
    if hs is None or ht is None or _headings_agree(src, hs, tst, ht):
        return False
    # A heading already paired into another unmatched container has named where its section went.
    if walk.s2t[hs] != -1 and tst.parent[walk.s2t[hs]] not in (pt, -1):
        return walk.t2s[tst.parent[walk.s2t[hs]]] == -1
    if walk.t2s[ht] != -1 and src.parent[walk.t2s[ht]] not in (ps, -1):
        return walk.s2t[src.parent[walk.t2s[ht]]] == -1
    name_s, name_t = _bare_name(src, hs), _bare_name(tst, ht)
    if name_s is not None and any(t != pt for t in named_t.get((src.cls[ps], name_s), ())):
        return True
    return name_t is not None and any(s != ps for s in named_s.get((tst.cls[pt], name_t), ()))


def unmatched_headed(walk: Walk, side: str) -> dict[tuple[int, tuple[str, ...]], list[int]]:
    """(kind class, heading name) -> the unmatched headed containers of one side carrying it.

    The heading itself may be unmatched, or already paired by the move pass (a short heading unique on
    both sides moves on its own) - then it still names its container, and the caller checks that the
    two headings are each other's partners."""
    doc = walk.src if side == "source" else walk.tst
    matched = walk.s2t if side == "source" else walk.t2s
    out: dict[tuple[int, tuple[str, ...]], list[int]] = {}
    for i in unmatched(matched):
        h = doc.heading_child(i)
        name = None if h is None else _bare_name(doc, h)
        if h is None or name is None:
            continue
        if matched[h] == -1 or walk.matched_by[h if side == "source" else matched[h]] == "move":
            out.setdefault((doc.cls[i], name), []).append(i)
    return out


def _lift_unique_headings(walk: Walk) -> int:
    """A container whose children gave no support (a table, short clauses) still lifts when its heading
    text is unique among the unmatched headed containers on both sides - the move pass's exact rule
    applied to a container's name - and its whole subtree reads alike (``fuzzy_min_similarity``)."""
    sources = unmatched_headed(walk, "source")
    if not sources:
        return 0
    tests = unmatched_headed(walk, "test")
    floor = walk.config.fuzzy_min_similarity
    sim = walk.sim
    made = 0
    for key, found in sources.items():  # insertion order = source document order
        partners = tests.get(key)
        if len(found) != 1 or partners is None or len(partners) != 1:
            continue
        s, t = found[0], partners[0]
        hs, ht = walk.src.heading_child(s), walk.tst.heading_child(t)
        if hs is None or ht is None or walk.s2t[hs] not in (-1, ht) or walk.t2s[ht] not in (-1, hs):
            continue
        if not sim.charge():
            break
        score = sim.bounded(walk.src.sim_tokens(s), walk.tst.sim_tokens(t), s, ~t, floor)
        if score is not None:
            walk.pair(s, t, "move", score)
            made += 1
    return made
