"""Named, deterministic text normalisations applied by ``prepare``.

Each function takes and returns text and is pure, so a pair's manifest can list the names it ran
and anyone can reproduce the prepared bytes. Changing one of them changes prepared digests, which
the label check must notice: edit with care.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import yaml

from alignbench.errors import AlignbenchError

_CRLF = re.compile(r"\r\n?")


def normalise_line_endings(text: str) -> str:
    """CRLF and lone CR become LF (some Common Paper files were committed with CRLF)."""
    return _CRLF.sub("\n", text)


# Jekyll/Docs-style YAML front matter: a first line of exactly '---', then YAML, then '---' or '...'.
_FRONT_MATTER = re.compile(r"\A---\n(?P<yaml>.*?\n)?(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
_FIRST_LINE_IS_H1 = re.compile(r"\A\s*#[ \t]")


def front_matter_title_to_heading(text: str) -> str:
    """Replace YAML front matter with the page title as a ``#`` heading, as the published page shows it.

    Site-policy repositories (GitHub, 37signals) keep the title and site metadata (redirects,
    versions, topics, description) in front matter. Left in place, the markdown reader would read
    that metadata as paragraphs and lists and nest the document's opening under them. The title is
    what the rendered page displays as its heading, so it becomes ``# title`` - unless the body
    already opens with its own ``#`` heading, which the page shows instead. The other keys are not
    document text and are dropped.
    """
    match = _FRONT_MATTER.match(text)
    if match is None:
        return text
    try:
        meta = yaml.safe_load(match["yaml"] or "")
    except yaml.YAMLError as exc:
        raise AlignbenchError(
            f"the YAML front matter does not parse ({exc.__class__.__name__}); fix it"
        ) from None
    if meta is not None and not isinstance(meta, dict):
        raise AlignbenchError("the YAML front matter is not a mapping of keys to values")
    body = text[match.end() :].lstrip("\n")
    title = meta.get("title") if meta else None
    if isinstance(title, str) and title.strip() and not _FIRST_LINE_IS_H1.match(body):
        return f"# {' '.join(title.split())}\n\n{body}"
    return body


# A markdown ordered-list item whose text starts with a span carrying an id attribute.
_ITEM_WITH_ID_SPAN = re.compile(
    r"^(?P<indent>[ \t]*)(?P<marker>[0-9]+|[a-z]+|[ivx]+)\.(?P<gap>[ \t]+)"
    r"<span(?P<attrs>[^>]*)>(?P<inner>.*?)</span>(?P<rest>.*)$"
)
_ID_ATTR = re.compile(r'\s+id="(?P<id>[^"]*)"')
_CLASS_ATTR = re.compile(r'\bclass="(?P<cls>[^"]*)"')
_NUMERIC_LABEL = re.compile(r"[0-9]+(?:\.[0-9]+)*")
_SECTION_HEADER_CLASS = "header_2"


def _promote_line(line: str) -> str:
    match = _ITEM_WITH_ID_SPAN.match(line)
    if match is None:
        return line
    attrs = match["attrs"]
    id_match = _ID_ATTR.search(attrs)
    class_match = _CLASS_ATTR.search(attrs)
    classes = class_match["cls"].split() if class_match else []
    indent, marker, gap, inner, rest = (match[k] for k in ("indent", "marker", "gap", "inner", "rest"))
    label = id_match["id"].strip() if id_match else None
    if _SECTION_HEADER_CLASS in classes and not rest.strip():
        # The span is the whole item: a section heading. Its number is the id, else the marker.
        number = label if label and _NUMERIC_LABEL.fullmatch(label) else marker
        return f"{indent}{number}. ## {inner.strip()}"
    if label is None:
        return line
    kept_attrs = _ID_ATTR.sub("", attrs, count=1)
    span = f"<span{kept_attrs}>{inner}</span>"
    if _NUMERIC_LABEL.fullmatch(label):
        # Dotted clause number (1.1, 4.12): promote it into the text, where the reader lets it win.
        return f"{indent}{marker}.{gap}{label} {span}{rest}"
    # Ids such as "5.3.a" repeat the item's own marker ("a.") with its path: the marker already is
    # the label the document shows, so only the attribute goes.
    return f"{indent}{marker}.{gap}{span}{rest}"


def promote_span_ids_to_labels(text: str) -> str:
    """Turn clause numbers hidden in ``<span id="1.1">`` attributes on list items into visible labels.

    ``N. <span class="header_2" id="K">Title</span>`` (the whole item) -> ``K. ## Title``
    (without an id the marker N is the number); ``N. <span ... id="1.1">Title.</span> text`` ->
    ``N. 1.1 <span ...>Title.</span> text`` (the span itself is left for ``strip_inline_html``).
    Ids that end in a letter (``5.3.a``) only restate the marker and are dropped.
    """
    return "\n".join(_promote_line(line) for line in text.split("\n"))


_LINE_BREAK_TAG = re.compile(r"<br\s*/?>", re.IGNORECASE)
# An HTML start/end/self-closing tag. Markdown autolinks (<https://...>) have a ':' after the name
# and so never match.
_INLINE_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s+[^<>]*?)?\s*/?>")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def strip_inline_html(text: str) -> str:
    """Remove inline HTML tags and comments but keep their inner text; ``<br>`` becomes a space."""
    text = _HTML_COMMENT.sub("", text)
    text = _LINE_BREAK_TAG.sub(" ", text)
    return _INLINE_TAG.sub("", text)


# name -> function, in the order prepare applies them to a markdown document.
MARKDOWN_PIPELINE: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("normalise_line_endings", normalise_line_endings),
    ("front_matter_title_to_heading", front_matter_title_to_heading),
    ("promote_span_ids_to_labels", promote_span_ids_to_labels),
    ("strip_inline_html", strip_inline_html),
)
TEXT_PIPELINE: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("normalise_line_endings", normalise_line_endings),
)


def run_pipeline(text: str, pipeline: tuple[tuple[str, Callable[[str], str]], ...]) -> tuple[str, list[str]]:
    """Apply each step in order; return the result and the names of the steps that changed something."""
    applied: list[str] = []
    for name, step in pipeline:
        result = step(text)
        if result != text:
            applied.append(name)
        text = result
    return text, applied
