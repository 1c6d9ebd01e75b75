"""Seeded synthetic documents for timing and scale runs: clause lists, their mutations, one huge paragraph.

Everything is a pure function of a seed, so two runs (or two machines) time the same work. These
documents are never scored: the benchmark's own tiers come from :mod:`alignbench.generate`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from alignbench.blocks import Block, BlockTree

SEED = 20260905
CLAUSES_PER_SECTION = 9
Sections = list[tuple[str, list[str]]]
_WORDS = (
    "agreement", "supplier", "customer", "party", "parties", "shall", "may", "must", "not",
    "notice", "written", "days", "fees", "payment", "invoice", "services", "deliverables", "term",
    "renewal", "terminate", "termination", "breach", "cure", "period", "confidential", "information", "data",
    "personal", "processing", "law", "court", "jurisdiction", "liability", "indemnify", "warranty",
    "warrants", "reasonable", "skill", "care", "records", "audit", "insurance", "subcontract", "assign",
    "change", "control", "schedule", "order", "effective", "date",
)  # fmt: skip


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(12, 40))).capitalize() + "."


def edit(rng: random.Random, text: str) -> str:
    words = text.split()
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(words))
        words[i] = rng.choice(_WORDS) if rng.random() < 0.7 else words[i] + " " + rng.choice(_WORDS)
    return " ".join(words)


def sections(rng: random.Random, n_sections: int, per_section: int = CLAUSES_PER_SECTION) -> Sections:
    """(heading, clauses) per section; numbering is applied when a tree or text is rendered."""
    return [
        (" ".join(rng.choice(_WORDS) for _ in range(2)).title(), [sentence(rng) for _ in range(per_section)])
        for _ in range(max(1, n_sections))
    ]


def mutate(rng: random.Random, base: Sections, edited: float, moved: float, inserted: int) -> Sections:
    """Edit a fraction of clauses in place, move a fraction to another section, insert new ones."""
    out = [(title, list(clauses)) for title, clauses in base]
    slots = [(si, ci) for si, (_, clauses) in enumerate(out) for ci in range(len(clauses))]
    for si, ci in rng.sample(slots, int(len(slots) * edited)):
        out[si][1][ci] = edit(rng, out[si][1][ci])
    for si, ci in sorted(rng.sample(slots, int(len(slots) * moved)), reverse=True):
        text = out[si][1].pop(ci)
        target = out[rng.randrange(len(out))][1]
        target.insert(rng.randint(0, len(target)), text)
    for _ in range(inserted):
        target = out[rng.randrange(len(out))][1]
        target.insert(rng.randint(0, len(target)), sentence(rng))
    return out


def revised_pair(
    n_sections: int, per_section: int = CLAUSES_PER_SECTION, seed: int = SEED
) -> tuple[Sections, Sections]:
    """A document and its revision: 10% of clauses edited, 2% moved, 50 inserted."""
    rng = random.Random(seed)
    base = sections(rng, n_sections, per_section)
    return base, mutate(rng, base, edited=0.10, moved=0.02, inserted=50)


def to_tree(doc: Sequence[tuple[str, list[str]]]) -> BlockTree:
    kids = []
    for k, (title, clauses) in enumerate(doc, 1):
        items = [Block("list_item", label=f"{k}.{j}", text=text) for j, text in enumerate(clauses, 1)]
        kids.append(Block("section", children=(Block("heading", label=str(k), text=title, level=2), *items)))
    return BlockTree(Block("document", children=tuple(kids)))


def to_markdown(doc: Sequence[tuple[str, list[str]]]) -> str:
    """``## k. Title`` then ``k.j text`` lines: labels of any width (``4000.50``), read by the reader."""
    parts = []
    for k, (title, clauses) in enumerate(doc, 1):
        parts.append(f"## {k}. {title}\n")
        parts.extend(f"{k}.{j} {text}\n" for j, text in enumerate(clauses, 1))
    return "\n".join(parts)


def paragraph_pair(n_chars: int, seed: int = SEED) -> tuple[BlockTree, BlockTree]:
    """One paragraph of ``n_chars`` characters and its revision with 1% of its sentences edited."""
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    while size < n_chars:
        parts.append(sentence(rng))
        size += len(parts[-1]) + 1
    revised = list(parts)
    for i in rng.sample(range(len(parts)), max(1, len(parts) // 100)):
        revised[i] = edit(rng, parts[i])

    def tree(texts: list[str]) -> BlockTree:
        return BlockTree(Block("document", children=(Block("paragraph", text=" ".join(texts)),)))

    return tree(parts), tree(revised)


def identical_paragraphs_pair(n: int, seed: int = SEED) -> tuple[BlockTree, BlockTree]:
    """The repetitive-schedule pathology: one text n times, with 1% edited and 50 inserted."""
    rng = random.Random(seed)
    text = sentence(rng)
    test = [text] * n
    for i in rng.sample(range(n), n // 100):
        test[i] = edit(rng, text)
    for _ in range(50):
        test.insert(rng.randint(0, len(test)), sentence(rng))

    def tree(texts: list[str]) -> BlockTree:
        return BlockTree(Block("document", children=tuple(Block("paragraph", text=t) for t in texts)))

    return tree([text] * n), tree(test)
