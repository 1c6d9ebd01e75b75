"""Run the flat engine and lift its token opcodes to block pairs by seed 000's two rules.

Rule 1 (token pairs): every token of an ``equal`` run votes for its counterpart; a ``replace`` run
pairs its tokens in relative order (k-th with k-th; the longer side's surplus pairs with nothing).
Rule 2 (units to blocks): a source block pairs with the test block that got the plurality of its
tokens' votes, ties going to the earliest test block in document order. A source block with no votes
is deleted; a test block nobody chose is inserted. There are no moves or renumbers: a flat engine
has no such notion, so both recalls are 0 by construction.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import cydifflib
import redlines.processor
from redlines.processor import WholeDocumentProcessor

from alignbench.blocks import ROOT_ADDRESS, BlockTree
from alignbench.floor.flatten import FlatDocument, check_token_count, flatten
from alignbench.floor.rules import FLOOR_ENGINE, LIFTING_RULES
from alignbench.recent import RecentByIdentity

_MATCHER_SWAP = threading.Lock()


@contextmanager
def compiled_matcher() -> Iterator[None]:
    """Run redlines with cydifflib's ``SequenceMatcher`` in place of the standard library's.

    cydifflib is CPython's difflib algorithm compiled (same junk, autojunk and tie-breaking rules), so
    the opcodes are identical - checked on every committed pair and by tests/test_floor.py - while
    ``find_longest_match`` without autojunk, ~70% of the floor stage, runs ~5x faster. redlines looks
    ``SequenceMatcher`` up in its module at call time, so the swap lasts exactly this block and other
    users of redlines in the process (the peer timing) still get the standard library's."""
    with _MATCHER_SWAP:
        standard = redlines.processor.SequenceMatcher
        redlines.processor.SequenceMatcher = cydifflib.SequenceMatcher
        try:
            yield
        finally:
            redlines.processor.SequenceMatcher = standard


# redlines' text preparation (paragraph marks, then tokens) is a pure function of the text, and
# consecutive pairs of one base document hand it the same source text object (see ``_flattened``):
# the source's marks and tokens are made once per run of pairs (~8% of the floor stage). The engine
# only reads the token lists it gets back.
_marked = RecentByIdentity(redlines.processor.concatenate_paragraphs_and_add_chr_182, keep=2)
_tokens = RecentByIdentity(redlines.processor.tokenize_text, keep=2)


@contextmanager
def shared_text_preparation() -> Iterator[None]:
    """Run redlines with its two text-preparation functions remembered for the last few texts; like
    :func:`compiled_matcher`, the swap lasts exactly this block (hold the same lock)."""
    names = ("concatenate_paragraphs_and_add_chr_182", "tokenize_text")
    standard = [getattr(redlines.processor, name) for name in names]
    for name, memo in zip(names, (_marked, _tokens), strict=True):
        setattr(redlines.processor, name, memo)
    try:
        yield
    finally:
        for name, function in zip(names, standard, strict=True):
            setattr(redlines.processor, name, function)


def token_votes(opcodes: list[tuple[str, int, int, int, int]]) -> Iterator[tuple[int, int]]:
    """Yield (source token index, test token index) per rule 1."""
    for tag, i1, i2, j1, j2 in opcodes:
        if tag in ("equal", "replace"):
            for offset in range(min(i2 - i1, j2 - j1)):
                yield i1 + offset, j1 + offset


def _run_end(flat: FlatDocument, index: int) -> int:
    """The first token index after ``index`` whose owner differs (runs never repeat an owner)."""
    position = bisect_right(flat.starts, index)
    return flat.starts[position] if position < len(flat.starts) else len(flat.owners)


def owner_votes(
    opcodes: list[tuple[str, int, int, int, int]], source: FlatDocument, test: FlatDocument
) -> Iterator[tuple[str, str, int]]:
    """Rule 1's votes summed per (source block, test block), a stretch of one owner pair at a time.

    The same totals as counting every pair of :func:`token_votes`, whose owners are both blocks, but
    one step per stretch instead of per token (~1M tokens on the committed corpus)."""
    for tag, i1, i2, j1, j2 in opcodes:
        if tag not in ("equal", "replace"):
            continue
        length, offset = min(i2 - i1, j2 - j1), 0
        while offset < length:
            i, j = i1 + offset, j1 + offset
            step = min(_run_end(source, i) - i, _run_end(test, j) - j, length - offset)
            source_owner, test_owner = source.owners[i], test.owners[j]
            if source_owner is not None and test_owner is not None:
                yield source_owner, test_owner, step
            offset += step


# Consecutive pairs of one base document share their source tree: its flat text is made once.
_flattened = RecentByIdentity(flatten)


def floor_alignment(source: BlockTree, test: BlockTree) -> dict[str, Any]:
    """The floor's pairs, inserted and deleted, in the shape of the alignment JSON."""
    flat_source, flat_test = _flattened(source), _flattened(test)
    with compiled_matcher(), shared_text_preparation():
        operations = WholeDocumentProcessor(autojunk=False).process(flat_source.text, flat_test.text)
    opcodes = [op.opcodes for op in operations]
    if operations:
        check_token_count(flat_source, operations[0].source_chunk.text, "source")
        check_token_count(flat_test, operations[0].test_chunk.text, "test")
    test_order = {address: index for index, address in enumerate(flat_test.units)}
    votes: dict[str, Counter[str]] = {address: Counter() for address in flat_source.units}
    for source_owner, test_owner, count in owner_votes(opcodes, flat_source, flat_test):
        votes[source_owner][test_owner] += count
    pairs: list[dict[str, Any]] = [_pair(ROOT_ADDRESS, ROOT_ADDRESS, "root", 1.0)]
    chosen: set[str] = set()
    deleted: list[str] = []
    for address in flat_source.units:
        counter = votes[address]
        if not counter:
            deleted.append(address)
            continue
        best = max(counter.values())
        target = min((t for t, n in counter.items() if n == best), key=test_order.__getitem__)
        chosen.add(target)
        pairs.append(_pair(address, target, "flat", best / sum(counter.values())))
    inserted = [address for address in flat_test.units if address not in chosen]
    return {
        "engine": dict(FLOOR_ENGINE),
        "backend": {"requested": "difflib", "resolved": "difflib"},
        "rules": list(LIFTING_RULES),
        "pairs": pairs,
        "inserted": inserted,
        "deleted": deleted,
        "changes": [],
    }


def _pair(source: str, test: str, matched_by: str, confidence: float) -> dict[str, Any]:
    return {
        "source": source,
        "test": test,
        "matched_by": matched_by,
        "confidence": round(confidence, 4),
        "moved": False,
        "renumbered": False,
    }
