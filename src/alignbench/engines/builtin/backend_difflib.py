"""Plug-in: alignbench with the ``difflib`` similarity backend (cydifflib's SequenceMatcher)."""

from __future__ import annotations

from alignbench.engines.builtin.ours import OurEngine


class DifflibEngine(OurEngine):
    name = "difflib"
    rank = 0
    backend = "difflib"
