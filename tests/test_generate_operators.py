"""Each operator on a small document: the text change it makes and the truth it records."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest

from alignbench.blocks import normalise
from alignbench.errors import AlignbenchError
from alignbench.generate.model import Document, unit_shape
from alignbench.generate.operators import OPERATORS, Record
from alignbench.generate.plans import load_plans
from alignbench.generate.roundtrip import settle
from alignbench.generate.seeds import pair_seed
from alignbench.generate.stage import _side
from alignbench.generate.truth import CROSSING_NOTE, SECTION_MOVE_NOTE, build_rows
from alignbench.readers import read

SMALL = Path(__file__).parent / "generate_fixtures" / "small.md"


@pytest.fixture(scope="module")
def base() -> Document:
    return settle(read(SMALL), str(SMALL))


def mutate(base: Document, op: str, style: str, seed: int = 3) -> tuple[Record, str, str, dict]:
    doc = base.clone()
    record = OPERATORS[op](doc, Random(seed), style)
    assert record is not None, f"{op}/{style} found no target in the small document"
    source_text, source_side = _side(base, "source")
    test_text, test_side = _side(doc, "test")  # raises if the reader does not confirm the edit
    return record, source_text, test_text, build_rows(source_side, test_side)


def by_kind(rows: dict, kind: str) -> list[dict]:
    return [r for r in rows["correspondences"] if r["kind"] == kind]


def changed(rows: dict) -> list[dict]:
    return [r for r in rows["correspondences"] if r["source_digest"] != r["test_digest"]]


@pytest.mark.parametrize(
    "style", ["number_pair", "duration", "party_swap", "sentence_insert", "sentence_drop", "word_substitute"]
)
def test_edit_text_changes_one_block_and_keeps_its_identity(base: Document, style: str) -> None:
    record, source_text, test_text, rows = mutate(base, "edit_text", style)
    assert source_text != test_text
    assert record.detail["before"] != record.detail["after"]
    edited = changed(rows)
    assert len(edited) == 1, edited
    assert edited[0]["kind"] == "same" and edited[0]["source"] == edited[0]["test"]
    assert not rows["inserted"] and not rows["deleted"]
    assert {r["kind"] for r in rows["correspondences"]} == {"same"}


def test_whitespace_only_changes_bytes_but_no_digest(base: Document) -> None:
    _, source_text, test_text, rows = mutate(base, "whitespace_only", "rewrap")
    assert source_text != test_text
    assert normalise(source_text) == normalise(test_text)
    assert {r["kind"] for r in rows["correspondences"]} == {"same"}
    assert not changed(rows)


def test_insert_clause_renumbers_the_rest_of_the_run_and_citations(base: Document) -> None:
    record, _, _, rows = mutate(base, "insert_clause", "clause", seed=5)
    assert len(rows["inserted"]) == 1
    new_label = record.detail["label"]
    assert rows["inserted"][0]["label"] == new_label
    renumbered = by_kind(rows, "renumber")
    assert renumbered, "the clauses after the insertion must be renumbered"
    # the displaced clause took the next number, and its descendants carried the prefix
    prefix, last = new_label.rsplit(".", 1)
    assert any(
        r["source_label"] == new_label and r["test_label"] == f"{prefix}.{int(last) + 1}" for r in renumbered
    )


def test_insert_clause_rewrites_a_citation(base: Document) -> None:
    # seed chosen so the clause lands before 1.3, which 1.6 cites
    for seed in range(40):
        doc = base.clone()
        record = OPERATORS["insert_clause"](doc, Random(seed), "clause")
        if record and record.detail["label"] in ("1.1", "1.2", "1.3"):
            _, test_side = _side(doc, "test")
            text = "".join(b.text for b in test_side.blocks.values())
            assert "Nothing in Section 1.4 requires" in text
            assert record.detail["cited"]
            return
    pytest.fail("no seed inserted a clause before 1.3")


def test_delete_block_records_the_subtree_and_renumbers(base: Document) -> None:
    for seed in range(40):
        doc = base.clone()
        record = OPERATORS["delete_block"](doc, Random(seed), "clause")
        if record and record.detail["label"] == "1.2":
            _, source_side = _side(base, "source")
            _, test_side = _side(doc, "test")
            rows = build_rows(source_side, test_side)
            deleted = sorted(r["label"] for r in rows["deleted"])
            assert deleted == ["(a)", "(b)", "1.2"]  # the clause goes with its subtree
            pairs = {(r["source_label"], r["test_label"]) for r in by_kind(rows, "renumber")}
            assert {("1.3", "1.2"), ("1.6", "1.5")} <= pairs
            return
    pytest.fail("no seed deleted clause 1.2")


def test_relabel_run_shift_changes_labels_only(base: Document) -> None:
    _, _, _, rows = mutate(base, "relabel_run", "shift")
    renumbered = by_kind(rows, "renumber")
    assert len(renumbered) >= 2
    assert not rows["inserted"] and not rows["deleted"] and not by_kind(rows, "move")
    # text is unchanged: the digest differs only because the label is part of it
    test_doc_rows = [r for r in rows["correspondences"] if r["source_label"] == r["test_label"]]
    assert all(r["source_digest"] == r["test_digest"] for r in test_doc_rows)


def test_relabel_run_change_style_turns_letters_into_roman(base: Document) -> None:
    _, _, _, rows = mutate(base, "relabel_run", "change_style")
    pairs = {(r["source_label"], r["test_label"]) for r in by_kind(rows, "renumber")}
    assert pairs == {("(a)", "(i)"), ("(b)", "(ii)")}


def test_move_block_is_one_move_at_the_top_and_adopts_numbering(base: Document) -> None:
    record, _, _, rows = mutate(base, "move_block", "clause", seed=2)
    moves = by_kind(rows, "move")
    assert len(moves) == 1
    move = moves[0]
    assert move["source_label"] == record.detail["from"] and move["test_label"] == record.detail["to"]
    assert move["source_label"].split(".")[0] != move["test_label"].split(".")[0]  # another section
    # descendants are ordinary rows relative to the moved parent
    inside = [r for r in rows["correspondences"] if r["test"].startswith(move["test"] + "/")]
    assert all(r["kind"] in ("same", "renumber") for r in inside)


def test_reorder_is_a_single_crossing_move_in_the_same_scope(base: Document) -> None:
    record, _, _, rows = mutate(base, "reorder", "crossing", seed=4)
    moves = by_kind(rows, "move")
    assert len(moves) == 1 and moves[0].get("note") == CROSSING_NOTE
    parent = moves[0]["source"].rsplit("/", 1)[0]
    assert moves[0]["test"].rsplit("/", 1)[0] == parent
    assert moves[0]["test_label"] == record.detail["to"]
    assert len(by_kind(rows, "renumber")) >= 2  # the clauses it jumped over shift by one


def test_section_move_records_the_heading_once(base: Document) -> None:
    _, source_text, test_text, rows = mutate(base, "section_move", "section", seed=1)
    moves = by_kind(rows, "move")
    assert len(moves) == 1 and moves[0]["note"] == SECTION_MOVE_NOTE
    assert moves[0]["source"].endswith("/heading[1]")
    assert source_text.index("Scope") < source_text.index("Fees")
    assert test_text.index("Scope") > test_text.index("Fees")
    assert not rows["inserted"] and not rows["deleted"]


def test_split_block_is_labelled_as_a_split(base: Document) -> None:
    _, _, _, rows = mutate(base, "split_block", "sentence")
    assert len(rows["splits"]) == 1
    split = rows["splits"][0]
    assert len(split["source"]) == 1 and len(split["test"]) == 2
    linked = {r["source"] for r in rows["correspondences"]}
    assert split["source"][0] not in linked


def test_merge_blocks_is_labelled_as_a_merge(base: Document) -> None:
    _, source_text, test_text, rows = mutate(base, "merge_blocks", "adjacent")
    assert len(rows["merges"]) == 1
    merge = rows["merges"][0]
    assert len(merge["source"]) == 2 and len(merge["test"]) == 1
    assert test_text.count("\n\n") == source_text.count("\n\n") - 1


def test_table_cell_edit_keeps_the_row(base: Document) -> None:
    _, _, _, rows = mutate(base, "table_edit", "cell_edit")
    edited = changed(rows)
    kinds = sorted(r["test"].rsplit("/", 1)[1].split("[")[0] for r in edited)
    assert kinds == ["cell", "row"]  # the cell changed, and so did its row's text
    assert not rows["inserted"] and not rows["deleted"]


def test_table_row_insert_and_delete(base: Document) -> None:
    _, _, _, inserted = mutate(base, "table_edit", "row_insert")
    assert sorted(r["test"].rsplit("/", 1)[1].split("[")[0] for r in inserted["inserted"]) == [
        "cell",
        "cell",
        "row",
    ]
    _, _, _, deleted = mutate(base, "table_edit", "row_delete")
    assert sorted(r["source"].rsplit("/", 1)[1].split("[")[0] for r in deleted["deleted"]) == [
        "cell",
        "cell",
        "row",
    ]


def test_an_operator_without_a_target_does_nothing(base: Document) -> None:
    doc = base.clone()
    for _, unit in doc.walk():
        unit.children = [c for c in unit.children if c.kind != "table"]
    before = unit_shape(doc.root)
    assert OPERATORS["table_edit"](doc, Random(1), "cell_edit") is None
    assert unit_shape(doc.root) == before


def test_seed_depends_only_on_version_document_and_plan() -> None:
    seed = pair_seed("stress-alpha-roman", "moves/a")
    assert seed == pair_seed("stress-alpha-roman", "moves/a")
    assert seed != pair_seed("stress-alpha-roman", "moves/b")
    assert seed != pair_seed("stress-alpha-roman", "moves/a", version="2")
    assert 0 <= seed < 2**63


def test_plans_file_errors_name_the_file_and_field(tmp_path: Path) -> None:
    (tmp_path / "doc.md").write_text("# T\n\n1.1 A clause.\n", encoding="utf-8")
    plan = tmp_path / "plans.yaml"
    plan.write_text(
        "documents:\n  - {id: d, file: doc.md, origin: o, licence: CC0-1.0, attribution: a}\n"
        "plans:\n  - id: p\n    steps:\n      - {op: shuffle}\n"
        "pairs:\n  - {plan: p, documents: [d]}\n",
        encoding="utf-8",
    )
    with pytest.raises(
        AlignbenchError, match=r"plans\.yaml: plans\[0\]\.steps\[0\]\.op: unknown operator 'shuffle'"
    ):
        load_plans(plan, tmp_path)
    plan.write_text(plan.read_text().replace("{op: shuffle}", "{op: reorder, count: 0}"), encoding="utf-8")
    with pytest.raises(AlignbenchError, match=r"steps\[0\]\.count"):
        load_plans(plan, tmp_path)


@pytest.mark.parametrize(
    "style", ["number_pair", "duration", "party_swap", "word_substitute", "sentence_drop"]
)
def test_the_kept_edit_probe_answers_as_a_fresh_probe_of_the_same_text(base: Document, style: str) -> None:
    """edit_text keeps each text's probe verdict; the verdict must be the edit's own, whatever came before."""
    from alignbench.generate.text_edits import EDIT_STYLES, _edit_applies

    texts = [unit.text for _parent, unit in base.walk() if unit.text]
    assert texts
    for text in texts + texts:  # the second pass answers from what the first kept
        assert _edit_applies(style, text) is (EDIT_STYLES[style](text, Random(0)) is not None)
    assert any(_edit_applies(style, text) for text in texts) or style in ("number_pair", "duration")
