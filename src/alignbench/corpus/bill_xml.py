"""``bill_xml_to_text``: USLM and legacy bill-DTD XML to plain text in govinfo's layout.

The prepared text must keep the bill's own labels (``SEC. 2.``, ``(a)``, ``(1)``, ``(A)``) and
one paragraph per provision, because those are what the text reader turns into blocks and what
labels anchor to. Metadata and the cover/action blocks carry no provisions and are skipped; the
names and counts of what was skipped are returned so the manifest records them. A reported print
shows a committee's amendments in place: struck text (``changed="deleted"``) is dropped and inserted
text kept, so the prepared document is the version the committee reported; the manifest counts the
struck elements under ``changed=deleted``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field

from alignbench.errors import AlignbenchError

# Cover, metadata and sign-off elements: no provisions inside.
SKIPPED: frozenset[str] = frozenset(
    {
        # USLM
        "meta", "preface", "endorsement", "attestation", "signatures", "toc", "endMarker",
        "enrolledDateline", "slugLine",
        # bill DTD
        "metadata", "form", "pagebreak", "attestation-group",
    }
)  # fmt: skip
# Big divisions: one heading line "TITLE I--HEADING".
DIVISIONS: dict[str, str] = {
    "division": "DIVISION",
    "title": "TITLE",
    "subtitle": "Subtitle",
    "part": "PART",
    "chapter": "CHAPTER",
    "subchapter": "Subchapter",
}
# Numbered provisions: label first, heading ``.--`` run in, text in the same paragraph.
PROVISIONS: frozenset[str] = frozenset(
    {"section", "subsection", "paragraph", "subparagraph", "clause", "subclause", "item", "subitem"}
)
APPROPRIATIONS: frozenset[str] = frozenset(
    {"appropriations", "appropriations-major", "appropriations-intermediate", "appropriations-small"}
)
LABEL_TAGS: frozenset[str] = frozenset({"num", "enum"})
HEADING_TAGS: frozenset[str] = frozenset({"heading", "header"})
# Elements whose text is one paragraph of running text (inline children are flattened into it).
TEXT_BLOCKS: frozenset[str] = frozenset(
    {
        "content", "text", "chapeau", "continuation", "continuation-text", "p", "recital",
        "resolvingClause", "enactingFormula", "docTitle", "officialTitle", "official-title",
        "legis-type", "resolving-clause", "enacting-clause", "listContent", "caption",
    }
)  # fmt: skip
ROWS: frozenset[str] = frozenset({"tr"})
_WS = re.compile(r"\s+")


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


@dataclass
class _Writer:
    paragraphs: list[str] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)

    def add(self, text: str) -> None:
        text = _WS.sub(" ", text).strip()
        if text:
            self.paragraphs.append(text)


def _inline_text(element: ET.Element, writer: _Writer) -> str:
    """All text under an element, in order; DTD ``<quote>`` gets govinfo's ``...'' marks."""
    parts: list[str] = []
    if _local(element.tag) in SKIPPED:
        writer.skipped[_local(element.tag)] += 1
        return ""
    if _is_struck(element):
        writer.skipped["changed=deleted"] += 1
        return ""
    if _local(element.tag) == "quote":
        parts.append("``")
    parts.append(element.text or "")
    for child in element:
        parts.append(_inline_text(child, writer))
        parts.append(child.tail or "")
    if _local(element.tag) == "quote":
        parts.append("''")
    return "".join(parts)


def _label(element: ET.Element, kind: str, writer: _Writer, dtd: bool) -> str:
    for child in element:
        if _local(child.tag) in LABEL_TAGS:
            text = _WS.sub(" ", _inline_text(child, writer)).strip()
            if dtd and text:
                if kind == "section" and not text.upper().startswith("SEC"):
                    return f"SEC. {text}"
                if kind in DIVISIONS:
                    return f"{DIVISIONS[kind]} {text}"
            return text
    return ""


def _heading(element: ET.Element, writer: _Writer) -> str:
    for child in element:
        if _local(child.tag) in HEADING_TAGS:
            return _WS.sub(" ", _inline_text(child, writer)).strip()
    return ""


def _is_struck(element: ET.Element) -> bool:
    """Text a committee struck out (``changed="deleted"``) is shown in the reported print, not part of it."""
    return element.get("changed") == "deleted"


def _text_block(element: ET.Element, writer: _Writer, dtd: bool) -> None:
    """Running text; provisions nested inside it (as in some USLM prints) keep their own paragraphs."""
    if not any(_local(child.tag) in PROVISIONS for child in element):
        writer.add(_inline_text(element, writer))
        return
    run = [element.text or ""]
    for child in element:
        if _local(child.tag) in PROVISIONS:
            writer.add("".join(run))
            _walk(child, writer, dtd)
            run = [child.tail or ""]
        else:
            run += [_inline_text(child, writer), child.tail or ""]
    writer.add("".join(run))


def _walk(element: ET.Element, writer: _Writer, dtd: bool) -> None:
    kind = _local(element.tag)
    if kind in SKIPPED:
        writer.skipped[kind] += 1
        return
    if _is_struck(element):
        writer.skipped["changed=deleted"] += 1
        return
    if kind in TEXT_BLOCKS:
        _text_block(element, writer, dtd)
        return
    if kind in ROWS:
        cells = [_WS.sub(" ", _inline_text(c, writer)).strip() for c in element]
        writer.add("  ".join(c for c in cells if c))
        return
    body = [c for c in element if _local(c.tag) not in LABEL_TAGS | HEADING_TAGS]
    if kind in DIVISIONS:
        label, heading = _label(element, kind, writer, dtd), _heading(element, writer)
        writer.add("--".join(p for p in (label, heading) if p))
    elif kind in APPROPRIATIONS:
        writer.add(_heading(element, writer))
    elif kind in PROVISIONS:
        label, heading = _label(element, kind, writer, dtd), _heading(element, writer)
        if kind == "section" and heading:
            # "SEC. 2. SHORT TITLE." stands alone; the section's text follows as its own paragraph.
            writer.add(f"{label} {heading}")
        else:
            lead = f"{label} {heading}.--" if heading else f"{label} "
            first = body[0] if body and _local(body[0].tag) in TEXT_BLOCKS else None
            if first is not None:
                body = body[1:]
                lead += _WS.sub(" ", _inline_text(first, writer)).strip()
            writer.add(lead.replace(".--.--", ".--").replace("..--", ".--"))
    else:
        # Containers (bill, main, legis-body, quotedContent, ...): their text, if any, is a paragraph.
        if element.text and element.text.strip() and kind not in ("bill", "resolution", "main", "legis-body"):
            writer.add(element.text)
    for child in body:
        _walk(child, writer, dtd)


def bill_xml_to_text(data: bytes, *, name: str) -> tuple[str, dict[str, int]]:
    """Plain text (paragraphs separated by one blank line, trailing newline) and skipped-element counts."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise AlignbenchError(f"{name}: not well-formed XML ({exc}); restore the upstream bytes") from None
    if _local(root.tag) not in ("bill", "resolution", "amendment-doc"):
        raise AlignbenchError(f"{name}: root element <{_local(root.tag)}> is not a bill or resolution")
    dtd = not root.tag.startswith("{")  # USLM is namespaced, the bill DTD is not
    writer = _Writer()
    _walk(root, writer, dtd)
    if not writer.paragraphs:
        raise AlignbenchError(f"{name}: no provisions found; is this a USLM or bill-DTD file?")
    return "\n\n".join(writer.paragraphs) + "\n", dict(sorted(writer.skipped.items()))
