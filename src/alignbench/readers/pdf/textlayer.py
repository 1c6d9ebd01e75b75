"""A PDF's text layer as lines with their geometry, through PDFium (pypdfium2).

PDFium already orders a page's characters and marks its line ends (generated ``\\r\\n``); this module
asks it, per line, only where the line starts and ends, its baseline and its font, which is what
``layout`` needs to find paragraphs, headings and running headers. docs/CONTRACTS.md says why
pypdfium2 and not pypdf or pdfplumber.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any

from alignbench.errors import AlignbenchError

_FONT_NAME_BYTES = 128
_BOLD_WEIGHT = 600


@dataclass(frozen=True, slots=True)
class PdfLine:
    """One line of a page's text layer; coordinates in points, y growing upwards (PDF space)."""

    page: int  # 0-based
    text: str  # stripped
    x0: float
    x1: float
    baseline: float
    size: float
    font: str
    bold: bool
    page_height: float
    page_width: float
    uniform: bool = True  # the line ends in the font it starts in (a run-in bold heading does not)


def _open(data: bytes, source: str) -> Any:
    try:
        import pypdfium2 as pdfium
    except ImportError:
        raise AlignbenchError(
            f"{source}: reading PDF files needs the pdf extra; install it with pip install 'alignbench[pdf]'"
        ) from None
    if not data.lstrip()[:5].startswith(b"%PDF"):
        raise AlignbenchError(f"{source}: not a PDF file (no %PDF header); give a PDF with a text layer")
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        reason = str(exc).splitlines()[0] if str(exc) else "PDFium could not open it"
        if "password" in reason.lower():
            reason = "it is encrypted with a password"
        raise AlignbenchError(f"{source}: not a readable PDF ({reason})") from None


def _bold(raw: Any, handle: Any, index: int, font: str) -> bool:
    return raw.FPDFText_GetFontWeight(handle, index) >= _BOLD_WEIGHT or "bold" in font.lower()


def read_lines(data: bytes, source: str) -> list[PdfLine]:
    """Every non-blank line of every page, in PDFium's reading order."""
    import pypdfium2.raw as raw

    document = _open(data, source)
    lines: list[PdfLine] = []
    name = ctypes.create_string_buffer(_FONT_NAME_BYTES)
    flags = ctypes.c_int()
    x = ctypes.c_double()
    y = ctypes.c_double()
    try:
        for number in range(len(document)):
            page = document[number]
            width, height = page.get_size()
            textpage = page.get_textpage()
            count = textpage.count_chars()
            text = textpage.get_text_range(0, count) if count > 0 else ""
            handle = textpage.raw
            position = 0  # in UTF-16 code units: PDFium's character index
            for raw_line in text.split("\r\n"):
                units = len(raw_line.encode("utf-16-le")) // 2
                stripped = raw_line.strip()
                if stripped:
                    lead = len(raw_line) - len(raw_line.lstrip())
                    first = position + len(raw_line[:lead].encode("utf-16-le")) // 2
                    tail = len(raw_line.rstrip())
                    last = position + len(raw_line[:tail].encode("utf-16-le")) // 2 - 1
                    raw.FPDFText_GetCharOrigin(handle, first, ctypes.byref(x), ctypes.byref(y))
                    left, baseline = x.value, y.value
                    right = textpage.get_charbox(last)[2]
                    size = raw.FPDFText_GetFontSize(handle, first)
                    raw.FPDFText_GetFontInfo(handle, first, name, _FONT_NAME_BYTES, ctypes.byref(flags))
                    font = name.value.decode("utf-8", "replace")
                    bold = _bold(raw, handle, first, font)
                    raw.FPDFText_GetFontInfo(handle, last, name, _FONT_NAME_BYTES, ctypes.byref(flags))
                    end_font = name.value.decode("utf-8", "replace")
                    uniform = (
                        abs(raw.FPDFText_GetFontSize(handle, last) - size) < 0.5
                        and _bold(raw, handle, last, end_font) == bold
                    )
                    lines.append(
                        PdfLine(
                            number, stripped, left, right, baseline, size, font, bold, height, width, uniform
                        )
                    )
                position += units + 2  # the line break PDFium generated (\r\n)
            textpage.close()
            page.close()
    finally:
        document.close()
    return lines
