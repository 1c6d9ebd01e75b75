"""Write small PDFs with a text layer placed line by line, so a test controls every position and font.

A page is a list of :class:`TextLine` (baseline position in points from the bottom-left corner, font
size, bold or not, italic or not); the fonts are four of PDF's standard 14 (Helvetica and its bold,
oblique and bold oblique), which every reader knows without an embedded font file. A page with no
lines is a page with no text layer, as a scan's is. The output is plain PDF 1.4 with a correct
cross-reference table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

PAGE_WIDTH = 612
PAGE_HEIGHT = 792


@dataclass(frozen=True)
class TextLine:
    x: float
    y: float
    text: str
    size: float = 11.0
    bold: bool = False
    italic: bool = False
    char_spacing: float = (
        0.0  # extra points after each character (``Tc``): stretches a line, as justification does
    )
    lead_bold: str = ""  # set in bold before ``text`` on the same line: a run-in title (``**Fees.** You``)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _content(lines: Sequence[TextLine]) -> bytes:
    parts = []
    for line in lines:
        font = f"F{1 + line.bold + 2 * line.italic}"
        spacing = f"{line.char_spacing:g} Tc " if line.char_spacing else ""
        # Each Tj moves the text position on by what it shows, so a bold lead runs on into the text.
        lead = (
            f"/F{2 + 2 * line.italic} {line.size:g} Tf ({_escape(line.lead_bold)}) Tj "
            if line.lead_bold
            else ""
        )
        text = f"/{font} {line.size:g} Tf ({_escape(line.text)}) Tj"
        parts.append(f"BT {spacing}{line.x:g} {line.y:g} Td {lead}{text} ET")
    return "\n".join(parts).encode("cp1252")  # WinAnsiEncoding: Windows-1252


def build_pdf(path: Path, pages: Sequence[Sequence[TextLine]]) -> Path:
    """Write a PDF at ``path`` with one page per entry of ``pages``."""
    objects: list[bytes] = []
    page_ids = [7 + 2 * index for index in range(len(pages))]
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{pid} 0 R" for pid in page_ids)
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    for face in ("Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique"):
        objects.append(
            f"<< /Type /Font /Subtype /Type1 /BaseFont /{face} /Encoding /WinAnsiEncoding >>".encode()
        )
    for index, lines in enumerate(pages):
        content_id = page_ids[index] + 1
        objects.append(
            (
                f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_WIDTH} {PAGE_HEIGHT}] "
                "/Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 5 0 R /F4 6 0 R >> >> "
                f"/Contents {content_id} 0 R >>"
            ).encode()
        )
        stream = _content(lines)
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))
    return path


def flowed(
    lines: Sequence[tuple[str, dict]], *, top: float = 700, left: float = 72, leading: float = 14
) -> list[TextLine]:
    """Lines set one under another from ``top``; each entry's options may set ``gap`` (extra space
    before the line), ``indent``, ``size``, ``bold``, ``italic`` and ``lead_bold``."""
    out = []
    y = top
    for text, options in lines:
        y -= options.get("gap", 0)
        out.append(
            TextLine(
                left + options.get("indent", 0),
                y,
                text,
                size=options.get("size", 11.0),
                bold=options.get("bold", False),
                italic=options.get("italic", False),
                lead_bold=options.get("lead_bold", ""),
            )
        )
        y -= leading
    return out
