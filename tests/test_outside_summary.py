"""The outside set's summary lives in the package and feeds the `outside` stage and REPORT.md."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

import outside_facts
from alignbench.outside import OUTSIDE_DIR, TOTALS, summarise, summarise_set
from alignbench.report.outside import outside_lines

ROOT = Path(__file__).resolve().parent.parent
PAIR = "pep-0387-2023"


def _stage():
    spec = importlib.util.spec_from_file_location("outside_stage", ROOT / "stages" / "outside.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tests_helper_is_a_thin_call_to_the_package() -> None:
    row = summarise(ROOT / OUTSIDE_DIR / PAIR)
    assert outside_facts.summarise(ROOT / OUTSIDE_DIR / PAIR) == row
    assert (row["family"], row["licence"]) == ("python-peps", "LicenseRef-Public-Domain")
    assert row["bullet_renumbers"] == 0 and row["reader_facts"] == 8


def test_stage_writes_a_byte_stable_summary_without_paths(tmp_path: Path) -> None:
    shutil.copytree(ROOT / OUTSIDE_DIR / PAIR, tmp_path / OUTSIDE_DIR / PAIR)
    stage = _stage()
    assert stage.main(tmp_path) == 0
    first = (tmp_path / stage.OUTPUT).read_bytes()
    assert stage.main(tmp_path) == 0
    assert (tmp_path / stage.OUTPUT).read_bytes() == first
    assert str(tmp_path).encode() not in first
    summary = json.loads(first)
    assert [row["pair"] for row in summary["pairs"]] == [PAIR]
    assert summary["totals"] == {key: summary["pairs"][0][key] for key in TOTALS}
    text = "\n".join(outside_lines(summary))
    assert f"| {PAIR} | python-peps |" in text and "`tests/test_outside_set.py` in CI" in text
    assert "Renumbers of a bullet or an empty label: **0** (as required)." in text


def test_stage_fails_with_one_line_on_a_pair_without_a_source(tmp_path: Path, capsys) -> None:
    shutil.copytree(ROOT / OUTSIDE_DIR / PAIR, tmp_path / OUTSIDE_DIR / PAIR)
    (tmp_path / OUTSIDE_DIR / PAIR / "SOURCE.yaml").write_text("pair: x\nfamily: f\n")
    assert _stage().main(tmp_path) == 2
    assert "tests/outside/pep-0387-2023/SOURCE.yaml: field 'licence'" in capsys.readouterr().err


def test_whole_set_has_no_bullet_renumbers() -> None:
    summary = summarise_set(ROOT / OUTSIDE_DIR)
    assert summary["totals"]["bullet_renumbers"] == 0
    assert len(summary["families"]) >= 4 and len(summary["pairs"]) >= 10


def test_outside_stage_declares_every_module_it_imports() -> None:
    """dvc.yaml's `outside` deps cover every alignbench module the stage loads while it runs."""
    code = (
        "import sys, runpy, pathlib; from alignbench.outside import summarise;"
        f"runpy.run_path('stages/outside.py', run_name='x'); summarise(pathlib.Path('{OUTSIDE_DIR}/{PAIR}'));"
        "print('\\n'.join(sorted(m.__file__ for n, m in sys.modules.items()"
        " if n.startswith('alignbench') and getattr(m, '__file__', None))))"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    files = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    deps = yaml.safe_load((ROOT / "dvc.yaml").read_text())["stages"]["outside"]["deps"]
    for path in files:
        relative = Path(path).resolve().relative_to(ROOT).as_posix()
        assert any(relative == d or relative.startswith(d + "/") for d in deps), relative
