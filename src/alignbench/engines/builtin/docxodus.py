"""Plug-in: Docxodus through the docx-scalpel wheel (:mod:`alignbench.peers.docxodus_engine`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from alignbench.blocks import BlockTree
from alignbench.engines.builtin.peer import PeerStageEngine
from alignbench.engines.protocol import Capabilities


class DocxodusEngine(PeerStageEngine):
    name = "docxodus"
    distribution_name = "docx-scalpel"
    display_name = "docxodus"
    capabilities = Capabilities(moves=True, renumbers=False, rows=True)

    def function(self) -> Callable[[BlockTree, BlockTree], dict[str, Any]]:
        from alignbench.peers.docxodus_engine import docxodus_alignment

        return docxodus_alignment

    def close(self) -> None:
        """docx-scalpel starts one host process per interpreter; stop the one this run started, if any."""
        try:
            import docx_scalpel
        except ImportError:
            return
        docx_scalpel.shutdown_host()
