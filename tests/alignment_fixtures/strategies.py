"""Hypothesis strategies for block trees: a small vocabulary so texts collide and repeat often."""

from __future__ import annotations

from hypothesis import strategies as st

from alignbench.blocks import Block, BlockTree

SENTENCES = (
    "The Supplier shall deliver the Goods on time and in full to the Customer.",
    "The Supplier shall deliver the Goods on time to the Customer.",
    "Either party may terminate this Agreement on thirty days written notice.",
    "Fees are payable within thirty days of the date of invoice.",
    "Confidential Information stays confidential for five years after termination.",
    "Notices go to the registered office.",
    "This Agreement is governed by the laws of England.",
    "",
    "Definitions.",
)
LABELS = (None, "1", "1.1", "1.2", "2", "(a)")

texts = st.sampled_from(SENTENCES)
labels = st.sampled_from(LABELS)
leaf = st.builds(
    lambda kind, label, text: Block(kind, label=label, text=text),
    st.sampled_from(("paragraph", "list_item", "heading")),
    labels,
    texts,
)
row = st.lists(st.sampled_from(("a", "b", "Supplier", "")), min_size=0, max_size=3).map(
    lambda cells: Block("row", children=tuple(Block("cell", text=c) for c in cells))
)
table = st.lists(row, min_size=0, max_size=3).map(lambda rows: Block("table", children=tuple(rows)))
section = st.builds(
    lambda label, kids: Block("section", label=label, children=tuple(kids)),
    labels,
    st.lists(st.one_of(leaf, leaf, table), max_size=5),
)
top = st.lists(st.one_of(leaf, leaf, section, table), max_size=8)


def as_tree(children: list[Block]) -> BlockTree:
    return BlockTree(Block("document", children=tuple(children)))


@st.composite
def tree_pairs(draw):
    """A source tree and a test tree derived from it by deletes, inserts, edits and shuffles."""
    source = draw(top)
    test = list(source)
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(("delete", "insert", "swap", "replace")))
        if op == "insert" or not test:
            test.insert(draw(st.integers(0, len(test))), draw(st.one_of(leaf, section, table)))
        elif op == "delete":
            test.pop(draw(st.integers(0, len(test) - 1)))
        elif op == "swap":
            i, j = draw(st.integers(0, len(test) - 1)), draw(st.integers(0, len(test) - 1))
            test[i], test[j] = test[j], test[i]
        else:
            test[draw(st.integers(0, len(test) - 1))] = draw(st.one_of(leaf, section))
    return as_tree(source), as_tree(test)
