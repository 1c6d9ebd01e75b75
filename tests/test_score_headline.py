"""The headline `dvc metrics show` reads by default (issue 32): narrow enough for a pull request,
each figure beside its bootstrap half-width; gates that read as what they mean."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import yaml

from alignbench.atomic import dump_json
from alignbench.score.aggregate import gates, metrics_view
from alignbench.score.dvcmetrics import HEADLINE_DIR, HEADLINE_METRICS, half_width, headline_files

SUBJECTS = ("difflib", "rapidfuzz")
ROOT = Path(__file__).resolve().parent.parent
DVC = Path(sys.executable).with_name("dvc")
MD_WIDTH = 120


def _summary() -> dict:
    """The committed run's full summary (results/latest.json holds it whole)."""
    return json.loads((ROOT / "results" / "latest.json").read_text(encoding="utf-8"))


def test_dvc_yaml_declares_the_headline_only() -> None:
    declared = yaml.safe_load((ROOT / "dvc.yaml").read_text(encoding="utf-8"))
    assert declared["metrics"] == [str(HEADLINE_DIR)]
    plotted = [next(iter(entry)) if isinstance(entry, dict) else entry for entry in declared["plots"]]
    assert "results/metrics.json" not in plotted and str(HEADLINE_DIR) not in plotted


def test_half_width_is_half_the_interval() -> None:
    assert half_width([0.9715, 0.9887]) == 0.0086
    assert half_width(None) is None


def test_each_figure_has_its_half_width_beside_it() -> None:
    summary = _summary()
    files = headline_files(summary, ("difflib", "rapidfuzz"))
    assert len(files) == len(summary["tiers"]) * len(HEADLINE_METRICS)
    row = files["results/headline/real/f1.json"]
    assert list(row) == ["difflib", "difflib±", "rapidfuzz", "rapidfuzz±"]
    engine = summary["tiers"]["real"]["engines"]["difflib"]["all"]
    assert row["difflib"] == engine["headline"]["f1"]
    low, high = engine["ci"]["f1"]
    assert low <= row["difflib"] <= high and row["difflib±"] == half_width([low, high]) > 0


def test_dvc_metrics_show_md_is_under_120_characters(tmp_path: Path) -> None:
    """The real `dvc metrics show --md` over the committed run's headline, in a scratch DVC repo."""
    for path, row in headline_files(_summary(), ("difflib", "rapidfuzz")).items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(dump_json(row), encoding="utf-8")
    (tmp_path / "dvc.yaml").write_text(f"metrics:\n- {HEADLINE_DIR}\n", encoding="utf-8")
    subprocess.run([str(DVC), "init", "--no-scm", "-q"], cwd=tmp_path, check=True, capture_output=True)
    shown = subprocess.run(
        [str(DVC), "metrics", "show", "--md"], cwd=tmp_path, check=True, capture_output=True, text=True
    ).stdout
    lines = [line for line in shown.splitlines() if line.strip()]
    header = [cell.strip() for cell in lines[0].split("|")[1:-1]]
    assert header == ["Path", "difflib", "difflib±", "rapidfuzz", "rapidfuzz±"]
    from alignbench.score.dvcmetrics import HEADLINE_METRICS

    assert len(lines) == 2 + 2 * len(HEADLINE_METRICS), shown  # header, rule, a row per tier and metric
    assert max(len(line) for line in lines) < MD_WIDTH, shown


def _tiers(assessed: bool, wrong: int, unreviewed: int) -> dict:
    engines = {b: {"all": {"headline": {"f1": 0.99, "move_recall": 0.99}}} for b in ("difflib", "rapidfuzz")}
    verdicts = {b: {"wrong": wrong, "unreviewed": unreviewed} for b in ("difflib", "rapidfuzz")}
    tier = {"trust": {"assessed": assessed}, "engines": engines, "move_verdicts": verdicts}
    return {"real": tier, "synthetic": tier}


def _gates(**kwargs):
    return gates(_tiers(**kwargs), SUBJECTS)


def test_a_gate_not_assessed_never_reads_as_met() -> None:
    statuses = {g["name"]: g["status"] for g in _gates(assessed=False, wrong=0, unreviewed=0)}
    assert statuses["real_f1"] == "not assessed" and statuses["zero_moves_ruled_wrong"] == "not assessed"
    assessed = {g["name"]: g["status"] for g in _gates(assessed=True, wrong=0, unreviewed=0)}
    assert assessed["real_f1"] == "met" and assessed["zero_moves_ruled_wrong"] == "met"


def test_no_move_ruled_wrong_is_not_met_when_nobody_ruled() -> None:
    """A threshold change makes every verdict stale: zero moves "ruled wrong" then means no ruling."""
    statuses = {g["name"]: g["status"] for g in _gates(assessed=True, wrong=0, unreviewed=60)}
    assert statuses["zero_moves_ruled_wrong"] == "not assessed"
    assert statuses["zero_unreviewed_engine_moves"] == "unmet"


def test_metrics_json_gates_are_words() -> None:
    view = metrics_view({"tiers": {}, "gates": _gates(assessed=False, wrong=0, unreviewed=0)})
    assert set(view["gates"].values()) == {"not assessed"}


def test_dvc_plots_output_is_ignored() -> None:
    """`dvc plots show` writes dvc_plots/ in the working directory; it is never a change to commit."""
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", "dvc_plots/index.html"], cwd=ROOT, capture_output=True
    )
    assert ignored.returncode == 0
