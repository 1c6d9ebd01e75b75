"""Plug-in: xmldiff 3.x over our block trees (:mod:`alignbench.peers.xmldiff_engine`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from alignbench.blocks import BlockTree
from alignbench.engines.builtin.peer import PeerStageEngine
from alignbench.engines.protocol import Capabilities


class XmldiffEngine(PeerStageEngine):
    name = "xmldiff"
    distribution_name = "xmldiff"
    display_name = "xmldiff"
    capabilities = Capabilities(moves=True, renumbers=False, rows=True)

    def function(self) -> Callable[[BlockTree, BlockTree], dict[str, Any]]:
        from alignbench.peers.xmldiff_engine import xmldiff_alignment

        return xmldiff_alignment
