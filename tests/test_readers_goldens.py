"""Golden trees: each fixture's ``BlockTree.to_dict()`` must equal the committed JSON byte for byte.

Regenerate deliberately with ``ALIGNBENCH_REGEN_GOLDENS=1 pytest tests/test_readers_goldens.py``;
the run then fails on purpose so a regeneration never passes silently, and the diff is read by eye.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from alignbench import read
from alignbench.atomic import dump_json, write_text

HERE = Path(__file__).parent
FIXTURES = HERE / "reader_fixtures"
GOLDENS = HERE / "goldens"
CASES = [
    ("csa-1.1.md", "csa-1.1.json"),
    ("csa-2.0.md", "csa-2.0.json"),
    ("hr-4668-ih.txt", "hr-4668-ih.json"),
    ("msa-contract.txt", "msa-contract.text.json"),
    ("msa-contract.md", "msa-contract.markdown.json"),
]


@pytest.mark.parametrize(("fixture", "golden"), CASES)
def test_tree_matches_golden(fixture: str, golden: str) -> None:
    actual = dump_json(read(FIXTURES / fixture).to_dict())
    path = GOLDENS / golden
    if os.environ.get("ALIGNBENCH_REGEN_GOLDENS") == "1":
        write_text(path, actual)
        pytest.fail(f"regenerated {path.name}; review the diff and re-run without ALIGNBENCH_REGEN_GOLDENS")
    assert path.exists(), f"missing golden {path.name}; run with ALIGNBENCH_REGEN_GOLDENS=1 and review it"
    assert actual == path.read_text(encoding="utf-8")
