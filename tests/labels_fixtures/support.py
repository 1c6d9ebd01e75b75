"""Shared helpers for the label tests: copy the fixture pair and read block-tree JSON documents."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from alignbench.blocks import BlockTree

FIXTURES = Path(__file__).resolve().parent


def blocks_json_reader(path: Path, format: str, profile: str | None) -> BlockTree:
    """Read a serialised ``BlockTree.to_dict()`` document (the ``blocks`` fixture format)."""
    assert format == "blocks", format
    return BlockTree.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def copy_pair(tmp_path: Path) -> Path:
    """Copy the golden fixture pair into ``tmp_path`` and return the labels path there."""
    for name in ("labels.yaml", "source.blocks.json", "test.blocks.json"):
        shutil.copyfile(FIXTURES / name, tmp_path / name)
    return tmp_path / "labels.yaml"


def restamp_real_tier(root: Path) -> None:
    """Write ``corpus/real/MANIFEST.json`` over the files there now, as the prepare stage would after
    preparing them (for a test that changes a prepared document on purpose)."""
    from alignbench import manifest

    real = root / "corpus" / "real"
    files = sorted(p for p in real.rglob("*") if p.is_file() and p.name != manifest.MANIFEST_NAME)
    manifest.write(real, "prepare", None, None, files)
