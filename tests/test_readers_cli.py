"""``alignbench blocks``: the tree listing and the JSON output."""

from __future__ import annotations

import json
from pathlib import Path

from alignbench import read
from alignbench.cli import main

CONTRACT = Path(__file__).parent / "reader_fixtures" / "msa-contract.txt"


def test_blocks_lists_address_kind_label_digest_and_text(capsys) -> None:
    assert main(["blocks", str(CONTRACT)]) == 0
    out = capsys.readouterr().out.splitlines()
    tree = read(CONTRACT)
    assert len(out) == len(tree)
    clause = tree.find("/section[1]/section[1]/list_item[1]")
    line = next(x for x in out if x.strip().startswith("/section[1]/section[1]/list_item[1] "))
    assert f"list_item [1.1]  {clause.digest}  In this Agreement" in line
    assert line.startswith("      ")  # indented by depth
    long_line = next(x for x in out if "/section[1]/paragraph[1]" in x)
    assert long_line.endswith(tree.find("/section[1]/paragraph[1]").text[:60])


def test_blocks_json_round_trips(capsys) -> None:
    assert main(["blocks", str(CONTRACT), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == read(CONTRACT).to_dict()
    assert list(data) == ["format", "profile", "dropped", "drops", "root"]


def test_blocks_format_and_profile_override(tmp_path: Path, capsys) -> None:
    doc = tmp_path / "contract.md"
    doc.write_text("SECTION 1. SHORT TITLE.\n\n(a) In general.\n", encoding="utf-8")
    assert main(["blocks", str(doc), "--format", "text", "--profile", "contract", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "text"
    assert data["root"]["children"][0]["children"][0]["label"] == "SECTION 1"
