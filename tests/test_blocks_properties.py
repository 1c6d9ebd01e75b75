"""Property tests for the block model: addresses, digests and the dict round trip."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.blocks import Block, BlockTree, digest_of, format_address, normalise, parse_address

SETTINGS = settings(max_examples=60, deadline=None)
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
# The labels of r"[0-9]{1,2}(\.[0-9]{1,2}){0,2}|\([a-z]\)", built from plain strategies: drawing
# them through st.from_regex was a fifth of the tree property's time.
LABEL = st.one_of(
    st.none(),
    st.lists(st.text("0123456789", min_size=1, max_size=2), min_size=1, max_size=3).map(".".join),
    st.sampled_from("abcdefghijklmnopqrstuvwxyz").map("({})".format),
)


def _leaf(kind: str) -> st.SearchStrategy[Block]:
    return st.builds(Block, kind=st.just(kind), label=LABEL, text=TEXT, level=st.integers(0, 4))


def _tree() -> st.SearchStrategy[Block]:
    leaves = st.one_of(_leaf("paragraph"), _leaf("list_item"), _leaf("heading"))
    rows = st.lists(_leaf("cell"), min_size=1, max_size=3).map(
        lambda cells: Block("row", children=tuple(cells))
    )
    tables = st.lists(rows, min_size=1, max_size=3).map(lambda rs: Block("table", children=tuple(rs)))

    def extend(children: st.SearchStrategy[Block]) -> st.SearchStrategy[Block]:
        return st.one_of(
            st.lists(children, max_size=4).map(lambda cs: Block("section", level=1, children=tuple(cs))),
            st.builds(
                lambda label, text, cs: Block("list_item", label=label, text=text, children=tuple(cs)),
                LABEL,
                TEXT,
                st.lists(children, max_size=3),
            ),
        )

    body = st.recursive(st.one_of(leaves, tables), extend, max_leaves=12)
    return st.lists(body, max_size=5).map(lambda cs: Block("document", children=tuple(cs)))


@settings(max_examples=90, deadline=None)
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
