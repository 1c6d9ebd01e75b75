"""`alignbench review` and `label compile --from`: bad inputs give one line and write nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from alignbench.cli import main
from alignbench.labels.io import dump_labels, load_labels
from alignbench.labels.sign import AGENT_ENV_MARKERS, content_digest, sign, signature_problems
from alignbench.review.decisions import payload_digest
from alignbench.review.page import page_data
from review_fixtures_spoofed import fixture_repo

FIXTURES = Path(__file__).parent / "review_fixtures"
PAIR = "tiny-terms"
LABELS = Path("corpus/labels/real") / PAIR / "labels.yaml"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for marker in AGENT_ENV_MARKERS:
        monkeypatch.delenv(marker, raising=False)
    return fixture_repo(tmp_path)


def _entry(document: dict) -> dict:
    return {"file": document["file"], "sha256": document["sha256"]}


def _export(root: Path, tmp_path: Path, edit=None, name: str = "decisions.json") -> Path:
    """What the page exports after every draft row is confirmed (optionally edited first)."""
    data = page_data(root, PAIR)
    decisions = [
        {
            "what": d["what"],
            "source": d["source"],
            "test": d["test"],
            "move": d["move"],
            "note": d["note"],
            "reason": d["reason"],
            "decided": True,
        }
        for d in data["decisions"]
    ]
    payload = {
        "format": "alignbench/review-decisions/v1",
        "pair": PAIR,
        "draft": data["draft"],
        "documents": {side: _entry(data["documents"][side]) for side in ("source", "test")},
        "cold_moves": [],
        "decisions": decisions,
    }
    if edit is not None:
        edit(payload)
    payload["digest"] = payload_digest(payload)
    path = tmp_path / name
    path.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return path


def _compile(root: Path, export: Path, reviewer: str = "human:tester") -> int:
    args = ["label", "compile", PAIR, "--from", str(export), "--as-reviewer", reviewer]
    return main([*args, "--root", str(root)])


def test_confirming_every_row_of_an_engine_draft_makes_the_reviewer_its_signed_labeller(
    repo: Path, tmp_path: Path
) -> None:
    export = _export(repo, tmp_path)
    assert _compile(repo, export) == 0
    data = load_labels(repo / LABELS)
    assert data["review"]["labelled_by"] == {"kind": "human", "id": "tester"}
    assert [(s["id"], s["kind"], s["role"]) for s in data["review"]["signatures"]] == [
        ("human:tester", "human", "labeller")
    ]
    assert signature_problems(data) == []
    statuses = {r["status"] for s in ("correspondences", "inserted", "deleted") for r in data[s]}
    assert statuses == {"confirmed"}


def _verdict(row: dict, why: str) -> dict:
    return {
        "source": row["source"],
        "test": row["test"],
        "source_digest": row["source_digest"],
        "test_digest": row["test_digest"],
        "verdict": "wrong",
        "reason": why,
        "by": {"kind": "agent", "id": "judge"},
    }


def _signed_by_primary_with_verdicts(repo: Path, tmp_path: Path) -> dict:
    """tiny-terms labelled by agent:primary, with two move verdicts, re-signed by its labeller."""
    assert _compile(repo, _export(repo, tmp_path, name="first.json"), "agent:primary") == 0
    data = load_labels(repo / LABELS)
    rows = data["correspondences"]
    data["move_verdicts"] = [_verdict(rows[1], "heading 1 did not move"), _verdict(rows[7], "3.1 stayed")]
    (repo / LABELS).write_text(dump_labels(sign(data, "agent:primary", "agent", "labeller", "t", {})))
    return load_labels(repo / LABELS)


def test_a_review_that_changes_nothing_changes_no_byte_of_the_label_content(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _signed_by_primary_with_verdicts(repo, tmp_path)
    capsys.readouterr()
    assert _compile(repo, _export(repo, tmp_path, name="second.json"), "human:second") == 0
    assert "dropped" not in capsys.readouterr().err
    after = load_labels(repo / LABELS)
    # Everything but the new signature is the same, byte for byte: rows, reviewers, verdicts.
    assert content_digest(after) == content_digest(before)
    unsigned = {**after, "review": {**after["review"], "signatures": before["review"]["signatures"]}}
    assert dump_labels(unsigned) == dump_labels(before)
    assert after["review"]["labelled_by"] == {"kind": "agent", "id": "primary"}
    assert after["review"]["reviewed_by"] == []  # the confirming reviewer is on record by signature
    assert [(s["id"], s["role"]) for s in after["review"]["signatures"]] == [
        ("agent:primary", "labeller"),
        ("human:second", "reviewer"),
    ]
    assert signature_problems(after) == []


def test_a_correcting_review_keeps_the_verdicts_it_did_not_touch(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _signed_by_primary_with_verdicts(repo, tmp_path)
    capsys.readouterr()
    heading_one = before["correspondences"][1]

    def unlink_heading_one(payload):  # S2 = T2 becomes a deletion and an insertion
        decisions = payload["decisions"]
        at = next(i for i, d in enumerate(decisions) if d["source"] == [heading_one["source"]])
        decisions[at : at + 1] = [
            {**decisions[at], "what": "deleted", "test": []},
            {**decisions[at], "what": "inserted", "source": []},
        ]

    assert _compile(repo, _export(repo, tmp_path, unlink_heading_one, "second.json"), "human:second") == 0
    err = capsys.readouterr().err
    assert "dropped 1 signature(s) by agent:primary (labeller)" in err
    assert "dropped 1 move verdict(s) on 1 move(s)" in err and heading_one["source"] in err
    after = load_labels(repo / LABELS)
    assert after["move_verdicts"] == before["move_verdicts"][1:]  # 3.1's verdict: its rows are untouched
    assert after["review"]["reviewed_by"] == [{"kind": "human", "id": "second", "role": "reviewer"}]
    assert [(s["id"], s["role"]) for s in after["review"]["signatures"]] == [("human:second", "reviewer")]
    assert signature_problems(after) == []


def _refused(capsys: pytest.CaptureFixture[str], code: int, *words: str) -> str:
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("alignbench: error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err
    return err


def test_a_hand_edited_export_is_refused_and_nothing_written(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export = _export(repo, tmp_path)
    payload = json.loads(export.read_text())
    payload["decisions"][0]["note"] = "slipped in by hand"
    export.write_text(json.dumps(payload))
    before = (repo / LABELS).read_bytes()
    _refused(capsys, _compile(repo, export), "edited after export")
    assert (repo / LABELS).read_bytes() == before


def test_an_export_against_another_draft_is_refused(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export = _export(repo, tmp_path)
    assert _compile(repo, export) == 0  # the draft is now the compiled file
    after = (repo / LABELS).read_bytes()
    _refused(capsys, _compile(repo, export), "made against another draft")
    assert (repo / LABELS).read_bytes() == after


def test_undecided_rows_and_bad_shapes_are_refused(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (repo / LABELS).read_bytes()

    def undecide(payload):
        payload["decisions"][2]["decided"] = False

    _refused(capsys, _compile(repo, _export(repo, tmp_path, undecide)), "not decided yet")

    def two_tests(payload):
        payload["decisions"][0]["test"].append(payload["decisions"][1]["test"][0])

    _refused(capsys, _compile(repo, _export(repo, tmp_path, two_tests)), "not a valid shape")
    assert (repo / LABELS).read_bytes() == before


def test_an_agent_session_cannot_sign_as_human(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    export = _export(repo, tmp_path)
    before = (repo / LABELS).read_bytes()
    monkeypatch.setenv("ALIGNBENCH_AGENT", "1")
    _refused(capsys, _compile(repo, export), "refusing to record a human")
    monkeypatch.delenv("ALIGNBENCH_AGENT")
    _refused(capsys, _compile(repo, export, "engine:x"), "human or agent")
    assert (repo / LABELS).read_bytes() == before


def test_missing_pair_and_stale_draft_give_one_line_and_no_page(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "page.html"
    _refused(
        capsys, main(["review", "no-such-pair", "--root", str(repo), "--out", str(out)]), "no such real pair"
    )
    (repo / "corpus/real/prepared-only").mkdir()  # prepared but never seeded: the hint is label init
    _refused(capsys, main(["review", "prepared-only", "--root", str(repo), "--out", str(out)]), "label init")
    source = repo / "corpus/real" / PAIR / "source.md"
    source.write_text(source.read_text().replace("30 days", "60 days"))
    _refused(capsys, main(["review", PAIR, "--root", str(repo), "--out", str(out)]), "reanchor")
    assert not out.exists()


def test_the_page_is_self_contained_and_deterministic(repo: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "a.html", tmp_path / "b.html"
    assert main(["review", PAIR, "--root", str(repo), "--out", str(first)]) == 0
    assert main(["review", PAIR, "--root", str(repo), "--out", str(second)]) == 0
    html = first.read_text(encoding="utf-8")
    assert first.read_bytes() == second.read_bytes()
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html
    assert "<link" not in html and "src=" not in html
    assert str(tmp_path) not in html
