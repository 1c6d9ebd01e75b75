"""Render a :class:`~alignbench.html.view.Redline` to one self-contained HTML page.

Jinja2 with autoescape on: every piece of document text reaches the page escaped, so a clause that
reads ``<script>`` is shown, never run. Every hidden character (a bidi override, a zero-width space:
:mod:`alignbench.visible`) is shown as a marked glyph, in the text (``segments``, ``label``) and in
every other value the template prints (the environment's ``finalize``), and each text is isolated
(``<bdi>``), so what the reviewer sees is what the bytes say. The stylesheet and script are package
files inlined verbatim, and a Content-Security-Policy forbids every fetch, so the page opens from
disk and makes no request.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import jinja2
from markupsafe import Markup

from alignbench import __version__
from alignbench.alignment.model import CHANGE_KINDS, Alignment
from alignbench.blocks import Block, BlockTree
from alignbench.html.view import build
from alignbench.html.wordiff import Segment
from alignbench.visible import show, show_html

KIND_WORDS = {
    "move": ("moved", "⇄"),
    "renumber": ("renumbered", "#"),
    "insert": ("inserted", "+"),
    "delete": ("deleted", "−"),
    "modify": ("modified", "~"),
}


_TAGS = {"delete": ('<del class="w">', "</del>"), "insert": ('<ins class="w">', "</ins>"), "equal": ("", "")}


def segments_html(segments: list[Segment]) -> Markup:
    """Word-diff segments as escaped text in ``<del>``/``<ins>``: a filter, since a macro call per
    segment made rendering a 2,000-clause pair several times slower."""
    out = []
    for op, text in segments:
        start, end = _TAGS[op]
        out.append(f"{start}{show_html(text)}{end}")
    return Markup("".join(out))


def label_html(block: Block, other: Block | None, mark: str) -> Markup:
    """A block's label, marked when the other side's differs: ``del`` (old side), ``ins`` (new side)
    or ``both`` (the inline view: old label struck, new label underlined)."""
    label, was = block.label, other.label if other is not None else block.label
    if label == was:
        return Markup('<bdi class="label">{}</bdi> ').format(_shown(label)) if label else Markup("")
    if mark == "both":
        parts = [("delete", was or ""), ("insert", label or "")]
        return Markup('<bdi class="label">{}</bdi> ').format(segments_html([p for p in parts if p[1]]))
    if not label:
        return Markup("")
    return Markup('<bdi class="label"><{0} class="w">{1}</{0}></bdi> ').format(Markup(mark), _shown(label))


def _shown(text: str) -> Markup:
    return Markup(show_html(text))


def _finalize(value: object) -> object:
    """Every printed value that is not already markup: hidden characters as plain glyphs (no tags,
    so the same text is safe inside an attribute); autoescape then escapes it."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return show(value)
    return value


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("alignbench.html", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_finalize,
    )
    env.filters["segments"] = segments_html
    env.filters["label"] = label_html
    env.globals["KIND_WORDS"] = KIND_WORDS
    env.globals["CHANGE_KINDS"] = CHANGE_KINDS
    return env


@cache
def _asset(name: str) -> Markup:
    # Trusted package files, not document text: inlined as they are.
    return Markup(resources.files("alignbench.html").joinpath("templates", name).read_text("utf-8"))


def render_redline(
    result: Alignment, old: BlockTree, new: BlockTree, *, old_name: str = "old", new_name: str = "new"
) -> str:
    """The redline page for ``result`` (an alignment of ``old`` against ``new``) as HTML text."""
    redline = build(result, old, new, old_name, new_name)
    template = _environment().get_template("redline.html.j2")
    return template.render(r=redline, css=_asset("redline.css"), js=_asset("redline.js"), version=__version__)
