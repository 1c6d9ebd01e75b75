"""`dvc plots show` draws non-empty charts offline (the committed template inlines vega)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from browser_support import assert_no_network, screenshot_not_blank, skip_module_without_browser
from browser_support import browser as browser  # the fixture, registered under its own name

skip_module_without_browser()

ROOT = Path(__file__).resolve().parent.parent
DVC = Path(sys.executable).with_name("dvc")
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


def test_dvc_plots_render_offline_with_marks(browser, tmp_path: Path) -> None:
    out = tmp_path / "plots"
    subprocess.run([str(DVC), "plots", "show", "-o", str(out)], cwd=ROOT, check=True, capture_output=True)
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "cdn.jsdelivr" not in page and "<script src=" not in page
    browser.get((out / "index.html").as_uri())
    deadline = time.monotonic() + 20
    counts: dict = {}
    while time.monotonic() < deadline:
        counts = browser.execute_script(_COLOURED_PIXELS)
        if len(counts["coloured"]) >= 3 and min(counts["coloured"]) > 0:
            break
        time.sleep(0.2)
    assert len(counts["coloured"]) >= 3, f"expected the two per-plan charts and the sweep, got {counts}"
    # Axes and text are grey; bars and points are the only saturated pixels on a chart's canvas.
    assert min(counts["coloured"]) > 20, f"a chart drew no bars or points: {counts}"
    assert counts["errors"] == 0
    assert_no_network(browser)
    screenshot_not_blank(browser, tmp_path / "plots.png")
