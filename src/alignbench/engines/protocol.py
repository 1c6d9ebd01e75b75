"""The ``Engine`` protocol: what a structural alignment engine must offer to be benchmarked.

The scorer reads only an Alignment JSON mapping (``pairs``, ``inserted``, ``deleted``, ``changes``;
``schemas/alignment.json``), so the protocol asks for no more than that, a name, a version and what
the engine claims to find. Everything else the pipeline needs about an engine (where its outputs go,
which table it appears in) has a default in :mod:`alignbench.engines.registry`, so a third-party
engine is four attributes and one method; docs/ENGINES.md walks through one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from alignbench.blocks import BlockTree


@dataclass(frozen=True)
class Capabilities:
    """What an engine claims to report. The scorer counts every engine the same way; these are shown
    beside its row so a reader knows a 0.0000 move recall means "never tries", not "tries and fails"."""

    moves: bool = False
    renumbers: bool = False
    rows: bool = False

    def to_dict(self) -> dict[str, bool]:
        return {"moves": self.moves, "renumbers": self.renumbers, "rows": self.rows}


@runtime_checkable
class Engine(Protocol):
    """A registered engine (entry point group ``alignbench.engines``, value ``module:object``)."""

    name: str
    version: str
    capabilities: Capabilities

    def align(self, source: BlockTree, test: BlockTree, params: Mapping[str, Any]) -> dict[str, Any]:
        """The Alignment JSON of one pair: ``{"pairs": [{source, test}...], "inserted": [...],
        "deleted": [...], "changes": [{kind, source, test, source_label, test_label}...]}`` (v1; a
        change may also say ``modified``, as alignbench's own v2 output does)."""
        ...
