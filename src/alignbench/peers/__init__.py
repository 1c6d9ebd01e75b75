"""Peer engines on the same corpus as ours: xmldiff 3.x and Docxodus (through the docx-scalpel wheel).

They sit behind the optional ``peers`` extra (``requirements-peers.lock``), so the core install stays
lean; nothing outside this package imports them. Each engine's output has the alignment JSON shape
(docs/CONTRACTS.md), so one scorer grades every engine.
"""

from __future__ import annotations

PEER_ENGINES: tuple[str, ...] = ("docxodus", "xmldiff")

__all__ = ["PEER_ENGINES"]
