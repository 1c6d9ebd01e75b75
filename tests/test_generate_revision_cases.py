"""Issue #29's generator operators and plans: each engine failure class reproduced with known truth."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest

from alignbench.blocks import normalise
from alignbench.generate.catalog import OPERATORS
from alignbench.generate.holdout import holdout_halves
from alignbench.generate.model import Document
from alignbench.generate.plans import load_plans
from alignbench.generate.reworded_cases import REWORD_SHARES, reword_text
from alignbench.generate.roundtrip import settle
from alignbench.generate.stage import PLANS_FILE, _side, build_pair, featured_pairs, read_enabled_plans
from alignbench.generate.truth import build_rows
from alignbench.labels.check import check_data
from alignbench.labels.documents import open_pair
from alignbench.readers import read

ROOT = Path(__file__).resolve().parent.parent
BOILERPLATE = ROOT / "corpus" / "stress" / "repeated-boilerplate.md"
TABLES = ROOT / "corpus" / "stress" / "table-heavy.md"
SMALL = Path(__file__).parent / "generate_fixtures" / "small.md"
NEW_PLANS = (
    "fix-boilerplate-format",
    "fix-restructured",
    "fix-insert-before-edit",
    "fix-table-rows",
    "fix-format-only",
    "fix-reworded-in-order",
    "fix-moved-rewritten",
)
CROSS_REFERENCES = ROOT / "corpus" / "stress" / "cross-references.md"


@pytest.fixture(scope="module")
def boilerplate() -> Document:
    return settle(read(BOILERPLATE), str(BOILERPLATE))


@pytest.fixture(scope="module")
def tables() -> Document:
    return settle(read(TABLES), str(TABLES))


@pytest.fixture(scope="module")
def cross_references() -> Document:
    return settle(read(CROSS_REFERENCES), str(CROSS_REFERENCES))


@pytest.fixture(scope="module")
def small() -> Document:
    return settle(read(SMALL), str(SMALL))


def mutate(base: Document, op: str, style: str, seed: int = 5) -> tuple[dict, Document, dict, dict]:
    doc = base.clone()
    record = OPERATORS[op](doc, Random(seed), style)
    assert record is not None, f"{op} found no target"
    source_text, source_side = _side(base, "source")
    test_text, test_side = _side(doc, "test")  # raises if the reader does not confirm the edit
    assert source_text != test_text
    rows = build_rows(source_side, test_side)
    return record.detail, doc, rows, {"source": source_side, "test": test_side}


def kinds(rows: dict) -> list[str]:
    return [r["kind"] for r in rows["correspondences"]]


def test_demote_heading_makes_a_plain_line_with_the_same_words_and_no_move(boilerplate: Document) -> None:
    detail, doc, rows, sides = mutate(boilerplate, "demote_heading", "plain")
    uid = detail["heading"]
    source_block, test_block = sides["source"].blocks[uid], sides["test"].blocks[uid]
    assert (source_block.kind, test_block.kind) == ("heading", "paragraph")
    assert normalise(source_block.text) == normalise(test_block.text)
    assert source_block.digest == test_block.digest
    assert "move" not in kinds(rows) and not rows["inserted"] and not rows["deleted"]
    assert uid in doc.reparented
    assert all(r["source_digest"] == r["test_digest"] for r in rows["correspondences"])


def test_promote_line_makes_a_heading_over_the_blocks_after_it_with_no_move(boilerplate: Document) -> None:
    detail, doc, rows, sides = mutate(boilerplate, "promote_line", "heading")
    uid = detail["heading"]
    source_block, test_block = sides["source"].blocks[uid], sides["test"].blocks[uid]
    assert (source_block.kind, test_block.kind) == ("paragraph", "heading")
    assert source_block.digest == test_block.digest
    assert detail["blocks"] >= 1 and uid in doc.reparented
    assert "move" not in kinds(rows) and not rows["inserted"] and not rows["deleted"]
    assert all(r["source_digest"] == r["test_digest"] for r in rows["correspondences"])
    # the blocks after the line now sit one level deeper
    moved_down = [r for r in rows["correspondences"] if r["test"].count("/") > r["source"].count("/")]
    assert len(moved_down) == detail["blocks"] + 1


def test_demote_and_promote_do_nothing_without_a_target(small: Document) -> None:
    assert OPERATORS["demote_heading"](small.clone(), Random(1), "plain") is None


def test_rename_heading_rewords_one_heading_only(boilerplate: Document) -> None:
    detail, _doc, rows, _sides = mutate(boilerplate, "rename_heading", "reword")
    assert detail["before"] != detail["after"]
    changed = [r for r in rows["correspondences"] if r["source_digest"] != r["test_digest"]]
    assert len(changed) == 1 and "/heading[" in changed[0]["source"]
    assert set(kinds(rows)) == {"same"}


def test_section_rewrite_renames_a_moved_section_and_rewords_half_its_blocks(small: Document) -> None:
    doc = small.clone()
    rng = Random(5)
    assert OPERATORS["section_rewrite"](doc, rng, "partial") is None  # nothing has moved yet
    assert OPERATORS["section_move"](doc, rng, "section") is not None
    record = OPERATORS["section_rewrite"](doc, rng, "partial")
    assert record is not None
    heading = record.detail["heading"]
    assert heading in doc.section_moves and record.detail["before"] != record.detail["after"]
    rows = build_rows(_side(small, "source")[1], _side(doc, "test")[1])
    changed = [r for r in rows["correspondences"] if r["source_digest"] != r["test_digest"]]
    assert len(changed) >= 1 + record.detail["edited"] >= 2
    assert "move" in kinds(rows) and not rows["inserted"] and not rows["deleted"]


def test_section_rewrite_reworded_rewrites_every_long_clause_of_the_moved_section(small: Document) -> None:
    doc = small.clone()
    rng = Random(5)
    assert OPERATORS["section_move"](doc, rng, "section") is not None
    record = OPERATORS["section_rewrite"](doc, rng, "reworded")
    assert record is not None and record.style == "reworded"
    [section] = [
        u
        for _p, u in doc.walk()
        if u.kind == "section" and u.children and u.children[0].uid == record.detail["heading"]
    ]
    long_blocks = [c for c in section.children[1:] if c.kind in ("paragraph", "list_item") and c.words >= 10]
    assert record.detail["edited"] == len(long_blocks) >= 1
    before = {u.uid: u.text for _p, u in small.walk()}
    for block in long_blocks:  # a third to a half of its words replaced
        old, new = before[block.uid].split(), block.text.split()
        replaced = sum(a != b for a, b in zip(old, new, strict=True))
        assert len(old) / 3 <= replaced <= len(old) / 2 + 1


@pytest.mark.parametrize("style", ["word_substitute", "sentence_insert", "lookalike"])
def test_insert_before_edit_takes_the_number_and_the_old_clause_is_edited_and_renumbered(
    small: Document, style: str
) -> None:
    detail, _doc, rows, sides = mutate(small, "insert_before_edit", style)
    [inserted] = rows["inserted"]
    assert inserted["label"] == detail["label"]
    displaced = sides["test"].blocks[detail["displaced"]]
    [row] = [r for r in rows["correspondences"] if r["test"] == displaced.address]
    assert row["source_label"] == detail["label"] and row["test_label"] == detail["to"] != detail["label"]
    assert row["kind"] == "renumber"
    assert row["source_digest"] != row["test_digest"]
    assert not rows["deleted"]


def test_a_lookalike_insert_shares_the_opening_words_of_the_clause_it_displaces(small: Document) -> None:
    """Class 4: the new clause's label and half its words point at the old clause; the old clause's
    text, reworded, points at its new place."""
    base_texts = {u.uid: " ".join(u.text.split()) for _, u in small.walk()}
    detail, doc, _rows, _sides = mutate(small, "insert_before_edit", "lookalike")
    units = doc.index()
    new_text = " ".join(units[detail["unit"]][1].text.split())
    old_words = base_texts[detail["displaced"]].split()
    assert new_text.startswith(" ".join(old_words[: len(old_words) // 2]) + " ")
    assert new_text != base_texts[detail["displaced"]]


def test_row_reorder_is_one_row_move_with_its_cells_unchanged(tables: Document) -> None:
    detail, _doc, rows, sides = mutate(tables, "row_reorder", "distant")
    assert abs(detail["from"] - detail["to"]) >= 2
    row = sides["test"].blocks[detail["row"]]
    moves = [r for r in rows["correspondences"] if r["kind"] == "move"]
    assert [m["test"] for m in moves] == [row.address]
    assert all(r["source_digest"] == r["test_digest"] for r in rows["correspondences"])


def test_row_reorder_with_an_edit_changes_one_cell_of_the_moved_row(tables: Document) -> None:
    detail, _doc, rows, sides = mutate(tables, "row_reorder", "distant_edit")
    row = sides["test"].blocks[detail["row"]]
    changed = [r for r in rows["correspondences"] if r["source_digest"] != r["test_digest"]]
    edited = sides["test"].blocks[detail["edited_cell"]]
    assert sorted(r["test"] for r in changed) == sorted([row.address, edited.address])
    assert [r["test"] for r in rows["correspondences"] if r["kind"] == "move"] == [row.address]


def test_the_new_plans_are_defined_and_enabled() -> None:
    plans = load_plans(ROOT / PLANS_FILE, ROOT)
    assert set(NEW_PLANS) <= set(plans.plans)
    assert set(NEW_PLANS) <= set(read_enabled_plans(ROOT) or plans.plans)


def test_the_new_document_leaves_every_other_document_in_its_half() -> None:
    plans = load_plans(ROOT / PLANS_FILE, ROOT)
    seed = 20260914
    with_it = holdout_halves(plans.documents, seed)
    without = holdout_halves([d for d in plans.documents if d != "stress-repeated-boilerplate"], seed)
    assert {d: with_it[d] for d in without} == without


def test_the_new_document_has_no_feature_of_the_plans_before_it() -> None:
    """Adding it must add no pair to the plans that existed before it (only the fix-* plans use it)."""
    plans = load_plans(ROOT / PLANS_FILE, ROOT)
    enabled = set(read_enabled_plans(ROOT) or plans.plans) - set(NEW_PLANS)
    specs = [
        p
        for p in plans.pairs
        if p.document.id == "stress-repeated-boilerplate" and p.plan.id in enabled and p.automatic
    ]
    assert specs and featured_pairs(specs, ROOT, {}) == []


@pytest.mark.parametrize("plan_id", NEW_PLANS)
def test_each_new_plan_builds_pairs_whose_labels_pass_every_check(plan_id: str, tmp_path: Path) -> None:
    plans = load_plans(ROOT / PLANS_FILE, ROOT)
    specs = featured_pairs([p for p in plans.pairs if p.plan.id == plan_id], ROOT, {})
    assert specs, f"{plan_id} found no document with its feature"
    spec = specs[0]
    result = build_pair(spec, ROOT, {})
    pair_dir = tmp_path / "corpus" / "synthetic" / spec.pair
    pair_dir.mkdir(parents=True)
    for name, data in result.files.items():
        (pair_dir / name).write_bytes(data)
    from alignbench.labels.io import load_labels

    labels = load_labels(pair_dir / "labels.yaml")
    assert check_data(labels, open_pair(labels, tmp_path)) == []
    assert result.files["source.md"] != result.files["test.md"]


# ---------------------------------------------------------------- class 3: reworded in reading order


def changed_share(before: str, after: str) -> float:
    """The share of a text's words replaced in place (a rewording keeps the length)."""
    old, new = before.split(), after.split()
    assert len(old) == len(new)
    return sum(a != b for a, b in zip(old, new, strict=True)) / len(old)


