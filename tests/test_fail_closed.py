"""Fail closed: incomplete tiers, stale outputs, leftover temporaries, bad score params, exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from alignbench.cli import main as alignbench_main
from alignbench.errors import AlignbenchError
from alignbench.labels.init import init_pair
from alignbench.labels.io import dump_labels, load_labels
from alignbench.score.settings import score_settings
from labels_fixtures.support import FIXTURES

REPO = Path(__file__).resolve().parents[1]
PAIR_DIR = Path("corpus/labels/real/mini")
GOOD_SCORE = {"bootstrap_samples": 1000, "bootstrap_seed": 1, "confidence": 0.95}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The label fixture repository with its one real pair labelled and fully confirmed."""
    shutil.copytree(FIXTURES / "repo", tmp_path, dirs_exist_ok=True)
    init_pair(tmp_path, "mini")
    path = tmp_path / PAIR_DIR / "labels.yaml"
    data = load_labels(path)
    for section in ("correspondences", "inserted", "deleted"):
        for row in data[section]:
            row["status"] = "confirmed"
    path.write_text(dump_labels(data), encoding="utf-8")
    return tmp_path


@pytest.fixture
def label_check(monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "stages"))
    import label_check

    return label_check


def _add_real_pair(repo: Path, pair: str) -> None:
    path = repo / "corpus/pairs.yaml"
    line = f"- {{pair: {pair}, source: fixture/a, test: fixture/b, format: markdown, profile: markdown}}\n"
    path.write_text(path.read_text(encoding="utf-8") + line, encoding="utf-8")


def _plan_two_synthetic_pairs(repo: Path) -> None:
    (repo / "corpus/plans/synthetic.yaml").write_text(
        "documents:\n"
        "- {id: mini, file: corpus/real/mini/source.md, origin: fixture, licence: MIT, attribution: tests}\n"
        "plans:\n"
        "- {id: edits, steps: [{op: edit_text}], variants: [a, b]}\n"
        "pairs:\n"
        "- {plan: edits, documents: [mini]}\n",
        encoding="utf-8",
    )


# --- completeness ---------------------------------------------------------------------------------


def test_label_check_fails_naming_real_pairs_without_labels(repo, label_check, capsys):
    assert label_check.main(["--root", str(repo)]) == 0
    assert "expecting 1 real pair(s) from corpus/pairs.yaml and 0 synthetic" in capsys.readouterr().out
    _add_real_pair(repo, "unlabelled-pair")
    assert label_check.main(["--root", str(repo)]) == 1
    err = capsys.readouterr().err
    assert (
        "real: 1 of 2 pair(s) named by corpus/pairs.yaml have no corpus/labels/real/<pair>/labels.yaml: "
        in err
    )
    assert "unlabelled-pair" in err


def test_a_half_generated_synthetic_tier_fails_naming_the_missing_pairs(repo, label_check, capsys):
    _plan_two_synthetic_pairs(repo)
    assert label_check.main(["--root", str(repo)]) == 1
    err = capsys.readouterr().err
    assert (
        "synthetic: 2 of 2 pair(s) named by corpus/plans/synthetic.yaml (params.yaml generate.plans)" in err
    )
    assert "mini--edits-a, mini--edits-b; run `dvc repro generate`" in err
    assert alignbench_main(["label", "check", "--all", "--root", str(repo)]) == 1
    assert "mini--edits-a, mini--edits-b" in capsys.readouterr().err


def test_a_labelled_pair_nobody_planned_fails(repo, label_check, capsys):
    extra = repo / "corpus/labels/real/stray"
    shutil.copytree(repo / PAIR_DIR, extra)
    assert label_check.main(["--root", str(repo)]) == 1
    assert "1 labelled pair(s) under corpus/labels/real are not named by corpus/pairs.yaml: stray" in (
        capsys.readouterr().err
    )


def test_the_blind_subset_must_name_real_pairs_with_their_blind_pass(repo, label_check, capsys):
    subset = repo / "corpus/labels/real/blind-subset.yaml"
    subset.write_text(
        "version: 2\nseed: fixture\nfraction: 0.3\nkept: [mini]\ndrawn: [nosuch]\n", encoding="utf-8"
    )
    assert label_check.main(["--root", str(repo)]) == 1
    err = capsys.readouterr().err
    assert "blind-subset.yaml: drawn[0] nosuch: not a real pair of corpus/pairs.yaml" in err
    assert "blind-subset.yaml: kept[0] mini: corpus/labels/real/mini/blind-labels.yaml is missing" in err


