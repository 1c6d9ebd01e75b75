"""The HTML redline: ``alignbench compare OLD NEW --html OUT.html``.

One self-contained page built from an :class:`~alignbench.alignment.model.Alignment` and the two
block trees: a summary whose counts equal the JSON's, every change listed once and located by its
heading path, and the document itself marked up in the legal convention (deletions red and struck
through, insertions blue and underlined, moves green at both ends, linked both ways), with an inline
and a side-by-side view and keyboard navigation. :mod:`alignbench.html.view` decides what the page
says; :mod:`alignbench.html.render` only lays it out.
"""

from __future__ import annotations

from alignbench.html.render import render_redline

__all__ = ["render_redline"]
