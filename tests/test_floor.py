"""The flat floor: redlines' WholeDocumentProcessor lifted to block pairs by seed 000's two rules."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import alignbench.floor
from alignbench.blocks import Block, BlockTree
from alignbench.floor import floor_alignment
from alignbench.floor.engine import token_votes
from alignbench.floor.flatten import flatten


def _doc(*blocks: tuple[str | None, str]) -> BlockTree:
    return BlockTree(
        Block("document", children=tuple(Block("paragraph", label=lab, text=t) for lab, t in blocks))
    )


def _pairs(result: dict) -> list[tuple[str, str]]:
    return [(p["source"], p["test"]) for p in result["pairs"] if p["matched_by"] == "flat"]


def test_floor_never_imports_the_redlines_facade():
    package = Path(alignbench.floor.__file__).parent
    for module in sorted(package.glob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "redlines.redlines", module
                assert all(alias.name != "Redlines" for alias in node.names), module
            if isinstance(node, ast.Import):
                assert all(
                    alias.name in ("redlines.processor",) or not alias.name.startswith("redlines")
                    for alias in node.names
                ), module
            if isinstance(node, ast.Attribute):
                assert node.attr != "Redlines", module


def test_identical_documents_pair_one_to_one():
    doc = _doc(("1", "Alpha beta gamma."), ("2", "Delta epsilon."), (None, "Zeta eta theta iota."))
    result = floor_alignment(doc, doc)
    assert _pairs(result) == [
        ("/paragraph[1]", "/paragraph[1]"),
        ("/paragraph[2]", "/paragraph[2]"),
        ("/paragraph[3]", "/paragraph[3]"),
    ]
    assert result["inserted"] == [] and result["deleted"] == [] and result["changes"] == []


def test_inserted_block_is_unchosen_and_no_moves_are_reported():
    source = _doc(("1", "Alpha beta gamma delta."), ("2", "Theta iota kappa lambda."))
    test = _doc(
        ("1", "Alpha beta gamma delta."), (None, "Brand new words."), ("2", "Theta iota kappa lambda.")
    )
    result = floor_alignment(source, test)
    assert _pairs(result) == [("/paragraph[1]", "/paragraph[1]"), ("/paragraph[2]", "/paragraph[3]")]
    assert result["inserted"] == ["/paragraph[2]"]
    assert all(not p["moved"] and not p["renumbered"] for p in result["pairs"])


def test_a_moved_block_is_never_found_by_the_flat_engine():
    source = _doc(
        (None, "One two three four."), (None, "Five six seven eight."), (None, "Nine ten eleven twelve.")
    )
    test = _doc(
        (None, "Five six seven eight."), (None, "Nine ten eleven twelve."), (None, "One two three four.")
    )
    result = floor_alignment(source, test)
    # the longest common run wins; the moved block has no equal tokens left and pairs by position
    assert ("/paragraph[2]", "/paragraph[1]") in _pairs(result)
    assert ("/paragraph[3]", "/paragraph[2]") in _pairs(result)
    assert ("/paragraph[1]", "/paragraph[3]") not in _pairs(result)


def test_replace_spans_pair_token_by_token_in_relative_order():
    votes = list(token_votes([("equal", 0, 2, 0, 2), ("replace", 2, 5, 2, 4), ("delete", 5, 6, 4, 4)]))
    assert votes == [(0, 0), (1, 1), (2, 2), (3, 3)]


def test_plurality_tie_goes_to_the_earliest_test_block():
    # source block of four tokens splits two-and-two over two test blocks: the tie goes to the first
    source = _doc((None, "aa bb cc dd"))
    test = _doc((None, "aa bb"), (None, "cc dd"))
    result = floor_alignment(source, test)
    assert _pairs(result) == [("/paragraph[1]", "/paragraph[1]")]
    assert result["pairs"][1]["confidence"] == 0.5
    assert result["inserted"] == ["/paragraph[2]"]


def test_flatten_attributes_every_token_and_skips_empty_blocks():
    doc = BlockTree(
        Block(
            "document",
            children=(
                Block(
                    "section",
                    children=(Block("heading", label="1", text="Scope"), Block("paragraph", text="  ")),
                ),
                Block("table", children=(Block("row", children=(Block("cell", text="x y"),)),)),
            ),
        )
    )
    flat = flatten(doc)
    assert flat.text == "1 Scope\nx y"
    assert flat.owners == (
        "/section[1]/heading[1]",
        "/section[1]/heading[1]",
        None,
        "/table[1]/row[1]/cell[1]",
        "/table[1]/row[1]/cell[1]",
    )


def test_compiled_matcher_gives_the_standard_librarys_opcodes_and_is_undone():
    """The floor swaps in cydifflib for speed; its opcodes must equal difflib's, ties and repeats included."""
    import difflib

    import redlines.processor

    from alignbench.floor.engine import compiled_matcher

    words = [
        "the",
        "party",
        "shall",
        "the",
        "notice",
        "of",
        "the",
        "party",
        "to",
        "the",
        "other",
        "party",
        "in",
        "writing",
        "the",
    ]
    source = "\n".join(" ".join(words[i:] + words[:i]) for i in range(0, 14, 3)) + "\n(a) the the the."
    test = "\n".join(" ".join(words[i:] + words[:i]) for i in range(1, 14, 2)) + "\n(b) the party the."
    processor = redlines.processor.WholeDocumentProcessor(autojunk=False)
    standard = [op.opcodes for op in processor.process(source, test)]
    with compiled_matcher():
        assert redlines.processor.SequenceMatcher is not difflib.SequenceMatcher
        compiled = [op.opcodes for op in processor.process(source, test)]
    assert compiled == standard and len(standard) > 3
    assert redlines.processor.SequenceMatcher is difflib.SequenceMatcher