def test_label_check_all_outside_a_checkout_fails_and_says_where_it_looked(tmp_path, capsys):
    assert alignbench_main(["label", "check", "--all", "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path.resolve()} is not an alignbench checkout: looked for " in err
    assert (
        f"{tmp_path.resolve()}/corpus/pairs.yaml" in err and f"{tmp_path.resolve()}/corpus/synthetic" in err
    )


def test_score_checks_the_label_files_against_label_checks_record(repo, label_check, monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(REPO / "stages"))
    import score

    assert score.main(repo) == 2  # no record yet: an input is missing
    assert "results/labels.json is missing: label_check has not passed" in capsys.readouterr().err
    assert label_check.main(["--root", str(repo)]) == 0
    record = json.loads((repo / "results/labels.json").read_text(encoding="utf-8"))
    record["pairs"] = []
    (repo / "results/labels.json").write_text(json.dumps(record), encoding="utf-8")
    assert score.main(repo) == 1
    err = capsys.readouterr().err
    assert "1 pair(s) have labels that label_check did not pass: real/mini" in err
    assert "no score output exists (none was written)" in err


# --- what is true after a failure; leftover temporaries --------------------------------------------


def test_a_failed_label_check_removes_the_stale_record_and_says_so(repo, label_check, capsys):
    assert label_check.main(["--root", str(repo)]) == 0
    _add_real_pair(repo, "unlabelled-pair")
    capsys.readouterr()
    assert label_check.main(["--root", str(repo)]) == 1
    err = capsys.readouterr().err
    assert "removed the stale results/labels.json (it described an earlier run)" in err
    assert not (repo / "results/labels.json").exists()
    assert label_check.main(["--root", str(repo)]) == 1
    assert "results/labels.json does not exist and was not written" in capsys.readouterr().err


def test_a_rerun_sweeps_temporaries_left_by_a_killed_write(repo, label_check, monkeypatch, capsys):
    leftover = repo / "results/.labels.json.k1ll3d.tmp"
    leftover.parent.mkdir(parents=True)
    leftover.write_text("{half", encoding="utf-8")
    _add_real_pair(repo, "unlabelled-pair")  # swept even when the run then fails
    assert label_check.main(["--root", str(repo)]) == 1
    assert not leftover.exists()
    assert "removed .labels.json.k1ll3d.tmp, left by an interrupted earlier run" in capsys.readouterr().err

    monkeypatch.syspath_prepend(str(REPO / "stages"))
    import score

    table_tmp = repo / "results/tables/.leaderboard.csv.abcd1234.tmp"
    table_tmp.parent.mkdir(parents=True)
    table_tmp.write_text("half", encoding="utf-8")
    score.main(repo)
    assert not table_tmp.exists()


# --- score params -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            {"confidence": 2},
            "score.confidence: expected a number strictly between 0 and 1 (e.g. 0.95), got 2",
        ),
        ({"confidence": float("nan")}, "score.confidence: expected a number strictly between 0 and 1"),
        ({"confidence": 0}, "score.confidence: expected a number strictly between 0 and 1"),
        ({"bootstrap_samples": -5}, "score.bootstrap_samples: expected a whole number >= 1, got -5"),
        ({"bootstrap_samples": 1.9}, "score.bootstrap_samples: expected a whole number >= 1, got 1.9"),
        ({"bootstrap_samples": True}, "score.bootstrap_samples: expected a whole number >= 1, got True"),
        ({"confidence": None}, "score.confidence: expected a number strictly between 0 and 1"),
        ({"bootstrap_seed": "x"}, "score.bootstrap_seed: expected a whole number >= 0, got 'x'"),
        (
            {"extra": 1},
            "score.extra: unknown key; known keys are bootstrap_samples, bootstrap_seed, confidence",
        ),
    ],
)
def test_bad_score_params_are_one_clear_error(change, expected):
    with pytest.raises(AlignbenchError) as info:
        score_settings({**GOOD_SCORE, **change})
    assert expected in str(info.value)


