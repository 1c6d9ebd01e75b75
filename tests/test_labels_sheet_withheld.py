"""The cold move rule in the sheet: a draft link that places a moved block hides its partner."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from alignbench.cli import main as alignbench_main
from alignbench.errors import AlignbenchError
from alignbench.labels.compile import parse_by
from alignbench.labels.io import dump_labels, load_labels
from alignbench.labels.workflow import compile_sheet
from labels_fixtures.support import FIXTURES

PAIR = "mini"


@pytest.fixture
def draft(tmp_path: Path) -> tuple[Path, Path, dict]:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "repo", repo)
    assert alignbench_main(["label", "init", PAIR, "--root", str(repo)]) == 0
    labels_path = repo / "corpus/labels/real" / PAIR / "labels.yaml"
    data = load_labels(labels_path)
    row = data["correspondences"][1]
    row.pop("proposed_by", None)  # what `label init` writes for a row the engine moved
    labels_path.write_text(dump_labels(data), encoding="utf-8")
    return repo, labels_path, row


def _sheet(repo: Path, labels_path: Path) -> str:
    out = repo / "sheet.txt"
    assert alignbench_main(["label", "sheet", str(labels_path), "--out", str(out), "--root", str(repo)]) == 0
    return out.read_text(encoding="utf-8")


def _ids(sheet: str, row: dict) -> tuple[str, str]:
    found = {}
    for line in sheet.splitlines():
        m = re.match(r"^# (([ST])\d+) (\S+) ", line)
        if m:
            found[(m.group(2), m.group(3))] = m.group(1)
    return found[("S", row["source"])], found[("T", row["test"])]


def test_a_withheld_row_shows_each_block_without_its_partner(draft) -> None:
    repo, labels_path, row = draft
    sheet = _sheet(repo, labels_path)
    s_id, t_id = _ids(sheet, row)
    decisions = sheet.split("# Decisions:")[1]
    assert re.search(rf"^{s_id} = \? ", decisions, re.M)
    assert re.search(rf"^\? = {t_id} ", decisions, re.M)
    assert not re.search(rf"^{s_id} = {t_id}\b", decisions, re.M)


def test_compile_refuses_until_the_labeller_rules(draft) -> None:
    repo, labels_path, row = draft
    sheet = _sheet(repo, labels_path)
    args = ["label", "compile", PAIR, str(repo / "sheet.txt"), "--by", "agent:t", "--draft", str(labels_path)]
    with pytest.raises(AlignbenchError, match="'\\?' is a withheld partner"):
        compile_sheet(repo, PAIR, repo / "sheet.txt", parse_by("agent:t"), draft_path=labels_path)
    ruled = sheet
    for other in load_labels(labels_path)["correspondences"]:
        s_id, t_id = _ids(sheet, other)
        flag = " move" if other["source"] == row["source"] else ""
        ruled = re.sub(rf"^{s_id} = \?.*$", f"{s_id} = {t_id}{flag}", ruled, flags=re.M)
        ruled = re.sub(rf"^\? = {t_id} .*\n", "", ruled, flags=re.M)
    assert "?" not in ruled.split("# Decisions:")[1]
    (repo / "sheet.txt").write_text(ruled, encoding="utf-8")
    assert alignbench_main([*args, "--root", str(repo)]) == 0
    compiled = load_labels(labels_path)
    moved = [r for r in compiled["correspondences"] if r["source"] == row["source"]]
    assert moved[0]["test"] == row["test"]
    # the sheet's `move` token is advisory: flags follow the links by the move rule (issue #27)
    from alignbench.labels.documents import open_pair
    from alignbench.labels.migrate import rule_kinds

    assert [r["kind"] for r in compiled["correspondences"]] == rule_kinds(compiled, open_pair(compiled, repo))
