"""Plug-in: the ``oracle`` calibration row, the labels themselves as an alignment (the scorer's self-test).

``params`` carries the pair's labels (``{"labels": ...}``); the scorer computes this row, no stage does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from alignbench.blocks import BlockTree
from alignbench.engines.protocol import Capabilities
from alignbench.engines.roles import CALIBRATION


class OracleEngine:
    name = "oracle"
    rank = 0
    version = "labels"
    role = CALIBRATION
    output_dir = ""
    stage = "score"
    params_section = None
    display_name = "oracle"
    capabilities = Capabilities(moves=True, renumbers=True, rows=True)
    self_test = True  # every accuracy metric must be exactly 1.0 (score.calibration.oracle_violations)
    passed_note = (
        "**Scorer self-test: passed.** The `oracle` row - the labels themselves turned into an "
        "alignment and scored by the same scorer - gives exactly 1.0000 on every accuracy metric "
        "(spurious rate 0.0000) in every tier and column (n/a where a tier has nothing of that kind)."
    )

    def align(self, source: BlockTree, test: BlockTree, params: Mapping[str, Any]) -> dict[str, Any]:
        from alignbench.score.calibration import oracle_alignment
        from alignbench.score.truth import truth_from_labels

        truth = params.get("truth") or truth_from_labels(params["labels"], "oracle row")
        return oracle_alignment(truth)