def test_missing_score_keys_are_named():
    with pytest.raises(AlignbenchError, match=r"score: missing key\(s\) confidence; add them"):
        score_settings({"bootstrap_samples": 10, "bootstrap_seed": 1})
    assert score_settings(GOOD_SCORE) == GOOD_SCORE


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("  confidence: .nan", "score.confidence: expected a number strictly between 0 and 1"),
        ("  confidence: 2", "$.score.confidence: 2 is greater than or equal to the maximum of 1"),
        ("  bootstrap_samples: 1.9\n  confidence: 0.95", "$.score.bootstrap_samples: 1.9 is not of type"),
    ],
)
def test_the_score_stage_reports_bad_params_in_one_message_without_a_traceback(
    repo, label_check, monkeypatch, capsys, line, expected
):
    monkeypatch.syspath_prepend(str(REPO / "stages"))
    import score

    params = repo / "params.yaml"
    text = params.read_text(encoding="utf-8")
    if "bootstrap_samples" in line:
        text = text.replace("  bootstrap_samples: 1000\n", "")
    params.write_text(text.replace("  confidence: 0.95", line), encoding="utf-8")
    shutil.rmtree(repo / "corpus/labels/real/mini")
    (repo / "corpus/pairs.yaml").write_text("pairs: []\n", encoding="utf-8")
    (repo / "results").mkdir(exist_ok=True)
    record = {"schema": "alignbench/labels-summary/v1", "tiers": {}, "pairs": []}
    (repo / "results/labels.json").write_text(json.dumps(record), encoding="utf-8")
    assert score.main(repo) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err
    assert err.startswith("score: error: ")


# --- exit codes -------------------------------------------------------------------------------------


def test_exit_codes_are_in_the_help_and_the_contract(capsys):
    with pytest.raises(SystemExit) as usage:
        alignbench_main(["label", "check", "--no-such-flag"])
    assert usage.value.code == 2
    for argv in (["--help"], ["label", "--help"], ["label", "check", "--help"], ["blocks", "--help"]):
        with pytest.raises(SystemExit):
            alignbench_main(argv)
        out = capsys.readouterr().out
        assert "exit status:" in out and "1  differences found (compare) or checks failed" in out
    contracts = (REPO / "docs/CONTRACTS.md").read_text(encoding="utf-8")
    assert "| 1 | differences found (`compare`) or checks failed |" in contracts
    assert "| 2 | usage or input error |" in contracts


def test_label_check_exit_codes(repo, capsys):
    assert alignbench_main(["label", "check", "mini", "--root", str(repo)]) == 0
    assert alignbench_main(["label", "check", "--root", str(repo)]) == 2  # usage: neither PAIR nor --all
    assert alignbench_main(["label", "check", "nosuch", "--root", str(repo)]) == 2
    labels = repo / PAIR_DIR / "labels.yaml"
    labels.write_text(labels.read_text(encoding="utf-8").replace("status: confirmed}", "status: bogus}", 1))
    assert alignbench_main(["label", "check", "mini", "--root", str(repo)]) == 1


# --- label sheet ------------------------------------------------------------------------------------


@pytest.mark.parametrize("pair", ["csa-1.1-to-2.0", "cc-by-3.0-to-4.0"])
def test_label_sheet_leaves_a_committed_sheet_byte_for_byte(tmp_path, pair, capsys):
    committed = REPO / "corpus/labels/real" / pair / "sheet.txt"
    out = tmp_path / "sheet.txt"
    shutil.copyfile(committed, out)
    assert alignbench_main(["label", "sheet", pair, "--root", str(REPO), "--out", str(out)]) == 0
    assert out.read_bytes() == committed.read_bytes()
    assert "left unchanged" in capsys.readouterr().out


def test_label_sheet_rewrites_a_sheet_that_no_longer_says_what_the_labels_say(repo, tmp_path):
    out = tmp_path / "sheet.txt"
    assert alignbench_main(["label", "sheet", "mini", "--root", str(repo), "--out", str(out)]) == 0
    fresh = out.read_text(encoding="utf-8")
    decisions = [line for line in fresh.splitlines() if line and not line.startswith("#")]
    # a note the labels do not hold (a sheet's `move` token no longer counts: flags follow the links)
    out.write_text(fresh.replace(decisions[0], decisions[0] + "  # a note the labels lack"), encoding="utf-8")
    assert alignbench_main(["label", "sheet", "mini", "--root", str(repo), "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == fresh


def test_label_sheet_rewrites_a_sheet_whose_block_list_the_readers_no_longer_give(repo, tmp_path):
    out = tmp_path / "sheet.txt"
    assert alignbench_main(["label", "sheet", "mini", "--root", str(repo), "--out", str(out)]) == 0
    fresh = out.read_text(encoding="utf-8")
    listed = next(line for line in fresh.splitlines() if line.startswith("# S1 "))
    # the decisions still compile alike, but S1 is listed as a block the reader no longer gives
    out.write_text(fresh.replace(listed, listed.replace("# S1 /", "# S1 /old")), encoding="utf-8")
    assert alignbench_main(["label", "sheet", "mini", "--root", str(repo), "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == fresh
