"""Plug-in: the ``null`` calibration row, position only (the i-th block of a kind to the i-th)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from alignbench.blocks import BlockTree
from alignbench.engines.protocol import Capabilities
from alignbench.engines.roles import CALIBRATION


class NullEngine:
    name = "null"
    rank = 1
    version = "position"
    role = CALIBRATION
    output_dir = ""
    stage = "score"
    params_section = None
    display_name = "null"
    capabilities = Capabilities(moves=False, renumbers=False, rows=True)
    report_note = (
        "The `null` row pairs the i-th block of each kind in the source with the i-th block of that kind "
        "in the test, by position alone, and reports no change: the score of knowing nothing about the "
        "text. Every engine, the floor included, should be above it."
    )

    def align(self, source: BlockTree, test: BlockTree, params: Mapping[str, Any]) -> dict[str, Any]:
        from alignbench.score.calibration import null_alignment

        return null_alignment(source, test)
