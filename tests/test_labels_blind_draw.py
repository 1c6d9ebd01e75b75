"""The blind pass's controls: a directory that holds only what a blind labeller may see, and a
stratified draw anyone can recompute."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from alignbench.cli import main as alignbench_main
from alignbench.errors import AlignbenchError
from alignbench.labels.blind_workdir import MANIFEST_NAME, make_blind_workdir, verify_blind_workdir
from alignbench.labels.stratify import PairFacts, draw, draw_key, pair_facts
from labels_fixtures.support import FIXTURES

PAIR = "mini"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "repo", tmp_path / "repo")
    return tmp_path / "repo"


def test_blind_directory_holds_the_documents_and_a_blank_sheet_only(repo: Path, tmp_path: Path) -> None:
    workdir = tmp_path / "blind"
    manifest = make_blind_workdir(repo, PAIR, workdir)
    names = sorted(p.name for p in workdir.iterdir())
    assert names == sorted([*manifest["given"], MANIFEST_NAME])
    assert {"blind-sheet.txt", "INSTRUCTIONS.txt"} <= set(manifest["given"])
    assert len(manifest["given"]) == 4  # two documents, the blank sheet, the instructions
    sheet = (workdir / "blind-sheet.txt").read_text(encoding="utf-8")
    assert "blank sheet" in sheet
    labels_dir = repo / "corpus/labels/real" / PAIR
    for private in ("labels.yaml", "worksheet.md", "move_worksheet.md"):
        assert not (workdir / private).exists()
        if (labels_dir / private).exists():
            assert (labels_dir / private).read_bytes() not in {p.read_bytes() for p in workdir.iterdir()}


def test_blind_directory_must_be_fresh(repo: Path, tmp_path: Path) -> None:
    workdir = tmp_path / "used"
    workdir.mkdir()
    (workdir / "labels.yaml").write_text("x", encoding="utf-8")
    with pytest.raises(AlignbenchError, match="not an empty directory"):
        make_blind_workdir(repo, PAIR, workdir)


def test_verify_records_what_was_given_and_returned(repo: Path, tmp_path: Path) -> None:
    workdir = tmp_path / "blind"
    manifest = make_blind_workdir(repo, PAIR, workdir)
    (workdir / "blind-sheet.txt").write_text("S1 = T1\n", encoding="utf-8")
    record = verify_blind_workdir(workdir, PAIR)
    assert record["given"] == manifest["given"]
    assert list(record["returned"]) == ["blind-sheet.txt"]
    assert record["returned"]["blind-sheet.txt"] != manifest["given"]["blind-sheet.txt"]


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda d: (d / "worksheet.md").write_text("engine rows", encoding="utf-8"), "was not given"),
        (lambda d: (d / "source.md").write_text("other text\n", encoding="utf-8"), "changed since"),
        (lambda d: (d / "test.md").unlink(), "test.md is missing"),
    ],
)
def test_verify_refuses_a_directory_that_saw_more(repo: Path, tmp_path: Path, tamper, message: str) -> None:
    workdir = tmp_path / "blind"
    make_blind_workdir(repo, PAIR, workdir)
    tamper(workdir)
    with pytest.raises(AlignbenchError, match=message):
        verify_blind_workdir(workdir, PAIR)


def test_verify_refuses_another_pairs_directory(repo: Path, tmp_path: Path) -> None:
    workdir = tmp_path / "blind"
    make_blind_workdir(repo, PAIR, workdir)
    with pytest.raises(AlignbenchError, match="made for pair 'mini', not 'other'"):
        verify_blind_workdir(workdir, "other")


def test_agree_copies_the_directory_record_into_the_report(repo: Path, tmp_path: Path) -> None:
    workdir = tmp_path / "blind"
    assert alignbench_main(["label", "blind", PAIR, "--dir", str(workdir), "--root", str(repo)]) == 0
    assert alignbench_main(["label", "init", PAIR, "--root", str(repo)]) == 0
    labels = repo / "corpus/labels/real" / PAIR / "labels.yaml"
    out = tmp_path / "agreement.json"
    code = alignbench_main(
        ["label", "agree", str(labels), str(labels), "--blind-dir", str(workdir), "--json", str(out)]
    )
    assert code == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert set(report["blind_workdir"]["given"]) == {
        p.name for p in workdir.iterdir() if p.name != MANIFEST_NAME
    }
    assert report["splits_merges"]["f1"] == 1.0


def _facts(spec: str) -> list[PairFacts]:
    """``"a:3n b:0t"``: pair a with 3 moves, non-trivial; pair b with none, trivial."""
    out = []
    for token in spec.split():
        name, rest = token.split(":")
        out.append(PairFacts(name, int(rest[:-1]), rest[-1] == "n"))
    return out


def test_draw_meets_all_three_bars() -> None:
    facts = _facts(" ".join(f"p{i}:{i % 4}{'n' if i % 3 else 't'}" for i in range(30)))
    result = draw(facts, kept=["p0", "p3"], seed="s", fraction=0.3)
    assert result.meets(0.3) == []
    assert result.subset[:2] == ("p0", "p3")
    assert len(result.subset) >= 9
    assert 2 * result.nontrivial >= len(result.subset)
    assert 2 * result.moves >= result.total_moves


def test_draw_follows_the_seeded_order_and_is_deterministic() -> None:
    facts = _facts("a:1n b:1n c:1n d:1n e:0t f:0t g:0t h:0t i:0t j:0t")
    first = draw(facts, kept=[], seed="s", fraction=0.3)
    assert first == draw(list(reversed(facts)), kept=[], seed="s", fraction=0.3)
    expected = sorted("abcd", key=lambda p: draw_key("s", p))[: len(first.subset)]
    assert list(first.subset) == expected


def test_draw_reports_a_bar_it_cannot_meet() -> None:
    facts = _facts("a:0t b:0t c:0t d:0t e:0t f:0t g:1n")
    result = draw(facts, kept=["a", "b", "c"], seed="s", fraction=0.3)
    assert any("non-trivial" in missed for missed in result.meets(0.3))


def test_draw_refuses_an_unknown_kept_pair() -> None:
    with pytest.raises(AlignbenchError, match="nope"):
        draw(_facts("a:0t"), kept=["nope"], seed="s", fraction=0.3)


def test_pair_facts_reads_the_stratum_from_labels() -> None:
    empty = {"pair": "x", "correspondences": [], "inserted": [], "deleted": [], "splits": [], "merges": []}
    assert pair_facts(empty, heavy=False) == PairFacts("x", 0, False)
    assert pair_facts(empty, heavy=True).nontrivial
    moved = {**empty, "correspondences": [{"kind": "move", "status": "confirmed"}]}
    assert pair_facts(moved, heavy=False) == PairFacts("x", 1, True)
    fixed = {**empty, "deleted": [{"status": "corrected"}]}
    assert pair_facts(fixed, heavy=False).nontrivial


def test_draw_takes_heavy_pairs_first_then_pairs_with_moves() -> None:
    facts = [
        PairFacts("h1", 0, True, True),
        PairFacts("h2", 1, True, True),
        PairFacts("m1", 8, True, False),
        PairFacts("t1", 0, False, False),
        PairFacts("t2", 0, False, False),
        PairFacts("t3", 0, False, False),
    ]
    result = draw(facts, kept=[], seed="s", fraction=0.3)
    heavy_first = sorted(["h1", "h2"], key=lambda p: draw_key("s", p))
    assert list(result.subset) == [*heavy_first, "m1"]  # 2 pairs reach 30%; m1 holds most moves
    assert result.meets(0.3) == []
