"""``Document.clone`` is a deep copy: equal to the original, sharing no mutable object with it."""

from __future__ import annotations

import dataclasses

from alignbench.generate.model import Document, Unit, walk


def _doc() -> Document:
    leaf = Unit("s0003", "paragraph", "(a)", "text", 2, {"cells": ["x", "y"], "lang": "en"})
    section = Unit("s0002", "section", "1.", "Heading", 1, {"style": "atx"}, [leaf])
    return Document(Unit("s0001", "document", children=[section]), 7, ["s0002"], [], [(["a"], ["b"])])


def test_clone_equals_and_shares_nothing_mutable() -> None:
    doc = _doc()
    twin = doc.clone()
    assert twin == doc
    assert {f.name for f in dataclasses.fields(Unit)} == {
        "uid",
        "kind",
        "label",
        "text",
        "level",
        "attrs",
        "children",
    }, "a new Unit field must be copied by model._clone_unit"
    for (_, a), (_, b) in zip(walk(doc.root), walk(twin.root), strict=True):
        assert a is not b and a.attrs is not b.attrs and a.children is not b.children
    leaf, copy_leaf = doc.root.children[0].children[0], twin.root.children[0].children[0]
    assert leaf.attrs["cells"] is not copy_leaf.attrs["cells"]
    assert doc.moved is not twin.moved and doc.splits[0][0] is not twin.splits[0][0]
    copy_leaf.attrs["cells"].append("z")
    twin.root.children[0].children.append(Unit("n0001", "paragraph"))
    assert doc == _doc()
