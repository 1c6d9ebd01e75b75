"""init seeds a checkable draft from the engine without seeding moves; the CLI and the stage end to end."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from alignbench.cli import main as alignbench_main
from alignbench.labels.init import init_pair
from alignbench.labels.io import dump_labels, load_labels
from alignbench.labels.move_rule import MOVE_RULE
from labels_fixtures.support import FIXTURES, restamp_real_tier

REPO_ROOT = Path(__file__).resolve().parents[1]
PAIR_DIR = Path("corpus/labels/real/mini")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "repo", tmp_path, dirs_exist_ok=True)
    return tmp_path


def _confirm_all(path: Path) -> None:
    data = load_labels(path)
    for section in ("correspondences", "inserted", "deleted"):
        for row in data[section]:
            row["status"] = "confirmed"
    path.write_text(dump_labels(data), encoding="utf-8")


def test_init_seeds_every_block_as_proposed_with_moves_by_the_rule(repo: Path) -> None:
    written = init_pair(repo, "mini")
    assert [p.name for p in written] == ["labels.yaml", "worksheet.md", "move_worksheet.md"]
    data = load_labels(repo / PAIR_DIR / "labels.yaml")
    rows = [r for s in ("correspondences", "inserted", "deleted") for r in data[s]]
    assert rows and all(r["status"] == "proposed" for r in rows)
    assert data["review"]["labelled_by"]["kind"] == "engine"
    # clauses 2 and 3 swapped: flags follow the links (issue #27), so the later one in the source is
    # the move; the engine's own move pass stays withheld from the draft's evidence
    by_source = {r["source"]: r for r in data["correspondences"]}
    assert [r["source"] for r in data["correspondences"] if r["kind"] == "move"] == [
        "/section[1]/list_item[3]"
    ]
    moved = by_source["/section[1]/list_item[3]"]  # the engine's own move: its pass withheld
    assert (moved["kind"], moved["test"], "proposed_by" in moved) == (
        "move",
        "/section[1]/list_item[2]",
        False,
    )
    assert by_source["/section[1]/list_item[1]"]["proposed_by"] == "exact"

    worksheet = (repo / PAIR_DIR / "worksheet.md").read_text(encoding="utf-8")
    assert (
        "| ? | /section[1]/list_item[3] | 3 | Either party may terminate this agreement on thirty days "
        "notice. |" in worksheet
    )
    assert "| ? | /section[1]/list_item[1] |" not in worksheet
    move_sheet = (repo / PAIR_DIR / "move_worksheet.md").read_text(encoding="utf-8")
    assert "move" not in move_sheet.split("\n| # |")[1].lower()  # the table itself carries no engine hint
    table = move_sheet.split("\n| # |")[1]  # the fixed rule text above it names passes; the table must not
    assert "exact" not in table and "renumber" not in table
    assert MOVE_RULE.splitlines()[0] in move_sheet  # the labeller sees the rule and its worked examples


def test_init_refuses_to_overwrite_and_is_deterministic(repo: Path, capsys) -> None:
    init_pair(repo, "mini")
    first = (repo / PAIR_DIR / "labels.yaml").read_bytes()
    assert alignbench_main(["label", "init", "mini", "--root", str(repo)]) == 2
    assert "already exists" in capsys.readouterr().err
    init_pair(repo, "mini", force=True)
    assert (repo / PAIR_DIR / "labels.yaml").read_bytes() == first


def test_cli_check_sign_and_tamper(repo: Path, capsys, monkeypatch) -> None:
    for marker in ("ALIGNBENCH_AGENT", "CLAUDECODE", "CODEX_SANDBOX", "AIDER_MODEL"):
        monkeypatch.delenv(marker, raising=False)
    init_pair(repo, "mini")
    labels = repo / PAIR_DIR / "labels.yaml"
    root = ["--root", str(repo)]
    assert alignbench_main(["label", "check", "mini", *root]) == 0
    assert "override_rate 0.0000" in capsys.readouterr().out
    assert alignbench_main(["label", "check", "mini", "--reviewed", *root]) == 1
    assert "row(s) still proposed; confirm or correct each" in capsys.readouterr().err

    assert (
        alignbench_main(
            ["label", "sign", "mini", "--as", "ada", "--kind", "human", "--role", "labeller", *root]
        )
        == 2
    )
    assert "still proposed" in capsys.readouterr().err
    _confirm_all(labels)
    assert (
        alignbench_main(
            ["label", "sign", "mini", "--as", "agent:x", "--kind", "human", "--role", "reviewer", *root]
        )
        == 2
    )
    assert "refusing to sign as human" in capsys.readouterr().err
    assert (
        alignbench_main(
            ["label", "sign", str(labels), "--as", "ada", "--kind", "human", "--role", "labeller"]
        )
        == 0
    )
    assert alignbench_main(["label", "check", "--all", *root]) == 0
    assert ", signed" in capsys.readouterr().out

    labels.write_text(
        labels.read_text(encoding="utf-8").replace("status: confirmed}", "status: corrected}", 1)
    )
    assert alignbench_main(["label", "check", "--all", *root]) == 1
    err = capsys.readouterr().err
    assert "does not match the label content" in err
    assert "label check failed for 1 of 1 pair(s)" in err
    assert "Traceback" not in err


def test_cli_reanchor_and_agree(repo: Path, capsys, tmp_path: Path) -> None:
    init_pair(repo, "mini")
    source = repo / "corpus/real/mini/source.md"
    source.write_text(source.read_text(encoding="utf-8").replace("# 1. Terms\n", "# 1. Terms\n\nPreamble.\n"))
    root = ["--root", str(repo)]
    assert alignbench_main(["label", "check", "mini", *root]) == 1
    assert "run `alignbench label reanchor mini`" in capsys.readouterr().err
    assert alignbench_main(["label", "reanchor", "mini", *root]) == 0
    assert "-> " in capsys.readouterr().out
    assert alignbench_main(["label", "check", "mini", *root]) == 1
    assert "missing from every row section: /section[1]/paragraph[1]" in capsys.readouterr().err

    out = tmp_path / "agreement.json"
    golden = str(FIXTURES / "labels.yaml")
    assert alignbench_main(["label", "agree", golden, golden, "--json", str(out)]) == 0
    assert "0 disagreement(s)" in capsys.readouterr().out
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["correspondences"]["f1"] == 1.0 and report["disagreements"] == []


def test_stage_writes_a_byte_stable_summary_and_fails_loudly(repo: Path, monkeypatch, capsys) -> None:
    monkeypatch.syspath_prepend(str(REPO_ROOT / "stages"))
    import label_check

    init_pair(repo, "mini")
    _confirm_all(repo / PAIR_DIR / "labels.yaml")
    assert label_check.main(["--root", str(repo)]) == 0
    first = (repo / "results/labels.json").read_bytes()
    assert label_check.main(["--root", str(repo)]) == 0
    assert (repo / "results/labels.json").read_bytes() == first
    summary = json.loads(first)
    assert summary["tiers"]["real"]["pairs"] == 1
    assert summary["tiers"]["real"]["confirmed"] == summary["pairs"][0]["rows"]
    assert summary["tiers"]["real"]["labels_by_labeller_kind"]["engine"]["pairs"] == 1
    assert summary["pairs"][0]["labels"] == "corpus/labels/real/mini/labels.yaml"
    assert str(repo) not in first.decode("utf-8")

    (repo / "results/labels.json").unlink()
    test_md = repo / "corpus/real/mini/test.md"
    test_md.write_text(test_md.read_text(encoding="utf-8").replace("120", "130"), encoding="utf-8")
    capsys.readouterr()
    assert label_check.main(["--root", str(repo)]) == 2  # edited by hand, not by prepare: refused
    assert "corpus/real: mini/test.md is not the file its stage wrote" in capsys.readouterr().err
    restamp_real_tier(repo)  # as if prepare had made the new document
    assert label_check.main(["--root", str(repo)]) == 1
    err = capsys.readouterr().err
    assert "labels stale for 2 address(es): test /section[1]/list_item[4]/table[1]/row[2] " in err
    assert "test /section[1]/list_item[4]/table[1]/row[2]/cell[2] " in err
    assert "not written" in err
    assert not (repo / "results/labels.json").exists()


@pytest.mark.parametrize(
    "content", [b"", b"\xff\xfe", b"a: &x 1\nb: *x\n", b"schema: [\n", b"schema: alignbench/labels/v1\n"]
)
def test_cli_reports_malformed_files_in_one_message(tmp_path: Path, capsys, content: bytes) -> None:
    path = tmp_path / "labels.yaml"
    path.write_bytes(content)
    assert alignbench_main(["label", "check", str(path), "--root", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert str(path) in err and "Traceback" not in err
    assert err.rstrip().endswith("label check failed for 1 of 1 pair(s); see the problems above")
