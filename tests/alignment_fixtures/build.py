"""A tiny tree builder for alignment tests: trees stated as nested calls rather than parsed text."""

from __future__ import annotations

from alignbench.blocks import Block, BlockTree


def h(text: str, label: str | None = None, level: int = 1) -> Block:
    return Block("heading", label=label, text=text, level=level)


def p(text: str, label: str | None = None) -> Block:
    return Block("paragraph", label=label, text=text)


def li(text: str, label: str | None = None) -> Block:
    return Block("list_item", label=label, text=text)


def sec(*children: Block, label: str | None = None) -> Block:
    return Block("section", label=label, children=tuple(children))


def row(*cells: str) -> Block:
    return Block("row", children=tuple(Block("cell", text=c) for c in cells))


def table(*rows: Block) -> Block:
    return Block("table", children=tuple(rows))


def doc(*children: Block) -> BlockTree:
    return BlockTree(Block("document", children=tuple(children)))


def words(seed: int, n: int) -> str:
    """Deterministic filler text of ``n`` distinct-looking words (no randomness)."""
    vocab = [
        "supplier", "customer", "shall", "notice", "terminate", "agreement", "fees", "days",
        "written", "party", "payment", "invoice", "liability", "confidential", "services", "term",
        "renewal", "breach", "cure", "period", "data", "law", "court", "assign",
    ]  # fmt: skip
    return " ".join(
        vocab[(seed * 7 + i * (seed % 5 + 1)) % len(vocab)] + str((seed + i) % 3) for i in range(n)
    )


def sample_pair():
    """Two small revisions of one contract: every pass has something to do (edits, a move, a new
    clause, a table cell). Here, not in a test module, so a subprocess can build it without importing
    pytest and hypothesis."""
    source = doc(
        sec(h("Fees", "1"), li(words(1, 12), "1.1"), li(words(2, 12), "1.2")),
        sec(h("Term", "2"), li(words(3, 12), "2.1"), p(words(4, 9))),
        table(row("a", "b"), row("c", "d")),
    )
    test = doc(
        sec(h("Fees", "1"), li(words(2, 12), "1.1"), li(words(1, 12) + " extra", "1.2")),
        sec(h("Term", "2"), li("Brand new.", "2.1"), li(words(3, 12), "2.2"), p(words(4, 9))),
        table(row("a", "b", "x"), row("c", "e")),
    )
    return source, test
