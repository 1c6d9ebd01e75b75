"""The ``score:`` section of params.yaml, validated the way ``align:`` is (one clear line per mistake).

The schema (``schemas/params.json``) already refuses wrong types, unknown and missing keys when
params.yaml is read; this module is the second line for what JSON Schema cannot say (NaN compares
false with every bound) and for callers that pass a mapping directly. A bad value never reaches the
bootstrap, where it would be a traceback (``confidence: 2``) or a silent truncation
(``bootstrap_samples: 1.9`` became 1).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from alignbench.errors import AlignbenchError

SCORE_KEYS: tuple[str, ...] = ("bootstrap_samples", "bootstrap_seed", "confidence")


class ScoreSettingsError(AlignbenchError, ValueError):
    """A bad ``score:`` knob: a ValueError for callers, a one-line message for the stage."""


def _whole(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ScoreSettingsError(
            f"params.yaml score.{name}: expected a whole number >= {minimum}, got {value!r}; "
            "fix it and re-run"
        )
    return value


def score_settings(mapping: Any) -> dict[str, Any]:
    """``{bootstrap_samples, bootstrap_seed, confidence}`` checked; any mistake is one error line."""
    if not isinstance(mapping, Mapping):
        raise ScoreSettingsError(
            f"params.yaml score: expected a mapping with {', '.join(SCORE_KEYS)}, "
            f"got {type(mapping).__name__}"
        )
    unknown = sorted(str(k) for k in mapping if k not in SCORE_KEYS)
    if unknown:
        raise ScoreSettingsError(
            f"params.yaml score.{unknown[0]}: unknown key; known keys are {', '.join(SCORE_KEYS)}"
        )
    missing = [k for k in SCORE_KEYS if k not in mapping]
    if missing:
        raise ScoreSettingsError(f"params.yaml score: missing key(s) {', '.join(missing)}; add them")
    confidence = mapping["confidence"]
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, int | float)
        or math.isnan(confidence)
        or not 0.0 < float(confidence) < 1.0
    ):
        raise ScoreSettingsError(
            f"params.yaml score.confidence: expected a number strictly between 0 and 1 (e.g. 0.95), "
            f"got {confidence!r}"
        )
    return {
        "bootstrap_samples": _whole("bootstrap_samples", mapping["bootstrap_samples"], 1),
        "bootstrap_seed": _whole("bootstrap_seed", mapping["bootstrap_seed"], 0),
        "confidence": float(confidence),
    }
