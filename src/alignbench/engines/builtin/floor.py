"""Plug-in: the floor, redlines 0.6.2's flat whole-document diff lifted to block pairs.

The engine itself is :mod:`alignbench.floor`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from alignbench.blocks import BlockTree
from alignbench.engines.protocol import Capabilities
from alignbench.engines.roles import REFERENCE


class FloorEngine:
    name = "floor"
    rank = 0
    role = REFERENCE
    output_dir = "results/floor"
    stage = "floor"
    params_section = None
    display_name = "floor (redlines 0.6.2 flat)"
    capabilities = Capabilities(moves=False, renumbers=False, rows=False)

    @property
    def version(self) -> str:
        from alignbench.floor import FLOOR_ENGINE

        return str(FLOOR_ENGINE["version"])

    def preload(self, params: Mapping[str, Any]) -> None:
        """Import the engine before the stage forks its workers."""
        import alignbench.floor.engine  # noqa: F401

    def align(self, source: BlockTree, test: BlockTree, params: Mapping[str, Any]) -> dict[str, Any]:
        from alignbench.floor import floor_alignment

        return floor_alignment(source, test)

    def methodology(self) -> list[str]:
        """The report's paragraph on how the floor is run and lifted (REPORT.md, Methodology)."""
        from alignbench.floor import LIFTING_RULES

        lines = [
            "- **The floor** is redlines 0.6.2's `WholeDocumentProcessor(autojunk=False)`, called directly, "
            "never the `Redlines` facade, over one line per text-bearing block (`<label> <text>`); for speed "
            "its `SequenceMatcher` is cydifflib's (CPython's difflib compiled: the same opcodes, "
            "checked by a test), and so is the difflib backend's. Its token opcodes are lifted to block "
            "pairs by two rules, the only places it can be flattered or hobbled:"
        ]
        lines += [f"  {i}. {rule}" for i, rule in enumerate(LIFTING_RULES, start=1)]
        lines += [
            "  It has no rows and no notion of moves or renumbers, so its move and renumber recall print "
            "0.0000 (or n/a where a tier has none labelled).",
        ]
        return lines
