"""The real-document conformance set (issue 28): 40 documents as people have them, each with facts
checked by eye against the document, never taken from the reader's output.

Every fact is one test. A fact that today's reader breaks is marked ``xfail(strict=True)`` with the
issue-28 reader class that breaks it (``xfail:`` in tests/conformance/facts.yaml), so the reader fixes
show up as XPASS -> FAIL until the mark is removed. tests/conformance/README.md has the vocabulary.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from alignbench.atomic import load_yaml
from alignbench.blocks import TEXT_KINDS, Block, BlockTree, normalise
from alignbench.noloss import account
from alignbench.readers import read

HERE = Path(__file__).resolve().parent / "conformance"
UNIT_KINDS = ("heading", "paragraph", "list_item", "row")
FACT_KINDS = ("separate", "heading", "label", "not_inside", "inside", "items", "not_body")
# Issue 28's reader classes, as a fact's xfail reason must cite them.
CLASSES = {
    1: "hard-wrapped text without blank lines",
    2: "labels glued to their heading",
    3: "bullets beyond - * + •",
    4: "Title Case heading rule misfires",
    5: "plain text is text",
    6: "flush-left paragraphs after a lettered sub-list",
    7: "Markdown exported from web pages",
}
_CLASS = re.compile(r"^(class [1-7]|new) \(([^)]+)\): \S")
RESERVED = (
    "gnu.org",
    "/gpl",
    "lgpl",
    "agpl",
    "gfdl",
    "eupl",
    "epl-",
    "contributor-covenant",
    "houfu/redlines",
)
# How a licence text forbids changing itself; such a text stays out of the set (the developers' guide:
# "Licence texts that forbid modification stay out"), even where it allows verbatim copies.
_FORBIDS_CHANGES = re.compile(
    r"but (?:changing it|modification) is not allowed|in\s+unmodified\s+form\s+only|"
    r"no\s+changes\s+whatsoever|permission to copy and distribute verbatim copies of this document",
    re.IGNORECASE,
)
_SPDX = re.compile(r"^(LicenseRef-[A-Za-z0-9.-]+|[A-Za-z0-9.+-]+)( (OR|AND) [A-Za-z0-9.+-]+)*$")


def _manifest() -> list[dict[str, Any]]:
    return list(load_yaml(HERE / "MANIFEST.yaml")["documents"])


def _facts() -> dict[str, dict[str, Any]]:
    return dict(load_yaml(HERE / "facts.yaml"))


DOCUMENTS = _manifest()
FACTS = _facts()


@functools.cache
def tree_of(doc_id: str) -> BlockTree:
    entry = next(d for d in DOCUMENTS if d["id"] == doc_id)
    return read(HERE / entry["file"])


def _text_of(doc_id: str) -> str:
    entry = next(d for d in DOCUMENTS if d["id"] == doc_id)
    return (HERE / entry["file"]).read_text(encoding="utf-8")


# --- anchors: a block is named by a prefix of its rendered text, label excluded ---------------------


def _text_blocks(tree: BlockTree) -> Iterator[Block]:
    return (b for b in tree.blocks() if b.kind in TEXT_KINDS)


def anchor(doc_id: str, prefix: str, of: str | None = None) -> Block:
    """The one block whose text starts with ``prefix`` (an exact match beats longer ones)."""
    want = normalise(prefix)
    found = [
        b
        for b in _text_blocks(tree_of(doc_id))
        if b.normalised_text.startswith(want) and of in (None, b.kind)
    ]
    exact = [b for b in found if b.normalised_text == want]
    found = exact or found
    if not found:
        holder = next((b for b in _text_blocks(tree_of(doc_id)) if want in b.normalised_text), None)
        where = (
            f"; it is inside {holder.kind} {holder.address} ({holder.normalised_text[:60]!r})"
            if holder
            else ""
        )
        raise AssertionError(f"{doc_id}: no {of or 'block'} starts with {prefix!r}{where}")
    if len(found) > 1:
        raise AssertionError(
            f"{doc_id}: {prefix!r} names {len(found)} blocks: {[b.address for b in found[:4]]}"
        )
    return found[0]


def _ancestors(tree: BlockTree, block: Block) -> Iterator[Block]:
    address = block.address
    while address != "/":
        address = address.rsplit("/", 1)[0] or "/"
        yield tree.find(address)


def _heading_of(block: Block) -> str:
    if block.kind == "section":
        return next((c.normalised_text for c in block.children if c.kind == "heading"), "")
    return block.normalised_text


# --- checks ------------------------------------------------------------------------------------------


def check_units(doc_id: str) -> None:
    spec = FACTS[doc_id]
    counts = Counter(b.kind for b in tree_of(doc_id).blocks() if b.kind in UNIT_KINDS)
    got = sum(counts.values())
    want, slack = int(spec["units"]), int(spec["tolerance"])
    assert abs(got - want) <= slack, (
        f"{doc_id}: the reader finds {got} units ({dict(sorted(counts.items()))}); "
        f"hand-counted {want} +- {slack} ({' '.join(str(spec['counted']).split())})"
    )


def check_noloss(doc_id: str) -> None:
    tree = tree_of(doc_id)
    result = account(_text_of(doc_id), tree)
    assert result.ok, f"{doc_id}: {result.describe()} (dropped: {tree.dropped})"


def check_fact(doc_id: str, fact: Mapping[str, Any]) -> None:
    kind = next(k for k in FACT_KINDS if k in fact)
    args = fact[kind]
    tree = tree_of(doc_id)
    if kind == "separate":
        first, second = (anchor(doc_id, text) for text in args)
        assert first.address != second.address, f"{doc_id}: {args!r} are one block {first.address}"
    elif kind == "heading":
        block = anchor(doc_id, args)
        assert block.kind == "heading", (
            f"{doc_id}: {args!r} is a {block.kind} ({block.address}), not a heading"
        )
    elif kind == "label":
        block = anchor(doc_id, args["text"])
        assert block.label == str(args["label"]), (
            f"{doc_id}: {args['text']!r} has label {block.label!r}; the document shows {args['label']!r}"
        )
    elif kind == "not_inside":
        block = anchor(doc_id, args["text"])
        bad = [a for a in _ancestors(tree, block) if a.kind == args["kind"]]
        assert not bad, f"{doc_id}: {args['text']!r} is read inside {bad[0].kind} {bad[0].address}"
    elif kind == "inside":
        block = anchor(doc_id, args["text"])
        owner = next((a for a in _ancestors(tree, block) if a.kind in TEXT_KINDS), None)
        got = "nothing" if owner is None else f"{owner.address} ({owner.normalised_text[:50]!r})"
        assert owner is not None and owner.normalised_text.startswith(normalise(args["under"])), (
            f"{doc_id}: {args['text']!r} is read under {got}, not under {args['under']!r}"
        )
    elif kind == "items":
        blocks = [anchor(doc_id, text, "list_item") for text in args["texts"]]
        parents = sorted({b.address.rsplit("/", 1)[0] for b in blocks})
        assert len(parents) == 1, (
            f"{doc_id}: {args['texts']!r} are not sibling items: {[b.address for b in blocks]}"
        )
        if "under" in args:
            parent = _heading_of(tree.find(parents[0] or "/"))
            assert parent.startswith(normalise(args["under"])), (
                f"{doc_id}: items sit under {parents[0]} ({parent[:50]!r}), not under {args['under']!r}"
            )
    elif kind == "not_body":
        hits = [b for b in _text_blocks(tree) if normalise(args) in b.normalised_text]
        assert not hits, f"{doc_id}: {args!r} is read as body text in {hits[0].kind} {hits[0].address}"


# --- parameters --------------------------------------------------------------------------------------


def _mark(doc_id: str, fact_id: str) -> list[Any]:
    reason = (FACTS[doc_id].get("xfail") or {}).get(fact_id)
    return [pytest.mark.xfail(strict=True, reason=reason)] if reason else []


def _params() -> list[Any]:
    params = []
    for entry in DOCUMENTS:
        doc_id = entry["id"]
        for fact_id in ("units", "noloss"):
            params.append(
                pytest.param(doc_id, fact_id, id=f"{doc_id}:{fact_id}", marks=_mark(doc_id, fact_id))
            )
        for fact in FACTS[doc_id]["facts"]:
            params.append(
                pytest.param(doc_id, fact["id"], id=f"{doc_id}:{fact['id']}", marks=_mark(doc_id, fact["id"]))
            )
    return params


@pytest.mark.parametrize(("doc_id", "fact_id"), _params())
def test_fact(doc_id: str, fact_id: str) -> None:
    if fact_id == "units":
        check_units(doc_id)
    elif fact_id == "noloss":
        check_noloss(doc_id)
    else:
        check_fact(doc_id, next(f for f in FACTS[doc_id]["facts"] if f["id"] == fact_id))


# --- the set itself ----------------------------------------------------------------------------------


def test_the_set_has_forty_documents_from_eight_sources_fifteen_text_five_hard_wrapped() -> None:
    assert len(DOCUMENTS) >= 40
    assert len({d["source"] for d in DOCUMENTS}) >= 8
    assert sum(d["format"] == "text" for d in DOCUMENTS) >= 15
    assert sum(bool(d["hard_wrapped"]) and d["format"] == "text" for d in DOCUMENTS) >= 5


def test_every_document_has_facts_and_every_fact_is_well_formed() -> None:
    assert sorted(FACTS) == sorted(d["id"] for d in DOCUMENTS)
    for doc_id, spec in FACTS.items():
        assert int(spec["units"]) > 0 and 0 <= int(spec["tolerance"]) <= max(2, int(spec["units"]) // 4), (
            doc_id
        )
        assert str(spec["counted"]).strip(), doc_id
        ids = [f["id"] for f in spec["facts"]]
        assert len(ids) == len(set(ids)) and len(ids) >= 2, doc_id
        for fact in spec["facts"]:
            assert sum(k in fact for k in FACT_KINDS) == 1, (doc_id, fact)
        for fact_id, reason in (spec.get("xfail") or {}).items():
            assert fact_id in ("units", "noloss", *ids), (doc_id, fact_id)
            assert _CLASS.match(reason), f"{doc_id}:{fact_id}: reason must start 'class N (name): ...'"


@pytest.mark.parametrize("entry", DOCUMENTS, ids=[d["id"] for d in DOCUMENTS])
def test_manifest_records_origin_licence_and_bytes(entry: dict[str, Any]) -> None:
    data = (HERE / entry["file"]).read_bytes()
    assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["file"]
    assert len(data) == entry["bytes"]
    assert entry["file"].endswith(".txt" if entry["format"] == "text" else ".md")
    assert entry["repository"].startswith("https://github.com/")
    assert re.fullmatch(r"[0-9a-f]{40}", entry["commit"]) and re.fullmatch(
        r"\d{4}-\d{2}(-\d{2})?", entry["date"]
    )
    assert _SPDX.match(entry["licence"]) and entry["attribution"].strip()
    if entry["licence"].startswith("LicenseRef-"):
        assert entry.get("licence_note", "").strip(), "a LicenseRef needs the note that justifies it"
    assert entry["licence"] != "LicenseRef-Verbatim-Copying", (
        "a text that allows only verbatim copies stays out"
    )
    forbids = _FORBIDS_CHANGES.search(data.decode("utf-8"))
    assert forbids is None, f"{entry['file']} forbids changes to itself ({forbids.group(0)!r}): leave it out"
    where = f"{entry['repository']}/{entry['path']}".lower()
    assert not any(r in where for r in RESERVED), where
