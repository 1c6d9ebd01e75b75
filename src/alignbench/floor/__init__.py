"""The flat floor: redlines 0.6.2's whole-document diff, lifted to block pairs.

It calls ``WholeDocumentProcessor(autojunk=False)`` directly and never the ``Redlines`` facade, so the
floor stays the flat engine even if the facade changes (seed 000).
"""

from alignbench.floor.engine import FLOOR_ENGINE, LIFTING_RULES, floor_alignment

__all__ = ["FLOOR_ENGINE", "LIFTING_RULES", "floor_alignment"]