LICENCE_CLAUSE = (
    '"Derivative Work" means a work based upon the Work or upon the Work and other pre-existing works, '
    "such as a translation, musical arrangement, dramatization, fictionalization, motion picture version, "
    "sound recording, art reproduction, abridgment, condensation, or any other form in which the Work "
    "may be recast, transformed, or adapted under Section 4.2 within thirty (30) days."
)


@pytest.mark.parametrize("style", ["light", "heavy", "any"])
@pytest.mark.parametrize("seed", range(6))
def test_reword_text_replaces_its_share_and_keeps_term_numbers_and_citations(style: str, seed: int) -> None:
    result = reword_text(LICENCE_CLAUSE, Random(seed), style)
    assert result is not None
    after, replaced = result
    low, high = REWORD_SHARES[style]
    words = LICENCE_CLAUSE.split()
    assert low <= replaced / len(words) <= high
    assert changed_share(LICENCE_CLAUSE, after) == replaced / len(words)  # every replaced word differs
    assert after.startswith('"Derivative Work" means ')  # the defined term is the clause's name
    for kept in ("Section 4.2", "thirty (30) days."):
        assert kept in after
    assert reword_text(LICENCE_CLAUSE, Random(seed), style) == result  # the pair's seed decides


def test_reword_text_refuses_a_short_clause_or_one_with_too_few_plain_words() -> None:
    assert reword_text("The Provider shall deliver the Services promptly.", Random(1)) is None
    assert reword_text("Fees: 10, 20, 30, 40, 50, 60, 70, 80, 90 and 100 per unit.", Random(1)) is None


