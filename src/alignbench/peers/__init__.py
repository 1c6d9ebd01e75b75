"""Peer engines on the same corpus as ours: xmldiff 3.x and Docxodus (through the docx-scalpel wheel).

They sit behind the optional ``peers`` extra (``requirements-peers.lock``), so the core install stays
lean; they are registered engines (``alignbench.engines.builtin.xmldiff`` and ``.docxodus``), and only
those plug-ins import them. Each engine's output has the alignment JSON shape (docs/CONTRACTS.md), so
one scorer grades every engine.
"""
