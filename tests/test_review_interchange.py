"""Span-anchored JSONL (`label export --format spans` / `label import`): exact, and refuses mismatches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from alignbench.cli import main
from alignbench.labels.documents import open_pair
from alignbench.labels.io import dump_labels, load_labels
from alignbench.review.interchange import export_spans, import_spans
from alignbench.review.spans import locate_spans
from review_fixtures_spoofed import fixture_repo

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "review_fixtures"
REAL_PAIRS = sorted(p.parent.name for p in (REPO / "corpus/labels/real").glob("*/labels.yaml"))
PAIR = "tiny-terms"
LABELS = Path("corpus/labels/real") / PAIR / "labels.yaml"


@pytest.mark.parametrize("pair", REAL_PAIRS)
def test_round_trip_gives_identical_labels_bytes_on_every_real_pair(pair: str, tmp_path: Path) -> None:
    labels = REPO / "corpus/labels/real" / pair / "labels.yaml"
    if not (REPO / load_labels(labels)["source"]["file"]).is_file():
        pytest.skip(f"corpus/real/{pair} not prepared (run the prepare stage)")
    spans = tmp_path / "spans.jsonl"
    spans.write_text(export_spans(REPO, labels), encoding="utf-8")
    text, warnings = import_spans(REPO, labels, spans)
    assert text.encode("utf-8") == labels.read_bytes()
    assert warnings == []


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return fixture_repo(tmp_path)


def test_records_carry_exact_text_offsets_and_one_relationship_per_row(repo: Path) -> None:
    records = [json.loads(line) for line in export_spans(repo, repo / LABELS).splitlines()]
    folder = repo / "corpus/real" / PAIR
    documents = {s: (folder / f"{s}.md").read_text(encoding="utf-8") for s in ("source", "test")}
    for record in records:
        assert documents[record["side"]][record["start"] : record["end"]] == record["text"]
    move = [r for r in records if r["relationship_id"] == "c-4575e01e377d"]
    assert [(r["side"], r["text"]) for r in move] == [
        ("source", "1.2 Late Payment.  Late amounts accrue interest at one percent a month"),
        ("test", "2.2 Late Payment.  Late amounts accrue interest at one percent a month"),
    ]
    assert move[0]["creator"] == {"kind": "engine", "id": "alignbench.alignment/0.1.0+4e5773e3790a"}
    assert move[0]["review"] == {"state": "proposed", "reviewer_ids": []}
    exact = next(r for r in records if r["proposed_by"] == "exact")
    assert exact["creator"] == {"kind": "engine", "id": "alignbench.alignment:exact"}


def test_every_block_of_every_side_gets_a_distinct_located_span(repo: Path) -> None:
    data = load_labels(repo / LABELS)
    sides = open_pair(data, repo)
    for side in ("source", "test"):
        text = (repo / data[side]["file"]).read_text(encoding="utf-8")
        spans = locate_spans(text, sides[side].tree, side)
        assert list(spans) == [b.address for b in sides[side].labelled()]
        starts = [s.start for s in spans.values()]
        assert starts == sorted(starts) and len(set(starts)) == len(starts)


def _rewrite(path: Path, line: int, **changes) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[line])
    record.update(changes)
    lines[line] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: {"text": r["text"].replace("Fees", "Fee")}, "not '1.1 Fee."),
        (lambda r: {"start": r["start"] + 1, "text": r["text"][1:]}, "is located at"),
        (lambda r: {"document_sha256": "0" * 64}, "is not the current"),
        (lambda r: {"end": 10**9}, "not within the document"),
        (lambda r: {"label": "renumber"}, "differs from line"),
    ],
    ids=["text", "offsets", "sha", "bounds", "label"],
)
def test_import_refuses_any_mismatch_and_writes_nothing(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], change, message: str
) -> None:
    spans = tmp_path / "spans.jsonl"
    assert main(["label", "export", PAIR, "--format", "spans", "--out", str(spans), "--root", str(repo)]) == 0
    record = json.loads(spans.read_text(encoding="utf-8").splitlines()[4])
    _rewrite(spans, 4, **change(record))
    before = (repo / LABELS).read_bytes()
    assert main(["label", "import", PAIR, str(spans), "--root", str(repo)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("alignbench: error: ") and err.count("\n") == 1 and message in err, err
    assert (repo / LABELS).read_bytes() == before


def test_import_of_a_workbench_edit_changes_rows_and_drops_nothing_silently(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spans = tmp_path / "spans.jsonl"
    spans.write_text(export_spans(repo, repo / LABELS), encoding="utf-8")
    lines = spans.read_text(encoding="utf-8").splitlines()
    move = [i for i, line in enumerate(lines) if '"c-4575e01e377d"' in line]
    for i in move:  # the workbench reviewer marks the engine's renumber as a move and accepts it
        _rewrite(spans, i, label="move", review={"state": "corrected", "reviewer_ids": ["human:ann"]})
    assert main(["label", "import", PAIR, str(spans), "--root", str(repo)]) == 0
    data = load_labels(repo / LABELS)
    row = next(r for r in data["correspondences"] if r["id"] == "c-4575e01e377d")
    assert (row["kind"], row["status"]) == ("move", "corrected")
    assert data["review"]["reviewed_by"] == [{"kind": "human", "id": "ann", "role": "reviewer"}]
    assert "rows replaced" in capsys.readouterr().out


def test_an_import_that_changes_one_row_keeps_the_verdicts_on_the_others(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = load_labels(repo / LABELS)
    rows = {r["id"]: r for r in data["correspondences"]}

    def verdict(row: dict) -> dict:
        return {
            "source": row["source"],
            "test": row["test"],
            "source_digest": row["source_digest"],
            "test_digest": row["test_digest"],
            "verdict": "wrong",
            "reason": "not a move",
            "by": {"kind": "agent", "id": "judge"},
        }

    data["move_verdicts"] = [verdict(rows["c-4575e01e377d"]), verdict(rows["c-10e2d883fc24"])]
    (repo / LABELS).write_text(dump_labels(data), encoding="utf-8")
    spans = tmp_path / "spans.jsonl"
    spans.write_text(export_spans(repo, repo / LABELS), encoding="utf-8")
    lines = spans.read_text(encoding="utf-8").splitlines()
    for i in [i for i, line in enumerate(lines) if '"c-4575e01e377d"' in line]:
        # the row's kind changes (move -> renumber): the verdict on its blocks no longer applies
        _rewrite(spans, i, label="renumber", review={"state": "corrected", "reviewer_ids": ["human:ann"]})
    assert main(["label", "import", PAIR, str(spans), "--root", str(repo)]) == 0
    err = capsys.readouterr().err
    assert "dropped 1 move verdict(s) on 1 move(s)" in err and rows["c-4575e01e377d"]["source"] in err
    assert load_labels(repo / LABELS)["move_verdicts"] == data["move_verdicts"][1:]


def test_a_missing_block_is_refused_as_not_total(repo: Path, tmp_path: Path) -> None:
    lines = export_spans(repo, repo / LABELS).splitlines()
    spans = tmp_path / "spans.jsonl"
    spans.write_text("\n".join(lines[2:]) + "\n", encoding="utf-8")
    with pytest.raises(Exception, match="not total"):
        import_spans(repo, repo / LABELS, spans)


def test_spans_are_found_across_emphasis_underscores_and_glued_link_text() -> None:
    from alignbench import read
    from alignbench.review.spans import locate_spans

    document = "# Terms\n\n*__Note:__* you _might_ read our [Terms](/terms)or our [Policy](/p).\n"
    tree = read(document, format="markdown")
    spans = locate_spans(document, tree, "<doc>")
    paragraph = next(b for b in tree.blocks() if b.kind == "paragraph")
    assert "Termsor" in paragraph.text  # the reader joins link text to the word after it
    span = spans[paragraph.address]
    assert document[span.start : span.end] == "Note:__* you _might_ read our [Terms](/terms)or our [Policy"