@pytest.mark.parametrize("style", ["light", "heavy"])
def test_reword_clause_rewrites_one_clause_in_place_with_no_move(small: Document, style: str) -> None:
    base = {u.uid: u.text for _, u in small.walk()}
    detail, doc, rows, _sides = mutate(small, "reword_clause", style)
    low, high = REWORD_SHARES[style]
    after = doc.index()[detail["unit"]][1].text
    assert low <= changed_share(base[detail["unit"]], after) <= high
    changed = [r for r in rows["correspondences"] if r["source_digest"] != r["test_digest"]]
    assert len(changed) == 1 and set(kinds(rows)) <= {"same"}
    assert not rows["inserted"] and not rows["deleted"]
    assert doc.reworded == [detail["unit"]]


def test_reword_clause_never_rewords_a_clause_twice(small: Document) -> None:
    doc = small.clone()
    rng = Random(3)
    done = []
    while (record := OPERATORS["reword_clause"](doc, rng, "light")) is not None:
        done.append(record.detail["unit"])
    assert done and len(done) == len(set(done)) == len(doc.reworded)


def test_retitle_section_renames_past_recognition_and_rewords_every_clause_it_holds(small: Document) -> None:
    base = {u.uid: u.text for _, u in small.walk()}
    detail, doc, rows, sides = mutate(small, "retitle_section", "reworded")
    words = {w.strip(".,").casefold() for w in detail["before"].split()}
    assert not words & {w.casefold() for w in detail["after"].split()}
    units = doc.index()
    reworded = detail["reworded"]
    assert len(reworded) >= 2
    for uid in reworded:
        assert 1 / 3 <= changed_share(base[uid], units[uid][1].text) <= 2 / 3
    heading = sides["test"].blocks[detail["heading"]]
    changed = {r["test"] for r in rows["correspondences"] if r["source_digest"] != r["test_digest"]}
    assert changed == {heading.address, *(sides["test"].blocks[uid].address for uid in reworded)}
    assert set(kinds(rows)) <= {"same"} and not rows["inserted"] and not rows["deleted"]
    # every reworded clause is still a child of the retitled section, in its old order
    section = units[detail["heading"]][0]
    assert section is not None and [c.uid for c in section.children if c.uid in reworded] == reworded


