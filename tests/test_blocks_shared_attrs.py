"""Blocks read without attributes share one empty, immutable ``attrs`` that behaves as ``{}``."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from alignbench.blocks import EMPTY_ATTRS, BlockTree
from alignbench.readers import read

TEXT = "# Terms\n\n1. First clause.\n2. Second clause.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"


def test_blocks_without_attributes_share_the_empty_attrs() -> None:
    tree = read(TEXT, format="markdown")
    empty = [b for b in tree.blocks() if not b.attrs]
    assert empty and all(b.attrs is EMPTY_ATTRS for b in empty)
    assert any(b.attrs == {"columns": 2} for b in tree.blocks())
    assert any(b.attrs == {"header": True} for b in tree.blocks())


@pytest.mark.parametrize(
    "mutate",
    [
        lambda a: a.__setitem__("x", 1),
        lambda a: a.update(x=1),
        lambda a: a.setdefault("x", 1),
        lambda a: a.pop("x", None),
        lambda a: a.clear(),
        lambda a: a.__ior__({"x": 1}),
    ],
)
def test_the_shared_attrs_refuse_every_mutation(mutate) -> None:
    with pytest.raises(TypeError):
        mutate(EMPTY_ATTRS)
    assert EMPTY_ATTRS == {} and len(EMPTY_ATTRS) == 0


def test_a_tree_with_shared_attrs_serialises_and_copies_like_any_other() -> None:
    tree = read(TEXT, format="markdown")
    assert json.loads(json.dumps(tree.to_dict())) == tree.to_dict()
    assert json.dumps(EMPTY_ATTRS) == "{}" and repr(EMPTY_ATTRS) == "{}"
    for twin in (pickle.loads(pickle.dumps(tree)), copy.deepcopy(tree), BlockTree.from_dict(tree.to_dict())):
        assert twin.root == tree.root
        digests = [(b.address, b.digest) for b in tree.blocks()]
        assert [(b.address, b.digest) for b in twin.blocks()] == digests


def test_lookup_by_address_works_without_an_index_built_up_front() -> None:
    tree = read(TEXT, format="markdown")
    for block in tree.blocks():
        assert tree.find(block.address) is block and tree.get(block.address) is block
    assert tree.get("/section[9]") is None


def test_a_trusted_block_is_the_block_the_dataclass_would_build() -> None:
    import dataclasses

    from alignbench.blocks import Block, trusted_block

    leaf = Block("list_item", "1.1", "Text", 2, {"code": True}, (), "/list_item[1]")
    fast = trusted_block("list_item", "1.1", "Text", 2, {"code": True}, (), "/list_item[1]")
    assert fast == leaf and fast.address == leaf.address and fast.digest == leaf.digest
    assert repr(fast) == repr(leaf)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.text = "changed"  # type: ignore[misc]


def test_slot_fields_are_the_dataclass_fields_in_order() -> None:
    """``trusted_block`` and the stage cache's unpickler fill slots by position from ``SLOT_FIELDS``."""
    import dataclasses

    from alignbench.blocks import SLOT_FIELDS, Block

    assert tuple(f.name for f in dataclasses.fields(Block)) == SLOT_FIELDS
