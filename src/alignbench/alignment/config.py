"""AlignmentConfig: every alignment knob in one frozen place, so a run is fully described by its config.

The pass list controls inclusion only; the order is fixed (seed 001), because a reordered run would
record pass names that no longer mean what they say.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from alignbench.blocks import CONTAINER_KINDS, KINDS
from alignbench.errors import AlignbenchError

PASS_NAMES: tuple[str, ...] = ("exact", "label", "structural", "fuzzy", "move", "positional", "sequence")
RESERVED_PASS_NAMES: tuple[str, ...] = ("root", "unmatched")
MANDATORY_PASSES: tuple[str, ...] = ("exact", "structural", "positional")
BACKENDS: tuple[str, ...] = ("auto", "difflib", "rapidfuzz")
_THRESHOLDS: tuple[str, ...] = (
    "fuzzy_min_similarity",
    "label_min_similarity",
    "label_text_margin",
    "positional_min_similarity",
    "sequence_min_similarity",
    "section_body_min_similarity",
    "move_min_similarity",
    "move_tie_margin",
    "move_loose_min_similarity",
    "move_loose_min_containment",
)
_COUNTS: tuple[str, ...] = ("move_min_tokens", "fuzzy_window", "max_comparisons")
_MOVABLE_KINDS: tuple[str, ...] = tuple(k for k in KINDS if k not in CONTAINER_KINDS)


class AlignmentConfigError(AlignbenchError, ValueError):
    """A bad alignment knob: a ValueError for callers, a one-line message for the CLI."""


@dataclass(frozen=True)
class AlignmentConfig:
    """The knobs and defaults of seed 001 (amended 2026-09-05), extended by issue #14.

    ``move_min_tokens`` guards *fuzzy* moves only (the strict fuzzy stage and the loose round): a
    byte-identical text unique among the leftovers on both sides - and, when shorter than the
    minimum, unique in each whole document - moves whatever its length (seed 001 applied the minimum
    to exact moves too). ``move_loose_min_similarity`` and ``move_loose_min_containment`` set the loose
    move round (:mod:`alignbench.alignment.loose`): a moved-and-edited clause pairs at that lower
    similarity only as the unique best in both directions with section context or a local edit behind it.
    """

    passes: tuple[str, ...] = PASS_NAMES
    fuzzy_min_similarity: float = 0.60
    label_min_similarity: float = 0.50
    label_text_margin: float = 0.20
    positional_min_similarity: float = 0.35
    sequence_min_similarity: float = 0.30
    section_body_min_similarity: float = 0.20
    move_min_similarity: float = 0.80
    move_tie_margin: float = 0.10
    move_loose_min_similarity: float = 0.50
    move_loose_min_containment: float = 0.90
    move_min_tokens: int = 8
    move_kinds: tuple[str, ...] = ("paragraph", "list_item", "heading")
    fuzzy_window: int = 25
    table_fuzzy: bool = True
    max_comparisons: int = 2_000_000
    similarity: str = "auto"

    def __post_init__(self) -> None:
        object.__setattr__(self, "passes", _validated_passes(self.passes))
        object.__setattr__(self, "move_kinds", _validated_move_kinds(self.move_kinds))
        for name in _THRESHOLDS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise AlignmentConfigError(f"align.{name}: expected a number in [0, 1], got {value!r}")
            if not 0.0 <= float(value) <= 1.0:
                raise AlignmentConfigError(
                    f"align.{name}: {value!r} is outside [0, 1]; use a value in [0, 1]"
                )
            object.__setattr__(self, name, float(value))
        for name in _COUNTS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise AlignmentConfigError(f"align.{name}: expected a whole number >= 0, got {value!r}")
        if not isinstance(self.table_fuzzy, bool):
            raise AlignmentConfigError(f"align.table_fuzzy: expected true or false, got {self.table_fuzzy!r}")
        if self.similarity not in BACKENDS:
            raise AlignmentConfigError(
                f"align.similarity: unknown backend {self.similarity!r}; use one of {', '.join(BACKENDS)}"
            )

    def enabled(self, pass_name: str) -> bool:
        return pass_name in self.passes

    def to_dict(self) -> dict[str, Any]:
        """Field order as declared; floats rounded to 4 places (the output edge)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, float):
                value = round(value, 4)
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AlignmentConfig:
        if not isinstance(data, Mapping):
            raise AlignmentConfigError(f"align: expected a mapping of knobs, got {type(data).__name__}")
        known = [f.name for f in fields(cls)]
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise AlignmentConfigError(f"align.{unknown[0]}: unknown key; known keys are {', '.join(known)}")
        kwargs = {k: data[k] for k in known if k in data}
        for key in ("passes", "move_kinds"):
            if key in kwargs:
                kwargs[key] = _as_name_tuple(key, kwargs[key])
        return cls(**kwargs)

    @classmethod
    def from_params(cls, mapping: Mapping[str, Any] | None, similarity: str = "auto") -> AlignmentConfig:
        """Build from the ``align:`` section of params.yaml; the backend comes from the stage matrix."""
        mapping = {} if mapping is None else mapping
        if not isinstance(mapping, Mapping):
            raise AlignmentConfigError(f"align: expected a mapping of knobs, got {type(mapping).__name__}")
        if "similarity" in mapping:
            raise AlignmentConfigError(
                "align.similarity: the backend is not a params.yaml knob; pass it as --backend"
            )
        return cls.from_dict({**mapping, "similarity": similarity})


def _as_name_tuple(key: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise AlignmentConfigError(f"align.{key}: expected a list of names, got {value!r}")
    return tuple(value)


def _validated_passes(passes: Any) -> tuple[str, ...]:
    names = _as_name_tuple("passes", passes)
    for name in names:
        if name not in PASS_NAMES:
            raise AlignmentConfigError(
                f"align.passes: unknown pass {name!r}; use names from {', '.join(PASS_NAMES)}"
            )
    if len(set(names)) != len(names):
        raise AlignmentConfigError("align.passes: a pass is listed twice; list each pass once")
    for name in MANDATORY_PASSES:
        if name not in names:
            raise AlignmentConfigError(
                f"align.passes: mandatory pass {name!r} is missing; "
                f"{', '.join(MANDATORY_PASSES)} cannot be dropped"
            )
    return tuple(p for p in PASS_NAMES if p in names)


def _validated_move_kinds(kinds: Any) -> tuple[str, ...]:
    names = _as_name_tuple("move_kinds", kinds)
    for name in names:
        if name not in _MOVABLE_KINDS:
            raise AlignmentConfigError(
                f"align.move_kinds: {name!r} cannot move; use kinds from {', '.join(_MOVABLE_KINDS)}"
            )
    if len(set(names)) != len(names):
        raise AlignmentConfigError("align.move_kinds: a kind is listed twice; list each kind once")
    return tuple(k for k in _MOVABLE_KINDS if k in names)
