"""The Word (``.docx``) reader: the package's XML (lxml, the ``alignbench[docx]`` extra) walked into units.

``package`` resolves the parts through their relationships (body, styles, numbering, comments,
notes, headers, footers); the body is read from its XML (``document.BodyReader``), because a
library's paragraph objects hide what a tree needs: the revisions, the numbering and the order of
paragraphs and tables. docs/CONTRACTS.md says why not python-docx, docx2python or mammoth.

What is not body text is counted in ``dropped``, never lost silently: comments, headers and footers
(each part with text), footnotes and endnotes, field instructions, tracked deletions (accepted view)
or insertions (original view), hidden text and text boxes.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from alignbench.errors import AlignbenchError
from alignbench.readers.profiles import Profile
from alignbench.readers.units import Unit
from alignbench.readers.word.document import BodyReader
from alignbench.readers.word.numbering import Numbering, style_num_ids
from alignbench.readers.word.package import open_package
from alignbench.readers.word.runs import ACCEPTED, REVISION_VIEWS
from alignbench.readers.word.styles import Styles
from alignbench.readers.word.xml import W

__all__ = ["REVISION_VIEWS", "read_units", "shown_numbers"]

# Parts whose text is not the body's: what each counts as in `dropped`.
_SIDE_PARTS = {
    "comments": "comment",
    "footnotes": "footnote",
    "endnotes": "endnote",
    "header": "header",
    "footer": "footer",
}


def _count_side_parts(roots: dict[str, list[Any]], dropped: Counter[str]) -> None:
    for kind, name in _SIDE_PARTS.items():
        for root in roots.get(kind, []):
            if kind in ("header", "footer"):
                if _has_text(root):
                    dropped[name] += 1
                continue
            entry = {"comments": "comment", "footnotes": "footnote", "endnotes": "endnote"}[kind]
            for item in root.findall(W + entry):
                if item.get(W + "type") in (None, "normal") and _has_text(item):
                    dropped[name] += 1


def _has_text(element: Any) -> bool:
    return any((t.text or "").strip() for t in element.iter(W + "t"))


def read_units(
    data: bytes, profile: Profile, dropped: Counter[str], source: str = "<docx>", revisions: str = ACCEPTED
) -> list[Unit]:
    """The unit stream of a ``.docx`` file's bytes; what is not body text is counted in ``dropped``."""
    return _body_reader(data, profile, dropped, source, revisions).units


def shown_numbers(
    data: bytes, profile: Profile, source: str = "<docx>", revisions: str = ACCEPTED
) -> list[str]:
    """Every automatic number in reading order as Word shows it (``1.``, ``(a)``; ``•`` for a bullet):
    what the numbering fixtures check against Word's rules and LibreOffice's rendering."""
    return _body_reader(data, profile, Counter(), source, revisions).shown


def _body_reader(
    data: bytes, profile: Profile, dropped: Counter[str], source: str, revisions: str
) -> BodyReader:
    if revisions not in REVISION_VIEWS:
        raise AlignbenchError(f"{source}: unknown revisions view {revisions!r}; use accepted or original")
    package = open_package(data, source)
    roots = package.related
    styles_root = roots.get("styles", [None])[0]
    styles = Styles(styles_root)
    numbering = Numbering.from_xml(roots.get("numbering", [None])[0], style_num_ids(styles.elements()))
    _count_side_parts(roots, dropped)
    body = package.document.find(W + "body")
    if body is None:
        raise AlignbenchError(f"{source}: the Word document has no body; check that this is the right file")
    reader = BodyReader(styles, numbering, profile, revisions, dropped)
    reader.read(body)
    return reader