def test_owner_votes_sum_exactly_the_token_votes():
    """The floor counts votes a stretch at a time; the totals must equal rule 1 token by token."""
    from collections import Counter

    import redlines.processor

    from alignbench.floor.engine import owner_votes

    source = _doc(
        ("1", "Alpha beta gamma delta."), (None, "Same words here and here."), ("2", "Tail (a) end.")
    )
    test = _doc((None, "Same words here."), ("1", "Alpha beta gamma delta epsilon."), ("3", "Tail (b) end."))
    flat_source, flat_test = flatten(source), flatten(test)
    processor = redlines.processor.WholeDocumentProcessor(autojunk=False)
    opcodes = [op.opcodes for op in processor.process(flat_source.text, flat_test.text)]
    by_token: Counter[tuple[str, str]] = Counter()
    for i, j in token_votes(opcodes):
        if flat_source.owners[i] is not None and flat_test.owners[j] is not None:
            by_token[flat_source.owners[i], flat_test.owners[j]] += 1
    by_stretch: Counter[tuple[str, str]] = Counter()
    for source_owner, test_owner, count in owner_votes(opcodes, flat_source, flat_test):
        by_stretch[source_owner, test_owner] += count
    assert by_stretch == by_token and len(by_token) >= 3


def test_the_report_reads_the_floor_rules_without_importing_the_engine():
    code = (
        "import sys, alignbench.report, alignbench.floor as f; "
        "assert f.LIFTING_RULES and f.FLOOR_ENGINE['version'] == '0.6.2'; "
        "print(sorted(m for m in ('redlines', 'cydifflib', 'alignbench.floor.engine') if m in sys.modules))"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "[]"
    assert alignbench.floor.floor_alignment is floor_alignment  # still there, imported on first use


def test_shared_text_preparation_gives_the_engines_own_tokens_and_is_undone():
    """The floor remembers redlines' paragraph marks and tokens per text; same opcodes, swap undone."""
    import redlines.processor

    from alignbench.floor.engine import shared_text_preparation

    standard_tokenize = redlines.processor.tokenize_text
    source = "1. Alpha beta (a) gamma.\n2. Delta ¶ epsilon.\nZeta eta."
    tests = ["1. Alpha beta (b) gamma.\nZeta eta.", "2. Delta epsilon.\n1. Alpha beta.", source]
    processor = redlines.processor.WholeDocumentProcessor(autojunk=False)
    expected = [
        [(op.opcodes, op.source_chunk.text, op.test_chunk.text) for op in processor.process(source, t)]
        for t in tests
    ]
    with shared_text_preparation():
        assert redlines.processor.tokenize_text is not standard_tokenize
        got = [
            [(op.opcodes, op.source_chunk.text, op.test_chunk.text) for op in processor.process(source, t)]
            for t in tests * 2
        ]  # the same source object each time, as consecutive floor pairs give it
    assert got == expected * 2
    assert redlines.processor.tokenize_text is standard_tokenize
