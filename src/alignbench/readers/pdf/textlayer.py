"""A PDF's text layer as lines with their geometry, through PDFium (pypdfium2).

PDFium already orders a page's characters and marks its line ends (generated ``\\r\\n``); this module
asks it, per line, only where the line starts and ends, its baseline and its font, which is what
``layout`` needs to find paragraphs, headings and running headers. docs/CONTRACTS.md says why
pypdfium2 and not pypdf or pdfplumber.
"""

from __future__ import annotations

import ctypes
from typing import Any, NamedTuple

from alignbench.errors import AlignbenchError

_FONT_NAME_BYTES = 128
_BOLD_WEIGHT = 600


class PdfLine(NamedTuple):
    """One line of a page's text layer; coordinates in points, y growing upwards (PDF space). A named
    tuple, not a frozen dataclass: a long document has thousands of lines, and a frozen dataclass
    sets each field through ``object.__setattr__``."""

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
    signature: tuple[float, bool, str] = (0.0, False, "")  # the font as the layout compares fonts
    # The last character's baseline: lower than the first's where PDFium ran a line broken after a
    # hyphen on into the next (it marks the hyphen U+FFFE), so the gap to the next line is measured there.
    end_baseline: float = 0.0


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


def _utf16_length(text: str) -> int:
    """PDFium indexes characters in UTF-16 code units: a character beyond the BMP counts twice."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le")) // 2


def read_lines(data: bytes, source: str) -> list[PdfLine]:
    """Every non-blank line of every page, in PDFium's reading order.

    A long document's pages are read in two processes where that is safe (``parallel``): PDFium's
    own page loading is most of the time, and it is not thread-safe."""
    from alignbench.readers.pdf.parallel import may_fork, read_forked

    document = _open(data, source)
    try:
        pages = len(document)
        if may_fork(pages):
            return read_forked(document, pages, read_pages)
        return read_pages(document, range(pages))
    finally:
        document.close()


def read_pages(document: Any, numbers: range) -> list[PdfLine]:
    """The lines of the pages ``numbers`` of an open document.

    PDFium is asked through its raw C API (pypdfium2.raw): the helper objects' per-call wrapping cost
    more than the calls themselves, a few per line on every page of a long document."""
    import pypdfium2.raw as raw

    lines: list[PdfLine] = []
    name = ctypes.create_string_buffer(_FONT_NAME_BYTES)
    flags = ctypes.c_int()
    x, y = ctypes.c_double(), ctypes.c_double()
    box = [ctypes.c_double() for _ in range(4)]
    box_refs = [ctypes.byref(value) for value in box]
    x_ref, y_ref, flags_ref = ctypes.byref(x), ctypes.byref(y), ctypes.byref(flags)
    font_info = raw.FPDFText_GetFontInfo
    font_size = raw.FPDFText_GetFontSize

    def font_of(handle: Any, index: int) -> str:
        font_info(handle, index, name, _FONT_NAME_BYTES, flags_ref)
        return name.value.decode("utf-8", "replace")

    for number in numbers:
        page = document[number]
        width, height = page.get_size()
        textpage = page.get_textpage()
        count = textpage.count_chars()
        text = textpage.get_text_range(0, count) if count > 0 else ""
        handle = textpage.raw
        position = 0  # in UTF-16 code units: PDFium's character index
        for raw_line in text.split("\r\n"):
            stripped = raw_line.strip()
            if stripped:
                lead = len(raw_line) - len(raw_line.lstrip())
                first = position + _utf16_length(raw_line[:lead])
                last = position + _utf16_length(raw_line[: len(raw_line.rstrip())]) - 1
                raw.FPDFText_GetCharOrigin(handle, first, x_ref, y_ref)
                left, baseline = x.value, y.value
                end_baseline = baseline
                if "\ufffe" in stripped:
                    raw.FPDFText_GetCharOrigin(handle, last, x_ref, y_ref)
                    end_baseline = y.value
                raw.FPDFText_GetCharBox(handle, last, *box_refs)
                size = font_size(handle, first)
                font = font_of(handle, first)
                bold = _bold(raw, handle, first, font)
                uniform = abs(font_size(handle, last) - size) < 0.5 and (
                    _bold(raw, handle, last, font_of(handle, last)) == bold
                )
                # Size, weight and face (a subset prefix ``ABCDEF+`` dropped), computed once per line.
                signature = (round(size, 1), bold, font.rpartition("+")[2])
                lines.append(
                    PdfLine(
                        number,
                        stripped,
                        left,
                        box[1].value,
                        baseline,
                        size,
                        font,
                        bold,
                        height,
                        width,
                        uniform,
                        signature,
                        end_baseline,
                    )
                )
            position += _utf16_length(raw_line) + 2  # the line break PDFium generated (\r\n)
        textpage.close()
        page.close()
    return lines
