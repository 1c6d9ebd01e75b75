"""Plug-in: alignbench with the ``rapidfuzz`` similarity backend (rapidfuzz's Indel ratio)."""

from __future__ import annotations

from alignbench.engines.builtin.ours import OurEngine


class RapidfuzzEngine(OurEngine):
    name = "rapidfuzz"
    rank = 1
    backend = "rapidfuzz"
