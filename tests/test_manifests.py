"""Nothing mixed or stale reaches the scorer (issue 33, item 2).

The probe's findings, reproduced on a four-pair copy of the synthetic tier: a SIGKILL of the align
stage in its write phase left a mix that score accepted; score accepted alignments made at another
``fuzzy_min_similarity``; label_check and score accepted a synthetic tier generated with another
``holdout_seed``. Each stage output directory now carries a manifest written last, and every consumer
refuses a mismatch in one line naming the stage to re-run, also when the stage scripts run directly.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from alignbench.engines.run import run_engine
from alignbench.labels.check import check_file
from alignbench.yamlload import load_yaml

try:  # absent before issue 33: the probe's scenarios below then run, and fail, on the stages alone
    from alignbench import manifest
    from alignbench.provenance import verify_corpus
except ImportError:  # pragma: no cover - only on the base commit
    manifest = verify_corpus = None  # type: ignore[assignment]

REPO = Path(__file__).resolve().parents[1]
PAIRS = ("csa-2.1--hard-move-edit-a", "csa-2.1--mixed-a", "csa-2.1--mixed-b", "csa-2.1--moves-a")
ALIGNMENTS = "results/alignments/difflib"
MANIFEST = "MANIFEST.json"


def generate_params(root: Path) -> dict:
    return load_yaml(root / "params.yaml", "params")["generate"]


def _stage(name: str):
    sys.path.insert(0, str(REPO / "stages"))
    try:
        module = __import__(name)
    finally:
        sys.path.remove(str(REPO / "stages"))
    return module


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository of four synthetic pairs, generated (copied, with the generate manifest), labelled
    (label_check's record), aligned by both backends and floored: every input score needs."""
    root = tmp_path_factory.mktemp("built")
    shutil.copy(REPO / "params.yaml", root / "params.yaml")
    (root / "corpus").mkdir()
    (root / "corpus" / "pairs.yaml").write_text("[]\n", encoding="utf-8")
    synthetic = root / "corpus" / "synthetic"
    for pair in PAIRS:
        shutil.copytree(REPO / "corpus" / "synthetic" / pair, synthetic / pair)
    files = sorted(p for p in synthetic.rglob("*") if p.is_file())
    record = {
        "schema": "alignbench/labels-summary/v1",
        "pairs": [{"tier": "synthetic", "pair": pair} for pair in PAIRS],
    }
    if manifest is not None:  # as generate writes it, and label_check records it
        manifest.write(synthetic, "generate", generate_params(root), None, files)
        record["inputs"] = verify_corpus(root)
    (root / "results").mkdir()
    (root / "results" / "labels.json").write_text(json.dumps(record), encoding="utf-8")
    run_engine(root, "difflib")
    run_engine(root, "rapidfuzz")
    run_engine(root, "floor")
    return root


