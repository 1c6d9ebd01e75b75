"""The committed offline plots page: it must render with no network and be rebuildable from pins."""

from __future__ import annotations

import io
import json
import re
import tarfile
from pathlib import Path

import pytest
import yaml

from alignbench.errors import AlignbenchError
from alignbench.plots.offline_template import LIBRARIES, TEMPLATE_PATH, build_template, library_script

ROOT = Path(__file__).resolve().parent.parent


def test_committed_template_loads_nothing_from_the_network() -> None:
    page = (ROOT / TEMPLATE_PATH).read_text(encoding="utf-8")
    assert page.count("{plot_divs}") == 1
    assert "{scripts}" not in page  # DVC would put its CDN <script src> tags there
    assert not re.search(r"<script[^>]*\bsrc=", page)
    assert not re.search(r"<link[^>]*\bhref=", page)
    for library in LIBRARIES:
        assert f"/* {library.name}@{library.version} (npm tarball sha256 {library.tarball_sha256}" in page


def test_dvc_config_points_at_the_template() -> None:
    config = (ROOT / ".dvc" / "config").read_text(encoding="utf-8")
    assert re.search(r"^\[plots\]\s*\n\s*html_template = offline_plots\.html$", config, re.M)
    assert (ROOT / ".dvc" / "offline_plots.html").is_file()


def test_per_plan_plots_use_a_categorical_template() -> None:
    plots = yaml.safe_load((ROOT / "dvc.yaml").read_text(encoding="utf-8"))["plots"]
    per_plan = [next(iter(entry.values())) for entry in plots if "F1 per plan" in str(entry)]
    assert per_plan, "dvc.yaml lost its per-plan plots"
    for spec in per_plan:
        assert spec["template"] == "alignbench_f1_per_plan"  # a dot plot: .dvc/plots/
        assert list(spec["y"].values()) == ["plan"]  # the category axis
    template = json.loads(
        (ROOT / ".dvc" / "plots" / "alignbench_f1_per_plan.json").read_text(encoding="utf-8")
    )
    assert template["encoding"]["y"]["type"] == "nominal"
    assert template["encoding"]["x"]["scale"]["zero"] is False  # 0.93 against 1.0 must be visible


def _fake_tarball(tmp_path: Path, script: str, code: str) -> Path:
    path = tmp_path / "lib.tgz"
    with tarfile.open(path, "w:gz") as archive:
        for name, text in ((script, code), ("package/package.json", '{"license": "BSD-3-Clause"}')):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def test_a_tarball_that_is_not_the_pinned_one_is_refused(tmp_path: Path) -> None:
    library = LIBRARIES[0]
    tarball = _fake_tarball(tmp_path, library.script, "var vega = 1;")
    with pytest.raises(AlignbenchError, match=r"lib\.tgz: sha256 .* is not the pinned"):
        library_script(library, tarball)


def test_the_builder_wants_all_three_libraries(tmp_path: Path) -> None:
    with pytest.raises(AlignbenchError, match="expected 3 npm tarballs"):
        build_template([tmp_path / "a.tgz"])
