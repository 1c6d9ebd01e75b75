"""``lift._support`` visits only the children of unmatched source containers; it must count exactly the
child pairs the block-by-block definition counts, at every call the engine makes.

Checked on the real tier's pairs: the lift has something to count there (a support table of at least
one entry in about a third of its calls), where generated pairs never left it any."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

from alignbench.alignment import AlignmentConfig, align, lift
from alignbench.alignment.engine import Walk
from alignbench.alignment.lift import add_heading_support
from alignbench.readers import read

REAL = Path(__file__).resolve().parents[1] / "corpus" / "real"


def reference_support(walk: Walk) -> dict[tuple[int, int], int]:
    """Every source block in document order: its pair counts for (its parent, its partner's parent)."""
    src, tst, s2t, t2s = walk.src, walk.tst, walk.s2t, walk.t2s
    support: dict[tuple[int, int], int] = {}
    for c in range(1, len(src)):
        t = s2t[c]
        if t == -1:
            continue
        ps, pt = src.parent[c], tst.parent[t]
        if ps <= 0 or pt <= 0 or s2t[ps] != -1 or t2s[pt] != -1 or src.cls[ps] != tst.cls[pt]:
            continue
        support[(ps, pt)] = support.get((ps, pt), 0) + 1
    return add_heading_support(walk, support)  # the heading bonus is the same step on either count


def test_support_equals_the_block_by_block_count_at_every_call_on_the_real_tier() -> None:
    counted = lift._support
    tables: list[dict[tuple[int, int], int]] = []
    mismatches: list[str] = []
    pair = ""

    def checked(walk: Walk) -> dict[tuple[int, int], int]:
        got = counted(walk)
        if got != reference_support(walk):
            mismatches.append(pair)
        tables.append(got)
        return got

    with mock.patch.object(lift, "_support", checked):
        for directory in sorted(p for p in REAL.iterdir() if p.is_dir()):
            pair = directory.name
            source, test = (next(iter(sorted(directory.glob(f"{side}.*")))) for side in ("source", "test"))
            align(read(str(source)), read(str(test)), AlignmentConfig(similarity="rapidfuzz"))
    assert mismatches == []
    assert len(tables) >= 100 and sum(1 for t in tables if t) >= 30  # the check is not vacuous
