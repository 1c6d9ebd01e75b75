"""Cell texts shared by every REPORT.md section: a tier's assessed status and a printed value."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from alignbench.score.ratios import fmt


def assessed(trust: Mapping[str, Any]) -> str:
    if trust["assessed"]:
        return "assessed"
    return "**not assessed** (" + "; ".join(trust["not_assessed_because"]) + ")"


def value(item: Any) -> str:
    """Ratios to 4 places (``n/a`` for undefined), anything else as it is."""
    return fmt(item) if isinstance(item, float) or item is None else str(item)