@pytest.mark.parametrize("style", ["reworded", "plain"])
def test_insert_definition_takes_its_alphabetical_place_and_reletters_the_rest(
    cross_references: Document, style: str
) -> None:
    base = {u.uid: u.text for _, u in cross_references.walk()}
    detail, doc, rows, sides = mutate(cross_references, "insert_definition", style)
    [inserted] = rows["inserted"]
    assert inserted["label"] == detail["label"]
    new_text = doc.index()[detail["unit"]][1].text
    assert new_text.startswith(f'"{detail["term"]}" means ')
    displaced = sides["test"].blocks[detail["displaced"]]
    [row] = [r for r in rows["correspondences"] if r["test"] == displaced.address]
    assert row["source_label"] == detail["label"] and row["test_label"] == detail["to"] != detail["label"]
    assert detail["term"].casefold() < base[detail["displaced"]].split('"')[1].casefold()
    assert "move" not in kinds(rows) and not rows["deleted"]
    shifted = [r for r in rows["correspondences"] if r["kind"] == "renumber"]
    assert row in shifted and all(r["source"].startswith("/section[1]/section[1]/") for r in shifted)
    after = doc.index()[detail["displaced"]][1].text
    if style == "reworded":
        assert 1 / 3 <= changed_share(base[detail["displaced"]], after) <= 2 / 3
    else:
        assert after == base[detail["displaced"]]


def test_insert_definition_needs_a_run_of_definitions(small: Document) -> None:
    assert OPERATORS["insert_definition"](small.clone(), Random(1), "reworded") is None


def test_the_reworded_plan_keeps_reading_order_and_has_no_move_on_any_document() -> None:
    """Class 3 is a revision in place: the truth of every pair has no move and no deletion, and the
    units both sides share come in the same order."""
    plans = load_plans(ROOT / PLANS_FILE, ROOT)
    specs = featured_pairs([p for p in plans.pairs if p.plan.id == "fix-reworded-in-order"], ROOT, {})
    assert len({spec.document.id for spec in specs}) >= 10
    cache: dict[str, Document] = {}
    for spec in specs:
        result = build_pair(spec, ROOT, cache)
        assert result.counts["moves"] == 0 and result.counts["deletes"] == 0, spec.pair
        assert result.counts["inserts"] <= 1, spec.pair
        ops = [record.op for record in result.records]
        assert ops.count("retitle_section") == 1 and "reword_clause" in ops, spec.pair
