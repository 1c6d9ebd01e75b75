"""The worked example (examples/alignbench-linematch) as a new user would run it (issue 31).

It is installed offline (``pip install --no-deps --no-build-isolation``) into a temporary target
directory, never into the project's venv, and found through PYTHONPATH by a subprocess that runs the
pipeline over a five-pair repository: the headline engines, the plugins stage (the example isolated,
with a deliberate crash on one pair, a hang past the time limit on another, an answer that breaks the
Alignment JSON schema on a third and an allocation past the memory limit on a fourth), score and
report. Its leaderboard row must appear and be scored, the four failed pairs counted, nothing lost.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from alignbench.readers import read

# ~20 s on 2 cores (a pip build, two pipeline runs, a 4 s hang): CI runs it in `make test-slow`.
pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "alignbench-linematch"
PAIRS = (
    "csa-2.1--mixed-a",
    "dpa-1.1--mixed-a",
    "pilot-1.1--mixed-a",
    "psa-1.1--mixed-a",
    "partnership-1.1--mixed-a",
)
CRASH, HANG, GARBAGE, HOG = PAIRS[1:]

RUN = """
import json, sys
from pathlib import Path
from alignbench.engines.registry import info, registered
from alignbench.engines.stage import run_named, run_third_party
from alignbench.report import render_report
from alignbench.score.write import score_repository
root = Path(sys.argv[1])
run_named(root, ["floor", "difflib", "rapidfuzz"])
lines = run_third_party(root)
latest = score_repository(root)
tables = {n: (root / "results/tables" / f"{n}.csv").read_text() for n in
          ("per_pass", "per_plan", "per_family", "backend_delta", "leaderboard")}
index = json.loads((root / "results/engines/index.json").read_text())
from alignbench.engines.registry import selected
report = render_report(latest, tables, None, selected_peers=selected(root), plugin_index=index)
(root / "REPORT.md").write_text(report)
print(json.dumps({"registered": list(registered()), "third_party": info("linematch").third_party,
                  "lines": lines}))
