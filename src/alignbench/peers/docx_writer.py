"""The smallest valid .docx: one ``<w:p>`` per line, written with zipfile (no python-docx).

Docxodus compares WordprocessingML paragraphs, so each text-bearing block becomes one paragraph of
one run. Entries carry a fixed timestamp, so the same lines always give the same bytes.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from xml.sax.saxutils import escape

from alignbench.peers.lines import xml_safe

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
CONTENT_TYPES = (
    _XML + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
    "</Types>"
)
PACKAGE_RELS = (
    _XML + '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
    'Target="word/document.xml"/></Relationships>'
)
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def paragraph(text: str) -> str:
    if not text:
        return "<w:p/>"
    return f'<w:p><w:r><w:t xml:space="preserve">{escape(xml_safe(text))}</w:t></w:r></w:p>'


def document_xml(lines: Sequence[str]) -> str:
    body = "".join(paragraph(line) for line in lines)
    return f'{_XML}<w:document xmlns:w="{_W}"><w:body>{body}</w:body></w:document>'


def docx_bytes(lines: Sequence[str]) -> bytes:
    """A .docx package whose body is exactly ``lines``, one paragraph each, in order."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as package:
        for name, data in (
            ("[Content_Types].xml", CONTENT_TYPES),
            ("_rels/.rels", PACKAGE_RELS),
            ("word/document.xml", document_xml(lines)),
        ):
            info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            package.writestr(info, data.encode("utf-8"))
    return buffer.getvalue()
