"""Engine moves the labels lack need a verdict keyed on the move itself: both addresses and both
blocks' digests, carried across engine builds (seed 000's move gate, issue #27)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from alignbench.atomic import write_json
from alignbench.cli import main as alignbench_main
from alignbench.engines.registry import roster
from alignbench.errors import AlignbenchError
from alignbench.labels.init import init_pair
from alignbench.labels.io import dump_labels, load_labels
from alignbench.labels.verdicts import engine_moves, record_verdict
from alignbench.runs import align_loaded, alignment_config, load_pair
from alignbench.score.truth import truth_from_labels
from alignbench.score.verdicts import move_verdicts
from alignbench.tiers import discover
from labels_fixtures.support import FIXTURES

LABELS = Path("corpus/labels/real/mini/labels.yaml")
PARAMS = {
    "passes": ["exact", "label", "structural", "fuzzy", "move", "positional"],
    "move_min_tokens": 3,
}
AGENT = {"kind": "agent", "id": "verdict-test"}
BACKENDS = roster().subjects


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The mini pair (clauses 2 and 3 swap: a crossing move), seeded, with both backends' alignments."""
    shutil.copytree(FIXTURES / "repo", tmp_path, dirs_exist_ok=True)
    init_pair(tmp_path, "mini")
    # Labels that lack the engine's move (the draft links it as a renumber), so it needs a verdict.
    path = tmp_path / LABELS
    data = load_labels(path)
    for row in data["correspondences"]:
        if row["kind"] == "move":
            row["kind"] = "renumber"
    path.write_text(dump_labels(data), encoding="utf-8")
    (found,) = discover(tmp_path)
    loaded = load_pair(tmp_path, found)
    for backend in BACKENDS:
        alignment = align_loaded(loaded, alignment_config(PARAMS, backend))
        write_json(tmp_path / "results" / "alignments" / backend / "real" / "mini.json", alignment)
    return tmp_path


def test_moves_are_listed_unreviewed_until_ruled_on(repo: Path, capsys) -> None:
    labels = load_labels(repo / LABELS)
    moves = engine_moves(repo, "real", "mini", labels)
    assert moves, "the swapped clauses must give at least one engine move"
    assert {m.backend for m in moves} == set(BACKENDS)
    assert {m.status for m in moves} == {"unreviewed"}

    move = moves[0]
    root = ["--root", str(repo)]
    assert (
        alignbench_main(
            [
                "label",
                "verdict",
                "mini",
                move.source,
                move.test,
                "--verdict",
                "acceptable",
                "--reason",
                "clause 3 was promoted above clause 2",
                "--by",
                "agent:verdict-test",
                *root,
            ]
        )
        == 0
    )
    ruled = load_labels(repo / LABELS)
    # one row for the move, whichever builds reported it
    assert [(v["source"], v["test"]) for v in ruled["move_verdicts"]] == [(move.source, move.test)]
    assert alignbench_main(["label", "moves", "mini", *root]) == 0
    out = capsys.readouterr().out
    assert "acceptable" in out


def _trees(repo: Path):
    (found,) = discover(repo)
    loaded = load_pair(repo, found)
    return loaded, (loaded.source, loaded.test)


def test_the_scorer_counts_a_verdict_across_builds_until_a_block_changes(repo: Path) -> None:
    labels = load_labels(repo / LABELS)
    moves = engine_moves(repo, "real", "mini", labels)
    loaded, trees = _trees(repo)
    ruled, _ = record_verdict(
        labels, moves, moves[0].source, moves[0].test, "wrong", "not a move", AGENT, trees
    )
    alignment = align_loaded(loaded, alignment_config(PARAMS, "difflib"))
    truth = truth_from_labels(ruled)
    counted = move_verdicts(truth, ruled, alignment, "mini", trees)
    assert moves[0].backend == "difflib"
    assert counted.wrong == 1
    alignment["engine"]["version"] = "0.0.0+000000000000"  # another build: the ruling still stands
    assert move_verdicts(truth, ruled, alignment, "mini", trees).wrong == 1
    ruled["move_verdicts"][0]["test_digest"] = "0" * 16  # the block changed: the move is unreviewed
    stale = move_verdicts(truth, ruled, alignment, "mini", trees)
    assert stale.wrong == 0
    assert stale.unreviewed == stale.unlabelled >= 1


def test_a_verdict_needs_a_reported_move_and_a_reason(repo: Path) -> None:
    labels = load_labels(repo / LABELS)
    moves = engine_moves(repo, "real", "mini", labels)
    _, trees = _trees(repo)
    with pytest.raises(AlignbenchError, match="no engine reported"):
        record_verdict(labels, moves, "/paragraph[9]", "/paragraph[9]", "wrong", "x", AGENT, trees)
    with pytest.raises(AlignbenchError, match="needs a reason"):
        record_verdict(labels, moves, moves[0].source, moves[0].test, "wrong", "  ", AGENT, trees)
    with pytest.raises(AlignbenchError, match="expected one of"):
        record_verdict(labels, moves, moves[0].source, moves[0].test, "maybe", "x", AGENT, trees)


def test_a_verdict_leaves_the_labels_signatures_valid_and_a_label_edit_still_breaks_them(repo: Path) -> None:
    from alignbench.labels.io import ROW_SECTIONS
    from alignbench.labels.sign import sign, signature_problems

    labels = load_labels(repo / LABELS)
    for section in ROW_SECTIONS:
        for row in labels[section]:
            row["status"] = "confirmed"
    signed = sign(labels, "labeller-x", "agent", "labeller", "mini")
    moves = engine_moves(repo, "real", "mini", signed)
    _, trees = _trees(repo)
    ruled, _ = record_verdict(
        signed, moves, moves[0].source, moves[0].test, "wrong", "not a move", AGENT, trees
    )
    assert ruled["move_verdicts"] and signature_problems(ruled) == []  # a ruling is not a label edit
    ruled["correspondences"][0]["note"] = "edited after signing"
    assert signature_problems(ruled)  # but an edit of the labels still shows
