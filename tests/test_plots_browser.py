"""`dvc plots` as a reader sees them, in headless Chromium (issue 32): offline, non-empty, one colour
per sweep series, the sweep's end points inside the frame, no stray default chart, F1-per-plan on an
axis that does not start at 0.

The charts are drawn from a scratch git + DVC repository holding this repository's dvc.yaml plots,
its templates and offline page, and three commits of plot data made by the score code from the
committed run's summary (results/latest.json) at thresholds 0.5, 0.6 and 0.7: what `dvc plots diff`
over a three-experiment sweep draws, without running one.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from alignbench.score.aggregate import SWEEP_PARAM, sweep_records
from browser_support import assert_no_network, screenshot_not_blank, skip_module_without_browser
from browser_support import browser as browser  # the fixture, registered under its own name

skip_module_without_browser()

ROOT = Path(__file__).resolve().parent.parent
DVC = Path(sys.executable).with_name("dvc")
THRESHOLDS = (0.5, 0.6, 0.7)
_COLOURED_PIXELS = """
const coloured = Array.from(document.querySelectorAll('.vega-embed canvas')).map((canvas) => {
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let n = 0;
  for (let i = 0; i < data.length; i += 4) {
    const hi = Math.max(data[i], data[i + 1], data[i + 2]);
    const lo = Math.min(data[i], data[i + 1], data[i + 2]);
    if (data[i + 3] > 0 && hi - lo > 60) n += 1;
  }
  return n;
});
return {coloured: coloured, errors: document.querySelectorAll('.vega-embed .error').length};
"""
# Draws a spec again with the page's own vega-embed and reads its scales: where the threshold's end
# points fall in the frame, the colour of each series, the F1 axis' lowest value.
_SCALES = """
const spec = arguments[0], done = arguments[arguments.length - 1];
const holder = document.createElement('div');
document.body.appendChild(holder);
vegaEmbed(holder, spec, {renderer: 'svg', actions: false}).then((result) => {
  const view = result.view, x = view.scale('x'), colour = view.scale('color');
  done({
    width: view.width(),
    x_domain: x.domain ? x.domain() : null,
    ends: x.bandwidth ? null : [x(0.5), x(0.7)],
    series: colour.domain(),
    colours: colour.domain().map((name) => colour(name)),
  });
}).catch((error) => done({error: String(error)}));
"""


def _dvc(root: Path, *args: str) -> str:
    return subprocess.run([str(DVC), *args], cwd=root, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def sweep_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sweep")
    shutil.copytree(ROOT / ".dvc" / "plots", root / ".dvc" / "plots")
    for name in ("config", "offline_plots.html"):
        shutil.copy(ROOT / ".dvc" / name, root / ".dvc" / name)
    plots = yaml.safe_load((ROOT / "dvc.yaml").read_text(encoding="utf-8"))["plots"]
    (root / "dvc.yaml").write_text(yaml.safe_dump({"plots": plots}), encoding="utf-8")
    summary = json.loads((ROOT / "results" / "latest.json").read_text(encoding="utf-8"))
    per_plan = (ROOT / "results" / "plots" / "difflib.json").read_text(encoding="utf-8")

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "test@example.invalid")
    git("config", "user.name", "test")
    (root / "results" / "plots").mkdir(parents=True)
    for threshold in THRESHOLDS:
        records = sweep_records(summary, {SWEEP_PARAM: threshold}, ("difflib", "rapidfuzz"))
        (root / "results" / "plots" / "sweep.json").write_text(json.dumps(records), encoding="utf-8")
        for backend in ("difflib", "rapidfuzz"):
            (root / "results" / "plots" / f"{backend}.json").write_text(per_plan, encoding="utf-8")
        git("add", "-A")
        git("commit", "-qm", f"threshold {threshold}")
        git("tag", f"t{threshold}")
    return root


def _rendered(sweep_repo: Path, *args: str) -> dict[str, list[dict[str, Any]]]:
    return json.loads(_dvc(sweep_repo, "plots", "diff", *(f"t{t}" for t in THRESHOLDS), *args, "--json"))[
        "data"
    ]


def _wait_for_marks(browser: Any, charts: int) -> dict:
    deadline = time.monotonic() + 20
    counts: dict = {}
    while time.monotonic() < deadline:
        counts = browser.execute_script(_COLOURED_PIXELS)
        if len(counts["coloured"]) >= charts and min(counts["coloured"]) > 0:
            break
        time.sleep(0.2)
    return counts


def test_dvc_plots_render_offline_with_marks(browser, sweep_repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "plots"
    _dvc(sweep_repo, "plots", "show", "-o", str(out))
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "cdn.jsdelivr" not in page and "<script src=" not in page
    browser.get((out / "index.html").as_uri())
    counts = _wait_for_marks(browser, 3)
    assert len(counts["coloured"]) == 3, f"expected the two per-plan charts and the sweep, got {counts}"
    # Axes and text are grey; bars and points are the only saturated pixels on a chart's canvas.
    assert min(counts["coloured"]) > 20, f"a chart drew no marks: {counts}"
    assert counts["errors"] == 0
    assert_no_network(browser)
    screenshot_not_blank(browser, tmp_path / "plots.png")


def test_sweep_is_one_chart_with_a_colour_per_series_and_its_ends_inside(
    browser, sweep_repo: Path, tmp_path: Path
) -> None:
    rendered = _rendered(sweep_repo, "--targets", "sweep")
    assert list(rendered) == ["sweep"], f"a stray default chart beside the sweep: {list(rendered)}"
    out = tmp_path / "sweep"
    _dvc(sweep_repo, "plots", "diff", *(f"t{t}" for t in THRESHOLDS), "--targets", "sweep", "-o", str(out))
    browser.get((out / "index.html").as_uri())
    assert len(_wait_for_marks(browser, 1)["coloured"]) == 1
    screenshot_not_blank(browser, tmp_path / "sweep.png")
    scales = browser.execute_async_script(_SCALES, rendered["sweep"][0]["content"])
    assert "error" not in scales, scales
    assert scales["series"] == ["real F1", "real move recall", "synthetic F1", "synthetic move recall"]
    assert len(set(scales["colours"])) == 4, f"series share a colour: {scales}"
    low, high = scales["ends"]
    assert 10 <= low < high <= scales["width"] - 10, f"an end point sits on the frame's edge: {scales}"
    assert_no_network(browser)


def test_f1_per_plan_axis_starts_near_the_values_not_at_zero(
    browser, sweep_repo: Path, tmp_path: Path
) -> None:
    rendered = _rendered(sweep_repo, "--targets", "f1_per_plan_difflib")
    assert list(rendered) == ["f1_per_plan_difflib"], f"a stray default chart: {list(rendered)}"
    spec = rendered["f1_per_plan_difflib"][0]["content"]
    out = tmp_path / "per-plan"
    _dvc(sweep_repo, "plots", "show", "f1_per_plan_difflib", "-o", str(out))
    browser.get((out / "index.html").as_uri())
    scales = browser.execute_async_script(_SCALES, spec)
    assert "error" not in scales, scales
    values = [row["f1"] for row in spec["data"]["values"]]
    low, high = scales["x_domain"]
    # padded a little past the lowest value and past 1.0, so no dot sits on the frame
    assert 0.5 < low < min(values) and 1 < high < 1.05, f"the F1 axis hides the differences: {scales}"
    assert len(set(scales["colours"])) == len(THRESHOLDS)  # one colour per experiment
