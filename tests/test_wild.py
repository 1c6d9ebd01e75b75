"""The wild run (issue 28) on a tiny synthetic git history built here: import, pairs, report, CLI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from alignbench.noloss import WordAccount
from alignbench.wild import history as wild_history
from alignbench.wild import run as wild_run
from alignbench.wild.__main__ import main
from alignbench.wild.history import (
    EXCLUDED_FILES,
    EXCLUDED_FOLDERS,
    consecutive_pairs,
    import_history,
    is_excluded,
    load_index,
)

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

TERMS = "# Terms\n\n1. You may use the service.\n2. You may not resell it.\n"
# Invented held-back names stand in for the module's lists, so no test history ever holds a file at a
# reserved path; the real lists are only checked to be wired into is_excluded.
HELD_FOLDER = "Heldfolder"
HELD_FILE_FOLDER = "Gamma"
HELD_FILE = f"{HELD_FILE_FOLDER}/Held Agreement.md"
SIBLING_OF_HELD_FILE = f"{HELD_FILE_FOLDER}/Cookie Notice.md"  # same platform, another document


@pytest.fixture(autouse=True)
def invented_held_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wild_history, "EXCLUDED_FOLDERS", (HELD_FOLDER,))
    monkeypatch.setattr(wild_history, "EXCLUDED_FILES", (HELD_FILE,))


def _commit(repo: Path, files: dict[str, str | None], when: int) -> None:
    for name, text in files.items():
        path = repo / name
        if text is None:
            subprocess.run(["git", "-C", str(repo), "rm", "-q", name], check=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        subprocess.run(["git", "-C", str(repo), "add", name], check=True)
    stamp = f"2024-01-{when:02d}T00:00:00+00:00"
    env = {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", f"r{when}"], check=True, env=env)


@pytest.fixture
def history(tmp_path: Path) -> Path:
    repo = tmp_path / "versions"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    for key, value in (
        ("user.name", "Test"),
        ("user.email", "test@example.org"),
        ("commit.gpgsign", "false"),
    ):
        subprocess.run(["git", "-C", str(repo), "config", key, value], check=True)
    _commit(repo, {"Alpha/Terms.md": TERMS, "README.md": "# not a document\n"}, 1)
    _commit(repo, {f"{HELD_FOLDER}/Policy.md": "# reserved\n\nNever read.\n"}, 2)
    _commit(repo, {"Alpha/Terms.md": TERMS + "3. We may end your account.\n"}, 3)
    _commit(repo, {"Beta/Privacy Policy.md": "# Privacy\n\nWe keep your email.\n"}, 4)
    _commit(repo, {HELD_FILE: "# reserved\n\nNever read.\n"}, 5)
    _commit(
        repo,
        {
            "Alpha/Terms.md": TERMS.replace("resell", "sell"),
            "Beta/Privacy Policy.md": "# Privacy\n\nWe keep your email for a year.\n",
        },
        6,
    )
    return repo


def test_the_real_held_back_lists_are_the_ones_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wild_history, "EXCLUDED_FOLDERS", EXCLUDED_FOLDERS)
    monkeypatch.setattr(wild_history, "EXCLUDED_FILES", EXCLUDED_FILES)
    assert EXCLUDED_FOLDERS and EXCLUDED_FILES
    assert all(is_excluded(f"{folder}/Policy.md") for folder in EXCLUDED_FOLDERS)
    assert all(is_excluded(name) for name in EXCLUDED_FILES)


def test_reserved_paths_and_non_documents_are_excluded() -> None:
    assert is_excluded(f"{HELD_FOLDER}/Policy.md") and is_excluded(HELD_FILE)
    assert is_excluded("README.md") and is_excluded("Alpha/notes/deep.md")
    assert not is_excluded(SIBLING_OF_HELD_FILE)  # a held-back file does not hold back its platform


def test_import_writes_each_revision_oldest_first_and_never_a_reserved_one(
    history: Path, tmp_path: Path
) -> None:
    dest = tmp_path / "external" / "pga"
    revisions = import_history(history, dest)
    assert [(r.document, r.number) for r in revisions] == [
        ("Alpha/Terms.md", 0),
        ("Alpha/Terms.md", 1),
        ("Alpha/Terms.md", 2),
        ("Beta/Privacy Policy.md", 0),
        ("Beta/Privacy Policy.md", 1),
    ]
    assert (dest / revisions[1].file).read_text(encoding="utf-8").endswith("3. We may end your account.\n")
    assert "sell it" in (dest / revisions[2].file).read_text(encoding="utf-8")
    assert not (dest / HELD_FOLDER).exists() and not (dest / HELD_FILE_FOLDER).exists()
    assert load_index(dest) == revisions
    assert [(a.number, b.number) for a, b in consecutive_pairs(revisions)] == [(0, 1), (1, 2), (0, 1)]
    again = tmp_path / "again"
    import_history(history, again)
    assert (again / "index.json").read_bytes() == (dest / "index.json").read_bytes()


def test_run_reports_every_pair_with_no_crash_and_no_loss(history: Path, tmp_path: Path) -> None:
    dest = tmp_path / "pga"
    import_history(history, dest)
    report = wild_run.run(dest, setting="serial")
    assert (report["documents"], report["revisions"], report["pairs_total"], report["pairs_run"]) == (
        2,
        5,
        3,
        3,
    )
    assert report["crashes"] == 0 and report["noloss_violations"] == 0 and report["budget_flags"] == 0
    assert report["blocks_per_document"]["by_document"] == {
        "Alpha/Terms.md": 5,
        "Beta/Privacy Policy.md": 4,
    }
    assert 0 < report["seconds_per_pair"]["p50"] <= report["seconds_per_pair"]["p99"]
    assert wild_run.run(dest, limit=2, setting="serial")["pairs_run"] == 2


def test_a_crash_and_a_loss_are_counted_not_fatal(
    history: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dest = tmp_path / "pga"
    revisions = import_history(history, dest)
    (dest / revisions[4].file).write_text("   \n", encoding="utf-8")  # an empty revision: read() refuses it
    real_account = wild_run.account

    def lossy(text: str, tree):  # type: ignore[no-untyped-def]
        found = real_account(text, tree)
        if "end your account" in text:
            return WordAccount(Counter({"account": 1}), Counter(), found.document_words, found.block_words)
        return found

    monkeypatch.setattr(wild_run, "account", lossy)
    report = wild_run.run(dest, setting="serial")
    assert report["crashes"] == 1 and "AlignbenchError" in report["crash_list"][0]["crash"]
    assert report["crash_list"][0]["pair"] == "Beta/Privacy Policy.md#0->1"
    assert report["noloss_violations"] == 1 and report["noloss_list"][0]["revision"] == revisions[1].file


def test_sample_spreads_the_limit_evenly() -> None:
    assert wild_run.sample(list(range(10)), 5) == [0, 2, 4, 6, 8]
    assert wild_run.sample(list(range(3)), None) == [0, 1, 2]
    assert wild_run.sample(list(range(3)), 0) == []
    assert wild_run.percentile([0.1, 0.2, 0.3, 0.4], 0.5) == 0.2
    assert wild_run.percentile([float(k) for k in range(1, 101)], 0.99) == 99.0


def test_cli_imports_runs_and_reports(
    history: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    dest, report = tmp_path / "pga", tmp_path / "wild.json"
    assert main(["import", str(history), "--dest", str(dest)]) == 0
    assert "imported 5 revisions of 2 documents" in capsys.readouterr().out
    monkeypatch.setenv("ALIGNBENCH_SCHEDULER", "serial")
    assert main(["run", "--dest", str(dest), "--limit", "2", "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert "pairs run 2 of 3" in out and "crashes 0" in out and "no-loss violations 0" in out
    assert json.loads(report.read_text(encoding="utf-8"))["pairs_run"] == 2


def test_cli_errors_name_what_to_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--dest", str(tmp_path / "none")]) == 2
    assert "run `python -m alignbench.wild import SRC` first" in capsys.readouterr().err
    assert main(["import", str(tmp_path)]) == 2
    assert "not a git repository" in capsys.readouterr().err
    assert main(["run", "--dest", str(tmp_path), "--limit", "-1"]) == 2