"""


def _unique_line(pair: str) -> str:
    """A text of ``pair``'s source document that no other pair's source contains."""
    others = [
        (REPO / "corpus/synthetic" / p / "source.md").read_text(encoding="utf-8") for p in PAIRS if p != pair
    ]
    tree = read(REPO / "corpus/synthetic" / pair / "source.md")
    return next(b.text for b in tree.blocks() if len(b.text) > 20 and not any(b.text in o for o in others))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("plugin") / "site"
    build = tmp_path_factory.mktemp("build")
    shutil.copytree(EXAMPLE, build / "example")  # pip writes build files beside the sources
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--no-index", "--target", str(target), str(build / "example")],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return target


def _repo(root: Path) -> Path:
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    params["engines"] = [*params["engines"], "linematch"]
    params["isolation"] = {"time_limit_seconds": 4.0, "memory_limit_mb": 2048}
    params["score"]["bootstrap_samples"] = 50
    root.mkdir(parents=True, exist_ok=True)
    (root / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    for pair in PAIRS:
        shutil.copytree(REPO / "corpus/synthetic" / pair, root / "corpus/synthetic" / pair)
    return root


def test_the_example_is_registered_scored_and_survives_a_crash_and_a_hang(site: Path, tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")])
    env["LINEMATCH_FAULTS"] = (
        f"crash={_unique_line(CRASH)};hang={_unique_line(HANG)};garbage={_unique_line(GARBAGE)};"
        f"hog={_unique_line(HOG)}"
    )
    env["ALIGNBENCH_SCHEDULER"] = "serial"
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(root)], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    ran = json.loads(done.stdout.strip().splitlines()[-1])
    assert "linematch" in ran["registered"] and ran["third_party"] is True

    index = json.loads((root / "results/engines/index.json").read_text(encoding="utf-8"))
    run = index["engines"]["linematch"]
    assert run["pairs"] == 5 and run["failed"] == {"crash": 2, "invalid": 1, "timeout": 1}
    assert sorted(run["failed_pairs"]) == sorted(f"synthetic/{p}" for p in (CRASH, HANG, GARBAGE, HOG))
    assert "RuntimeError: linematch: deliberate crash" in run["failed_pairs"][f"synthetic/{CRASH}"]["reason"]
    assert "no answer within 4 s" in run["failed_pairs"][f"synthetic/{HANG}"]["reason"]
    assert run["failed_pairs"][f"synthetic/{GARBAGE}"]["reason"] == (
        f"synthetic/{GARBAGE}: linematch: field $.pairs: 'not a list' is not of type 'array'"
    )
    assert run["failed_pairs"][f"synthetic/{HOG}"]["reason"] == (
        f"synthetic/{HOG}: linematch: MemoryError: over the 2048 MiB memory limit"
    )
    # each recorded as failed, with the document hashes: a complete, current peer
    for pair in (CRASH, HANG, GARBAGE, HOG):
        record = json.loads((root / f"results/engines/linematch/synthetic/{pair}.json").read_text())
        assert set(record) == {"documents", "engine", "failed"}
    good = json.loads((root / f"results/engines/linematch/synthetic/{PAIRS[0]}.json").read_text())
    assert len(good["pairs"]) > 10

    with (root / "results/tables/leaderboard.csv").open(encoding="utf-8") as handle:
        rows = {r["engine"]: r for r in csv.DictReader(handle) if r["tier"] == "synthetic"}
    assert rows["linematch"]["failed_pairs"] == "4"
    assert 0.0 < float(rows["linematch"]["f1_all"]) < float(rows["difflib"]["f1_all"])
    assert rows["linematch"]["move_recall_all"] in ("0.0000", "n/a")
    latest = json.loads((root / "results/latest.json").read_text(encoding="utf-8"))
    assert latest["tiers"]["synthetic"]["failed_pairs"]["linematch"] == 4
    report = (root / "REPORT.md").read_text(encoding="utf-8")
    assert "Failed pairs: synthetic: linematch 4." in report
    assert "- `linematch` 0.1.0 (package `alignbench-linematch`" in report
    assert "failed pairs: crash 2, invalid 1, timeout 1." in report


def test_the_project_venv_does_not_see_the_example() -> None:
    from alignbench.engines.registry import registered

    assert "linematch" not in registered()


def test_evaluate_runs_from_the_corpus_bundle_outside_a_checkout(site: Path, tmp_path: Path) -> None:
    """`alignbench bundle` in a checkout, then `alignbench evaluate` elsewhere, from the bundle alone."""
    root = _repo(tmp_path / "repo")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")])
    env["LINEMATCH_FAULTS"] = f"crash={_unique_line(CRASH)}"
    env["ALIGNBENCH_SCHEDULER"] = "serial"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env["TMPDIR"] = str(scratch)
    cli = [sys.executable, "-m", "alignbench.cli"]
    bundle = tmp_path / "corpus.tar.gz"
    packed = subprocess.run([*cli, "bundle", str(bundle)], cwd=root, env=env, capture_output=True, text=True)
    assert packed.returncode == 0, packed.stderr
    again = subprocess.run(
        [*cli, "bundle", str(tmp_path / "again.tar.gz")], cwd=root, env=env, capture_output=True
    )
    assert bundle.read_bytes() == (tmp_path / "again.tar.gz").read_bytes()  # deterministic
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run(
        [*cli, "evaluate", "linematch", "--tier", "synthetic", "--corpus", str(bundle), "--out", "ev"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert again.returncode == 0
    table = done.stdout
    assert "synthetic: 5 pairs" in table and "* linematch" in table and "alignbench/difflib" in table
    assert "floor (redlines 0.6.2 flat)" in table and "[" in table  # bootstrap intervals printed
    assert f"synthetic/{CRASH}: linematch: RuntimeError: linematch: deliberate crash" in table
    summary = json.loads((elsewhere / "ev/summary.json").read_text(encoding="utf-8"))
    assert summary["engine"]["name"] == "linematch" and summary["failed_pairs"]
    rows = {r["engine"]: r for r in summary["tiers"]["synthetic"]}
    assert rows["linematch"]["failed"] == 1 and rows["linematch"]["metrics"]["f1"]["ci"] is not None
    per_pair = sorted(p.name for p in (elsewhere / "ev/pairs/synthetic").iterdir())
    assert per_pair == sorted(f"{p}.json" for p in PAIRS)
    crashed = json.loads((elsewhere / f"ev/pairs/synthetic/{CRASH}.json").read_text(encoding="utf-8"))
    assert (
        crashed["failed"] and crashed["counts"]["hit_links"] == 0 and crashed["counts"]["labelled_links"] > 0
    )
    page = (elsewhere / "ev/summary.html").read_text(encoding="utf-8")
    assert "<script" not in page and "http" not in page.replace("https://", "").split("<body>")[0]
    assert 'class="evaluated"><td>linematch</td>' in page
    assert list(scratch.iterdir()) == [], "the scratch workspace and the unpacked bundle are removed"
