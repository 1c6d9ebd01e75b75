"""Property tests for the block model: addresses, digests and the dict round trip."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.blocks import Block, BlockTree, digest_of, format_address, normalise, parse_address
from property_budget import examples

SETTINGS = settings(max_examples=examples(60), deadline=None)
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
# The labels of r"[0-9]{1,2}(\.[0-9]{1,2}){0,2}|\([a-z]\)", built from plain strategies: drawing
# them through st.from_regex was a fifth of the tree property's time.
LABEL = st.one_of(
    st.none(),
    st.lists(st.text("0123456789", min_size=1, max_size=2), min_size=1, max_size=3).map(".".join),
    st.sampled_from("abcdefghijklmnopqrstuvwxyz").map("({})".format),
)


_LEAF_KINDS = ("paragraph", "list_item", "heading")


@st.composite
def _tree(draw: st.DrawFn) -> Block:
    """A document of up to five blocks: leaves of three kinds, tables of one to three rows of one to
    three cells, and sections (up to four children) and labelled list items (up to three) holding any
    of these, at most 60 of those two containers in all. Drawn node by node in pre-order, without
    ``st.recursive``'s machinery: 13 blocks on average (up to ~70, nine deep) where ``st.recursive``
    drew 25 (up to ~90), at a third of the time; drawing was nearly all of the property's time."""
    budget = draw(st.integers(0, 60))  # sections and list items with children

    def leaf(kind: str) -> Block:
        return Block(kind, label=draw(LABEL), text=draw(TEXT), level=draw(st.integers(0, 4)))

    def rows() -> tuple[Block, ...]:
        return tuple(
            Block("row", children=tuple(leaf("cell") for _ in range(draw(st.integers(1, 3)))))
            for _ in range(draw(st.integers(1, 3)))
        )

    def block() -> Block:
        nonlocal budget
        kind = draw(st.integers(0, 5 if budget > 0 else 3))
        if kind < 3:
            return leaf(_LEAF_KINDS[kind])
        if kind == 3:
            return Block("table", children=rows())
        budget -= 1
        if kind == 4:
            return Block("section", level=1, children=tuple(block() for _ in range(draw(st.integers(0, 4)))))
        label, text = draw(LABEL), draw(TEXT)
        return Block(
            "list_item",
            label=label,
            text=text,
            children=tuple(block() for _ in range(draw(st.integers(0, 3)))),
        )

    return Block("document", children=tuple(block() for _ in range(draw(st.integers(0, 5)))))


@settings(max_examples=examples(90), deadline=None)
@given(_tree())
def test_every_generated_tree_keeps_its_invariants(root: Block) -> None:
    """One test per generated tree: drawing a tree costs hypothesis far more than these checks."""
    assert_addresses_are_unique_and_round_trip(root)
    assert_to_dict_from_dict_round_trips(root)
    assert_blocks_come_in_document_preorder(root)


def assert_addresses_are_unique_and_round_trip(root: Block) -> None:
    tree = BlockTree(root)
    addresses = [b.address for b in tree.blocks()]
    assert len(addresses) == len(set(addresses))
    for block in tree.blocks():
        assert format_address(parse_address(block.address)) == block.address
        assert tree.find(block.address) is block


def assert_to_dict_from_dict_round_trips(root: Block) -> None:
    tree = BlockTree(root, dropped={"hr": 1}, format="text", profile="contract")
    again = BlockTree.from_dict(tree.to_dict())
    assert again.to_dict() == tree.to_dict()
    assert [b.digest for b in again.blocks()] == [b.digest for b in tree.blocks()]


@SETTINGS
@given(
    LABEL, st.lists(st.text(alphabet="abcXYZ.,", min_size=1, max_size=6), min_size=1, max_size=6), st.data()
)
def test_digest_ignores_whitespace_but_not_case_or_label(label, words, data) -> None:
    spaces = [data.draw(st.sampled_from([" ", "  ", "\t", "\n ", " \r\n"])) for _ in words]
    plain = " ".join(words)
    spaced = "".join(s + w for s, w in zip(spaces, words, strict=True)) + data.draw(
        st.sampled_from(["", " \n"])
    )
    assert (
        Block("paragraph", label=label, text=spaced).digest
        == Block("paragraph", label=label, text=plain).digest
    )
    if plain.swapcase() != plain:
        assert digest_of(label, normalise(plain.swapcase())) != digest_of(label, normalise(plain))
    other = "9.9" if label != "9.9" else "9.8"
    assert digest_of(other, normalise(plain)) != digest_of(label, normalise(plain))


def _reference_preorder(block: Block) -> list[Block]:
    out = [block]
    for child in block.children:
        out.extend(_reference_preorder(child))
    return out


def assert_blocks_come_in_document_preorder(root: Block) -> None:
    tree = BlockTree(root)
    assert [b.address for b in tree.blocks()] == [b.address for b in _reference_preorder(tree.root)]
    assert all(a is b for a, b in zip(tree.blocks(), _reference_preorder(tree.root), strict=True))
