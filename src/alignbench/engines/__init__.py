"""Bring your own engine: the ``Engine`` protocol, discovery by entry point, isolation, evaluation.

docs/ENGINES.md is the guide; :mod:`alignbench.engines.protocol` the contract.
"""

from __future__ import annotations

from alignbench.engines.protocol import Capabilities, Engine

__all__ = ["Capabilities", "Engine"]
