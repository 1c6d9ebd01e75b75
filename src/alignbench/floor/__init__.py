"""The flat floor: redlines 0.6.2's whole-document diff, lifted to block pairs.

It calls ``WholeDocumentProcessor(autojunk=False)`` directly and never the ``Redlines`` facade, so the
floor stays the flat engine even if the facade changes (seed 000). ``floor_alignment`` is imported on
first use, so reading the constants does not import the engine.
"""

from __future__ import annotations

from typing import Any

from alignbench.floor.rules import FLOOR_ENGINE, LIFTING_RULES

__all__ = ["FLOOR_ENGINE", "LIFTING_RULES", "floor_alignment"]


def __getattr__(name: str) -> Any:
    if name == "floor_alignment":
        from alignbench.floor.engine import floor_alignment

        return floor_alignment
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
