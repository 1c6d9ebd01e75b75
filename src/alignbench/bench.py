"""``python -m alignbench.bench``: read and align timings on synthetic pairs built in the same run.

Speed is measured here and never in tests. Every pair is generated from a fixed seed, so two runs
time the same work; the figures themselves vary with the machine and are printed, not stored.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from alignbench.alignment import AlignmentConfig, align
from alignbench.alignment.similarity import Similarity, Vocabulary, multiset_bound, token_counts, tokenise
from alignbench.blocks import Block, BlockTree

SEED = 20260905
BLOCKS_PER_SECTION = 11  # section + heading + 9 clauses
_WORDS = (
    "agreement", "supplier", "customer", "party", "parties", "shall", "may", "must", "not",
    "notice", "written", "days", "fees", "payment", "invoice", "services", "deliverables", "term",
    "renewal", "terminate", "termination", "breach", "cure", "period", "confidential", "information", "data",
    "personal", "processing", "law", "court", "jurisdiction", "liability", "indemnify", "warranty",
    "warrants", "reasonable", "skill", "care", "records", "audit", "insurance", "subcontract", "assign",
    "change", "control", "schedule", "order", "effective", "date",
)  # fmt: skip

GOAL_READ_MS = 50.0
GOAL_ALIGN_MS = 25.0
GOAL_RATIO = 14.0
GOAL_IDENTICAL_S = 5.0


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(12, 40))).capitalize() + "."


def _edit(rng: random.Random, text: str) -> str:
    words = text.split()
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(words))
        words[i] = rng.choice(_WORDS) if rng.random() < 0.7 else words[i] + " " + rng.choice(_WORDS)
    return " ".join(words)


def base_sections(rng: random.Random, n_blocks: int) -> list[tuple[str, list[str]]]:
    """(heading, clauses) per section; numbering is applied when a tree or text is rendered."""
    return [
        (" ".join(rng.choice(_WORDS) for _ in range(2)).title(), [_sentence(rng) for _ in range(9)])
        for _ in range(max(1, n_blocks // BLOCKS_PER_SECTION))
    ]


def mutate(
    rng: random.Random, sections: list[tuple[str, list[str]]], edited: float, moved: float, inserted: int
) -> list[tuple[str, list[str]]]:
    """Edit a fraction of clauses in place, move a fraction to another section, insert new ones."""
    out = [(title, list(clauses)) for title, clauses in sections]
    slots = [(si, ci) for si, (_, clauses) in enumerate(out) for ci in range(len(clauses))]
    for si, ci in rng.sample(slots, int(len(slots) * edited)):
        out[si][1][ci] = _edit(rng, out[si][1][ci])
    for si, ci in sorted(rng.sample(slots, int(len(slots) * moved)), reverse=True):
        text = out[si][1].pop(ci)
        target = out[rng.randrange(len(out))][1]
        target.insert(rng.randint(0, len(target)), text)
    for _ in range(inserted):
        target = out[rng.randrange(len(out))][1]
        target.insert(rng.randint(0, len(target)), _sentence(rng))
    return out


def to_tree(sections: Sequence[tuple[str, list[str]]]) -> BlockTree:
    kids = []
    for k, (title, clauses) in enumerate(sections, 1):
        items = [Block("list_item", label=f"{k}.{j}", text=text) for j, text in enumerate(clauses, 1)]
        kids.append(Block("section", children=(Block("heading", label=str(k), text=title, level=2), *items)))
    return BlockTree(Block("document", children=tuple(kids)))


def to_markdown(sections: Sequence[tuple[str, list[str]]]) -> str:
    parts = []
    for k, (title, clauses) in enumerate(sections, 1):
        parts.append(f"## {k}. {title}\n")
        parts.extend(f"{k}.{j} {text}\n" for j, text in enumerate(clauses, 1))
    return "\n".join(parts)


def synthetic_pair(n_blocks: int, seed: int = SEED) -> tuple[BlockTree, BlockTree]:
    rng = random.Random(seed)
    base = base_sections(rng, n_blocks)
    return to_tree(base), to_tree(mutate(rng, base, edited=0.10, moved=0.02, inserted=50))


def identical_paragraphs_pair(n: int, seed: int = SEED) -> tuple[BlockTree, BlockTree]:
    """The repetitive-schedule pathology: one text n times, with 1% edited and 50 inserted."""
    rng = random.Random(seed)
    text = _sentence(rng)
    test = [text] * n
    for i in rng.sample(range(n), n // 100):
        test[i] = _edit(rng, text)
    for _ in range(50):
        test.insert(rng.randint(0, len(test)), _sentence(rng))

    def tree(texts: list[str]) -> BlockTree:
        return BlockTree(Block("document", children=tuple(Block("paragraph", text=t) for t in texts)))

    return tree([text] * n), tree(test)


def median_seconds(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def comparisons_per_second(backend: str, seed: int = SEED, n: int = 20_000) -> tuple[float, float]:
    """(full ratios per second, quick_ratio-style bounds per second) over random clause-sized token pairs."""
    rng = random.Random(seed)
    vocab = Vocabulary()
    seqs = [vocab.encode(tokenise(_sentence(rng))) for _ in range(400)]
    pairs = [(seqs[rng.randrange(400)], seqs[rng.randrange(400)]) for _ in range(n)]
    sim = Similarity(backend, max_comparisons=n)
    full = median_seconds(lambda: [sim.ratio(a, b) for a, b in pairs], 3)
    counts = [(len(a) + len(b), token_counts(a), token_counts(b)) for a, b in pairs]
    bounds = median_seconds(lambda: [multiset_bound(ca, cb, total) for total, ca, cb in counts], 3)
    return n / full, n / bounds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m alignbench.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="timed runs per figure (median reported)")
    args = parser.parse_args(argv)
    repeats = max(1, args.repeats)
    print(f"alignbench bench (seed {SEED}, median of {repeats})")

    try:
        from alignbench.readers import read
    except ImportError:
        print("read   2,000-block markdown: skipped (alignbench.readers not importable)")
    else:
        text = to_markdown(base_sections(random.Random(SEED), 2_000))
        n_read = len(read(text, format="markdown"))
        t = median_seconds(lambda: read(text, format="markdown"), repeats) * 1000
        print(
            f"read   {n_read:,}-block markdown: {t:.1f} ms "
            f"(goal < {GOAL_READ_MS:.0f} ms: {_verdict(t < GOAL_READ_MS)})"
        )

    small = synthetic_pair(2_000)
    large = synthetic_pair(20_000)
    same = identical_paragraphs_pair(10_000)
    for backend in ("difflib", "rapidfuzz"):
        config = AlignmentConfig(similarity=backend)
        t_small = median_seconds(lambda c=config: align(*small, c), repeats) * 1000
        t_large = median_seconds(lambda c=config: align(*large, c), max(1, repeats // 2)) * 1000
        ratio = t_large / t_small
        sizes = f"{len(small[0]):,}/{len(small[1]):,}"
        print(
            f"align  {backend:9} {sizes}-block pair (10% edited, 2% moved, 50 inserted): "
            f"{t_small:.1f} ms (goal <= {GOAL_ALIGN_MS:.0f} ms: {_verdict(t_small <= GOAL_ALIGN_MS)})"
        )
        print(
            f"align  {backend:9} {len(large[0]):,}/{len(large[1]):,}-block pair: {t_large:.1f} ms, "
            f"{ratio:.1f}x the 2,000 pair (goal <= {GOAL_RATIO:.0f}x: {_verdict(ratio <= GOAL_RATIO)})"
        )
        start = time.perf_counter()
        result = align(*same, config)
        t_same = time.perf_counter() - start
        print(
            f"align  {backend:9} 10,000 identical paragraphs: {t_same:.2f} s "
            f"(goal < {GOAL_IDENTICAL_S:.0f} s: {_verdict(t_same < GOAL_IDENTICAL_S)}), "
            f"budget_exhausted={str(result.budget_exhausted).lower()}, comparisons={result.comparisons:,}"
        )
    for backend in ("difflib", "rapidfuzz"):
        full, pre = comparisons_per_second(backend)
        print(
            f"similarity {backend:9} {full:,.0f} ratios/s, {pre:,.0f} multiset bounds/s (clause-sized pairs)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