@pytest.fixture
def repo(built: Path, tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(built, root)
    return root


def _score(root: Path, capsys) -> tuple[int, list[str]]:
    capsys.readouterr()
    status = _stage("score").main(root)
    return status, [line for line in capsys.readouterr().err.splitlines() if line]


def _set_param(root: Path, old: str, new: str) -> None:
    path = root / "params.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_score_accepts_what_its_stages_wrote(repo: Path, capsys) -> None:
    status, err = _score(repo, capsys)
    assert status == 0, err
    assert (repo / "results" / "tables" / MANIFEST).is_file()
    report = manifest.read(repo / "results" / "tables", "score", "results/tables")
    assert "../latest.json" in report["files"] and "leaderboard.csv" in report["files"]


KILL_AFTER_TWO_RENAMES = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from alignbench.engines.run import run_engine

    renames = []
    real_replace = os.replace

    def replace(src, dst):
        if len(renames) == 2:  # the write phase is half done: die as a SIGKILL would leave it
            os.kill(os.getpid(), signal.SIGKILL)
        renames.append(dst)
        real_replace(src, dst)

    os.replace = replace
    run_engine(Path(sys.argv[1]), "difflib")
    """
)


def test_a_sigkill_in_the_align_write_phase_leaves_a_mix_that_score_refuses(repo: Path, capsys) -> None:
    before = {p.name: p.read_bytes() for p in (repo / ALIGNMENTS / "synthetic").iterdir()}
    _set_param(repo, "fuzzy_min_similarity: 0.60", "fuzzy_min_similarity: 0.65")
    env = dict(os.environ, ALIGNBENCH_SCHEDULER="serial", PYTHONPATH=str(REPO / "src"))
    killed = subprocess.run([sys.executable, "-c", KILL_AFTER_TWO_RENAMES, str(repo)], env=env, timeout=120)
    assert killed.returncode == -9
    after = {p.name: p.read_bytes() for p in (repo / ALIGNMENTS / "synthetic").iterdir()}
    changed = sorted(name for name in before if after[name] != before[name])
    assert len(changed) == 2, "the kill should leave two files of the new config and two of the old"
    assert not (repo / ALIGNMENTS / MANIFEST).exists()
    for params in ("0.65", "0.60"):  # whichever config params.yaml names now, the mix is refused
        if params == "0.60":
            _set_param(repo, "fuzzy_min_similarity: 0.65", "fuzzy_min_similarity: 0.60")
        status, err = _score(repo, capsys)
        assert status == 2
        assert len(err) == 1
        assert f"{ALIGNMENTS}: no MANIFEST.json" in err[0]
        assert "re-run the align@difflib stage (`dvc repro -f align@difflib`)" in err[0]
    assert not (repo / "results" / "latest.json").exists()


def test_score_refuses_alignments_made_at_another_threshold(repo: Path, capsys) -> None:
    _set_param(repo, "fuzzy_min_similarity: 0.60", "fuzzy_min_similarity: 0.65")
    status, err = _score(repo, capsys)
    assert status == 2 and len(err) == 1
    assert (
        f"{ALIGNMENTS}: made with fuzzy_min_similarity 0.6 where params.yaml now has 0.65; "
        "re-run the align@difflib stage" in err[0]
    )


def test_label_check_and_score_refuse_a_tier_generated_with_another_holdout_seed(repo: Path, capsys) -> None:
    _set_param(repo, "holdout_seed: 20260914", "holdout_seed: 20260915")
    expected = (
        "corpus/synthetic: made with holdout_seed 20260914 where params.yaml now has 20260915; "
        "re-run the generate stage (`dvc repro -f generate`)"
    )
    status, err = _score(repo, capsys)
    assert status == 2 and len(err) == 1 and expected in err[0]
    assert _stage("label_check").main(["--root", str(repo)]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line]
    assert len(err) == 1 and expected in err[0]


def test_score_refuses_a_label_record_of_another_corpus(repo: Path, capsys) -> None:
    synthetic = repo / "corpus" / "synthetic"
    labels = synthetic / PAIRS[0] / "labels.yaml"
    labels.write_bytes(labels.read_bytes() + b"# regenerated\n")
    files = sorted(p for p in synthetic.rglob("*") if p.is_file() and p.name != MANIFEST)
    manifest.write(synthetic, "generate", generate_params(repo), None, files)  # as generate would
    status, err = _score(repo, capsys)
    assert status == 2 and len(err) == 1
    assert "results/labels.json: label_check passed another corpus/synthetic than the one on disk" in err[0]
    assert "re-run the label_check stage" in err[0]


def test_an_edited_or_stray_output_file_is_refused(repo: Path, capsys) -> None:
    target = repo / "results" / "floor" / "synthetic" / f"{PAIRS[0]}.json"
    target.write_bytes(target.read_bytes().replace(b"\n", b" \n", 1))  # still the same JSON
    status, err = _score(repo, capsys)
    assert status == 2 and len(err) == 1
    assert f"results/floor: synthetic/{PAIRS[0]}.json is not the file its stage wrote" in err[0]
    assert "re-run the floor stage" in err[0]
    run_engine(repo, "floor")
    (repo / ALIGNMENTS / "synthetic" / "extra.json").write_text("{}", encoding="utf-8")
    status, err = _score(repo, capsys)
    assert status == 2 and "1 file(s) its stage did not write, first synthetic/extra.json" in err[0]


def test_report_refuses_score_outputs_from_another_run_or_params(repo: Path, capsys, monkeypatch) -> None:
    assert _score(repo, capsys)[0] == 0
    report = _stage("report")
    monkeypatch.setattr(report, "ROOT", repo)
    latest = repo / "results" / "latest.json"
    latest.write_bytes(latest.read_bytes() + b"\n")
    assert report.main() == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "results/tables: ../latest.json is not the file its stage wrote" in err[0]
    assert "re-run the score stage" in err[0]
    assert _score(repo, capsys)[0] == 0
    _set_param(repo, "bootstrap_samples: 1000", "bootstrap_samples: 999")
    assert report.main() == 2
    err = capsys.readouterr().err
    assert "made with score.bootstrap_samples 1000 where params.yaml now has 999" in err


def test_manifests_are_byte_stable_and_hold_no_path_of_this_machine(built: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    shutil.copytree(built, again)
    run_engine(again, "difflib")
    for name in (ALIGNMENTS, "corpus/synthetic", "results/floor"):
        text = (again / name / MANIFEST).read_bytes()
        assert text == (built / name / MANIFEST).read_bytes()
        assert str(tmp_path).encode() not in text and str(REPO).encode() not in text


# --- label_check: a pair's own documents, and nothing stray ---------------------------------------------


def test_label_check_refuses_labels_that_point_at_another_pairs_identical_document(repo: Path) -> None:
    a, b = PAIRS[1], PAIRS[2]
    assert (repo / f"corpus/synthetic/{a}/source.md").read_bytes() == (
        repo / f"corpus/synthetic/{b}/source.md"
    ).read_bytes()
    labels = repo / f"corpus/synthetic/{b}/labels.yaml"
    assert check_file(labels, root=repo, expect=("synthetic", b)).ok
    labels.write_text(
        labels.read_text(encoding="utf-8").replace(
            f"file: corpus/synthetic/{b}/source.md", f"file: corpus/synthetic/{a}/source.md"
        ),
        encoding="utf-8",
    )
    result = check_file(labels, root=repo, expect=("synthetic", b))
    assert not result.ok
    assert any(
        f"$.source.file: corpus/synthetic/{a}/source.md is not this pair's document" in p
        for p in result.problems
    ), result.problems


def test_label_check_refuses_stray_files_in_a_pair_directory(repo: Path) -> None:
    pair = PAIRS[0]
    labels = repo / f"corpus/synthetic/{pair}/labels.yaml"
    (labels.parent / "notes.md").write_text("left behind\n", encoding="utf-8")
    result = check_file(labels, root=repo, expect=("synthetic", pair))
    assert any(
        f"corpus/synthetic/{pair}/notes.md: a file its stage does not write" in p for p in result.problems
    )
    # and the tier's manifest refuses it before any pair is checked
    with pytest.raises(Exception, match=r"1 file\(s\) its stage did not write, first .*notes\.md"):
        manifest.verify(repo, "corpus/synthetic", "generate", generate_params(repo))


def test_a_real_pairs_document_directory_holds_only_what_prepare_writes(tmp_path: Path) -> None:
    pair = "csa-1.1-to-2.0"
    for where in ("corpus/real", "corpus/labels/real"):
        shutil.copytree(REPO / where / pair, tmp_path / where / pair)
    labels = tmp_path / "corpus/labels/real" / pair / "labels.yaml"
    assert check_file(labels, root=tmp_path, expect=("real", pair)).ok
    (labels.parent / "my-notes.txt").write_text("the labeller's own workspace\n", encoding="utf-8")
    assert check_file(labels, root=tmp_path, expect=("real", pair)).ok
    (tmp_path / "corpus/real" / pair / "source.md~").write_text("an editor's backup\n", encoding="utf-8")
    problems = check_file(labels, root=tmp_path, expect=("real", pair)).problems
    assert [p for p in problems if "a file its stage does not write" in p] == [
        f"corpus/real/{pair}/source.md~: a file its stage does not write sits in the pair's directory; "
        "remove it (or re-run the stage that owns the directory)"
    ]
