"""Issue #14's generator operators, the feature filter, the hold-out split and the no-op guards."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest

from alignbench.errors import AlignbenchError
from alignbench.generate.catalog import OPERATORS
from alignbench.generate.features import missing_features
from alignbench.generate.holdout import holdout_halves
from alignbench.generate.model import Document
from alignbench.generate.plans import PairSpec, Plan, SourceDocument, Step
from alignbench.generate.roundtrip import settle
from alignbench.generate.stage import _side, build_pair
from alignbench.generate.truth import build_rows
from alignbench.labels.documents import Side
from alignbench.labels.noop import noop_problems
from alignbench.readers import read

ROOT = Path(__file__).resolve().parent.parent
STRESS = ROOT / "corpus" / "stress" / "label-only-schedules.md"
SMALL = Path(__file__).parent / "generate_fixtures" / "small.md"


@pytest.fixture(scope="module")
def schedules() -> Document:
    return settle(read(STRESS), str(STRESS))


@pytest.fixture(scope="module")
def small() -> Document:
    return settle(read(SMALL), str(SMALL))


def mutate(base: Document, op: str, style: str, seed: int = 5) -> dict:
    doc = base.clone()
    record = OPERATORS[op](doc, Random(seed), style)
    assert record is not None, f"{op} found no target"
    source_text, source_side = _side(base, "source")
    test_text, test_side = _side(doc, "test")  # raises if the reader does not confirm the edit
    assert source_text != test_text
    return build_rows(source_side, test_side)


def moves(rows: dict) -> list[dict]:
    return [r for r in rows["correspondences"] if r["kind"] == "move"]


def test_short_move_moves_one_short_clause_across_parents(schedules: Document) -> None:
    rows = mutate(schedules, "short_move", "clause")
    [moved] = moves(rows)
    assert moved["source"].rsplit("/", 1)[0] != moved["test"].rsplit("/", 1)[0]
    assert moved["source_digest"] != moved["test_digest"]  # it took its new number
    assert not rows["inserted"] and not rows["deleted"]


@pytest.mark.parametrize("style", ["word_substitute", "sentence_insert"])
def test_move_edit_moves_a_clause_and_changes_its_words(small: Document, style: str) -> None:
    base_texts = {u.uid: " ".join(u.text.split()) for _, u in small.walk()}
    doc = small.clone()
    record = OPERATORS["move_edit"](doc, Random(5), style)
    assert record is not None
    moved = doc.index()[record.detail["unit"]][1]
    assert " ".join(moved.text.split()) != base_texts[moved.uid]
    rows = build_rows(_side(small, "source")[1], _side(doc, "test")[1])
    assert len(moves(rows)) == 1


def test_nested_storm_deletes_the_first_nested_item_and_renumbers_the_rest(schedules: Document) -> None:
    rows = mutate(schedules, "nested_storm", "delete_first")
    assert len(rows["deleted"]) == 1
    assert not moves(rows)
    renumbered = [r for r in rows["correspondences"] if r["kind"] == "renumber"]
    assert len(renumbered) >= 2
    assert all(r["source"].count("/") == r["test"].count("/") for r in renumbered)


def test_twin_move_moves_one_of_identical_paragraphs(schedules: Document) -> None:
    rows = mutate(schedules, "twin_move", "paragraph")
    [moved] = moves(rows)
    source_text = {r["source"]: r["source_digest"] for r in rows["correspondences"]}
    twins = [a for a, d in source_text.items() if d == moved["source_digest"]]
    assert len(twins) >= 2  # the moved paragraph had byte-identical siblings


def test_sibling_swap_marks_exactly_the_earlier_clause_as_moved(small: Document) -> None:
    rows = mutate(small, "sibling_swap", "adjacent")
    [moved] = moves(rows)
    assert moved["source_label"] != moved["test_label"]
    assert moved["note"].startswith("crossing")


def test_label_only_rewrite_rewrites_the_body_under_a_label_only_heading(schedules: Document) -> None:
    rows = mutate(schedules, "label_only_rewrite", "body")
    changed = [r for r in rows["correspondences"] if r["source_digest"] != r["test_digest"]]
    assert len(changed) == 1 and changed[0]["source"].endswith("/paragraph[1]")


def test_features_are_what_the_operators_can_act_on(small: Document, schedules: Document) -> None:
    assert missing_features(small, ("table_edit",)) == []
    assert missing_features(small, ("label_only_rewrite", "twin_move")) == ["label_only_rewrite", "twin_move"]
    assert missing_features(schedules, ("label_only_rewrite", "twin_move")) == []


def test_holdout_halves_are_balanced_seeded_and_independent_of_order() -> None:
    ids = [f"doc-{k}" for k in range(11)]
    halves = holdout_halves(ids, 7)
    assert sorted(halves.values()).count("dev") == 6
    assert holdout_halves(list(reversed(ids)), 7) == halves
    assert holdout_halves(ids, 8) != halves


def _spec(plan: Plan) -> PairSpec:
    document = SourceDocument("small", "tests/generate_fixtures/small.md", "o", "CC0-1.0", "a", ())
    return PairSpec(f"small--{plan.id}", document, plan, None)


def test_generator_refuses_a_byte_identical_pair_unless_the_plan_is_a_control() -> None:
    # every table edit is undone by nothing: a plan whose only step finds no target changes no byte
    noop = Plan("noop", "", (Step("label_only_rewrite", "body", 1),), ())
    with pytest.raises(AlignbenchError, match="changed no byte"):
        build_pair(_spec(noop), ROOT, {})
    control = Plan("noop", "", (Step("label_only_rewrite", "body", 1),), (), control=True)
    result = build_pair(_spec(control), ROOT, {})
    assert result.files["source.md"] == result.files["test.md"]
    assert b"control: true" in result.files["labels.yaml"]


def test_label_check_fails_a_byte_identical_synthetic_pair() -> None:
    sides = {side: Side(f"{side}.md", None, "ab" * 32) for side in ("source", "test")}  # type: ignore[arg-type]
    data = {"provenance": {"kind": "synthetic", "plan": "tables/a"}}
    [problem] = noop_problems(data, sides)
    assert "byte-identical" in problem and "tables/a" in problem
    assert noop_problems({"provenance": {"kind": "synthetic", "control": True}}, sides) == []
    assert noop_problems({"provenance": {"kind": "hand"}}, sides) == []
    different = dict(sides, test=Side("test.md", None, "cd" * 32))  # type: ignore[arg-type]
    assert noop_problems(data, different) == []


@pytest.mark.parametrize("fixture", ["schedules", "small"])
def test_destinations_from_the_runs_styles_computed_once_are_the_per_clause_ones(request, fixture) -> None:
    from alignbench.generate.hard_cases import _destinations, _style
    from alignbench.generate.numbering import run_forms
    from alignbench.generate.operator_kit import _runs

    doc: Document = request.getfixturevalue(fixture)
    runs = _runs(doc, min_len=1)
    styles = [_style(run_forms(dest.children[s:e])) for dest, s, e in runs]
    asked = 0
    for parent, start, end in runs:
        for unit in parent.children[start:end]:
            assert _destinations(runs, parent, unit, styles) == _destinations(runs, parent, unit)
            asked += 1
    assert asked


def test_the_kept_citation_check_agrees_with_rewriting() -> None:
    from alignbench.generate.model import Unit
    from alignbench.generate.numbering import _cites, rewrite_citations

    texts = [
        "See Section 3.2 and § 4.",
        "as set out in clause 7",
        "Sections 12 apply",
        "no citation here",
        "3.2",
    ]
    for text in texts * 2:
        root = Unit("r", "document", children=[Unit("u", "paragraph", None, text)])
        edited = rewrite_citations(root, {"3.2": "3.3", "4": "5", "7": "8", "12": "13"})
        assert bool(edited) is _cites(text)


def test_each_planned_pair_is_an_outcome_and_a_feature_problem_wins_over_an_earlier_failed_build() -> None:
    """build_tier reports what the sequential build did (every pair probed, then built), whichever
    worker built which pair: serial and forked outcomes agree."""
    from alignbench.fanout import map_pairs
    from alignbench.generate.stage import PairBuilder, built_results

    noop = Plan("noop", "", (Step("label_only_rewrite", "body", 1),), ())
    twins = Plan("twins", "", (Step("twin_move", "body", 1),), (), requires=("twin_move",))
    control = Plan("noop", "", (Step("label_only_rewrite", "body", 1),), (), control=True)
    document = _spec(noop).document
    specs = [
        _spec(noop),  # builds nothing: fails
        PairSpec("small--twins-all", document, twins, None, automatic=True),  # lacks the feature: skipped
        PairSpec("small--twins", document, twins, None),  # listed, lacks the feature: a plan error
        _spec(control),
    ]
    names = [spec.pair for spec in specs]
    serial = map_pairs(PairBuilder(ROOT, {"small": "dev"}), specs, names, "generate", "serial")
    assert [kind for kind, _ in serial] == ["failed", "skipped", "unfeatured", "built"]
    forked = map_pairs(PairBuilder(ROOT, {"small": "dev"}), specs, names, "generate", "fork:2")
    assert [kind for kind, _ in forked] == [kind for kind, _ in serial]
    assert forked[3][1].files == serial[3][1].files
    with pytest.raises(
        AlignbenchError, match=r"plan 'twins' is listed for small, which has nothing for twin_move"
    ):
        built_results(serial)
    with pytest.raises(AlignbenchError, match="changed no byte"):
        built_results([serial[0], serial[1], serial[3]])
    assert [r.pair for r in built_results([serial[1], serial[3]])] == ["small--noop"]
