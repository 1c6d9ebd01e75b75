"""`alignbench review`: a path for a pair, no repository, --help, and `review OLD NEW` of any two files."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from alignbench.cli import main
from alignbench.labels.check import check_file
from alignbench.labels.io import load_labels
from alignbench.labels.sign import AGENT_ENV_MARKERS, signature_problems
from alignbench.review.decisions import payload_digest
from alignbench.review.page import page_data
from review_fixtures_spoofed import fixture_repo

FIXTURES = Path(__file__).parent / "review_fixtures"
PAIR = "tiny-terms"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return fixture_repo(tmp_path)


@pytest.fixture
def own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory outside any repository holding two documents of a user's own."""
    for marker in AGENT_ENV_MARKERS:
        monkeypatch.delenv(marker, raising=False)
    work = tmp_path / "mine"
    work.mkdir()
    shutil.copy(FIXTURES / "corpus/real" / PAIR / "source.md", work / "Terms v1.md")
    shutil.copy(FIXTURES / "corpus/real" / PAIR / "test.md", work / "terms-v2.md")
    monkeypatch.chdir(work)
    return work


def _one_line_error(capsys: pytest.CaptureFixture[str], code: int, *words: str) -> str:
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("alignbench: error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, err
    return err


def test_a_path_instead_of_a_pair_name_gets_one_useful_line(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for given in (f"corpus/real/{PAIR}/source.md", f"corpus/labels/real/{PAIR}"):
        code = main(["review", given, "--root", str(repo), "--out", str(tmp_path / "p.html")])
        err = _one_line_error(capsys, code, "is a path, not a pair name", f"alignbench review {PAIR}`")
        assert "corpus/labels/real/corpus" not in err
    code = main(["review", "no-such-pair", "--root", str(repo), "--out", str(tmp_path / "p.html")])
    _one_line_error(capsys, code, "no such real pair", "alignbench review OLD NEW")
    assert not (tmp_path / "p.html").exists()


def test_outside_the_repository_the_hint_is_root_not_label_init(
    own: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _one_line_error(capsys, main(["review", PAIR]), "not an alignbench repository", "--root PATH")
    assert "label init" not in err


def test_review_help_is_written_for_a_user(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["review", "--help"])
    out = capsys.readouterr().out
    for words in ("alignbench review OLD NEW", "any two documents", "Export decisions", "--as-reviewer"):
        assert words in out


def _confirm_all(root: Path, labels: Path, name: str) -> Path:
    """What the page exports once every draft row is confirmed."""
    data = page_data(root, load_labels(labels)["pair"], draft=labels)
    keys = ("what", "source", "test", "move", "note", "reason")
    payload = {
        "format": "alignbench/review-decisions/v1",
        "pair": data["pair"],
        "draft": data["draft"],
        "documents": {
            s: {k: data["documents"][s][k] for k in ("file", "sha256")} for s in ("source", "test")
        },
        "cold_moves": [],
        "decisions": [{**{k: d[k] for k in keys}, "decided": True} for d in data["decisions"]],
    }
    payload["digest"] = payload_digest(payload)
    path = root / name
    path.write_text(json.dumps(payload), encoding="utf-8")
    return path


def test_review_old_new_drafts_labels_outside_any_corpus_that_check_accepts(
    own: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", "Terms v1.md", "terms-v2.md"]) == 0
    out = capsys.readouterr().out
    labels, page = own / "review-terms-v1-to-terms-v2.yaml", own / "review-terms-v1-to-terms-v2.html"
    assert f"wrote {labels.name}" in out and page.is_file()
    data = load_labels(labels)
    assert data["pair"] == "terms-v1-to-terms-v2"
    assert (data["source"]["file"], data["test"]["file"]) == ("Terms v1.md", "terms-v2.md")
    assert data["review"]["labelled_by"]["kind"] == "engine"
    assert {r["status"] for r in data["correspondences"]} == {"proposed"}
    assert check_file(labels, own).problems == []
    assert str(own) not in labels.read_text(encoding="utf-8")  # paths are relative to the root

    # The round trip: confirm every row in the page, compile the export into that same file, check it.
    export = _confirm_all(own, labels, "decisions.json")
    assert main(["label", "compile", str(labels), "--from", str(export), "--as-reviewer", "human:me"]) == 0
    compiled = load_labels(labels)
    assert compiled["review"]["labelled_by"] == {"kind": "human", "id": "me"}
    assert {r["status"] for r in compiled["correspondences"]} == {"confirmed"}
    assert signature_problems(compiled) == []
    assert main(["label", "check", str(labels)]) == 0

    # Running it again reuses the reviewed file instead of re-seeding over the review.
    capsys.readouterr()
    assert main(["review", "Terms v1.md", "terms-v2.md"]) == 0
    assert f"reusing {labels.name}" in capsys.readouterr().out
    assert load_labels(labels) == compiled


def test_review_old_new_refuses_to_write_onto_an_input_or_a_committed_labels_file(
    own: Path, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = "Terms v1.md", "terms-v2.md"
    before = (own / old).read_bytes()
    _one_line_error(capsys, main(["review", old, new, "--labels", old]), "is one of the input documents")
    _one_line_error(capsys, main(["review", old, new, "--out", new]), "is one of the input documents")
    assert (own / old).read_bytes() == before
    corpus_labels = repo / "corpus/labels/real" / PAIR / "labels.yaml"
    corpus_before = corpus_labels.read_bytes()
    code = main(["review", old, new, "--labels", str(corpus_labels)])
    _one_line_error(capsys, code, "inside a corpus's labels")
    assert corpus_labels.read_bytes() == corpus_before
    if shutil.which("git") is None:
        pytest.skip("git is not installed: the committed-file refusal needs it")
    tracked = own / "committed.yaml"
    tracked.write_text("kept: true\n", encoding="utf-8")
    for args in (["init", "-q"], ["add", "committed.yaml"]):
        subprocess.run(["git", *args], cwd=own, check=True)
    _one_line_error(capsys, main(["review", old, new, "--labels", "committed.yaml"]), "is a committed file")
    assert tracked.read_text(encoding="utf-8") == "kept: true\n"


def test_review_old_new_needs_both_documents_under_the_root(
    own: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "elsewhere.md"
    shutil.copy(own / "terms-v2.md", elsewhere)
    code = main(["review", "Terms v1.md", str(elsewhere)])
    _one_line_error(capsys, code, "not under the root directory", "--root DIR")
    assert main(["review", "Terms v1.md", str(elsewhere), "--root", str(tmp_path)]) == 0
    data = load_labels(own / "review-terms-v1-to-elsewhere.yaml")
    assert data["test"]["file"] == "elsewhere.md" and data["source"]["file"] == "mine/Terms v1.md"
