"""The Word and PDF readers' lines of ``make bench``: a 2,000-clause document read as DOCX and as PDF.

The document is the bench's own 2k workload (``workloads.revised_pair``, fixed seed): 222 sections
headed ``Heading 2`` with a typed number, each of nine clauses numbered by Word itself (the
``List Number`` style), 10 pt text, about a hundred pages. python-docx writes the DOCX; LibreOffice headless
(``soffice``) prints it to PDF, so the PDF line is skipped, with its reason, where LibreOffice is not
installed. Only the read is timed, as a ratio to the calibration loop (``bench.timed``).
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from alignbench.workloads import revised_pair

GOAL_DOCX_CALIB = 1.0
GOAL_PDF_CALIB = 3.0
SECTIONS = 222  # x 9 clauses = 1,998
SOFFICE_TIMEOUT_S = 600


def docx_bytes(n_sections: int = SECTIONS) -> bytes:
    """The 2k workload as a Word document, its clauses numbered automatically."""
    import docx
    from docx.shared import Inches, Pt

    document = docx.Document()
    # A contract's page: 10 pt text, 0.75 in margins; the 2k clauses then print on about 100 pages.
    document.styles["Normal"].font.size = Pt(10)
    document.styles["Normal"].paragraph_format.space_after = Pt(2)
    for section in document.sections:
        section.left_margin = section.right_margin = Inches(0.75)
        section.top_margin = section.bottom_margin = Inches(0.75)
    base, _ = revised_pair(n_sections)
    for k, (title, clauses) in enumerate(base, 1):
        document.add_heading(f"{k}. {title}", level=2)
        for text in clauses:
            document.add_paragraph(text, style="List Number")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def pdf_bytes(docx_data: bytes) -> bytes | str:
    """The same document printed to PDF by LibreOffice, or the reason it could not be."""
    if shutil.which("soffice") is None:
        return "soffice (LibreOffice) is not installed"
    with tempfile.TemporaryDirectory(prefix="alignbench-bench-") as work:
        source = Path(work) / "bench.docx"
        source.write_bytes(docx_data)
        profile = Path(work) / "lo-profile"
        subprocess.run(
            [
                "soffice",
                f"-env:UserInstallation=file://{profile}",
                "--headless",
                "--convert-to",
                "pdf",
                "--outdir",
                work,
                str(source),
            ],
            check=True,
            capture_output=True,
            timeout=SOFFICE_TIMEOUT_S,
        )
        return (Path(work) / "bench.pdf").read_bytes()


def formats_report(timed: Callable, figure: Callable, verdict: Callable, repeats: int) -> None:  # type: ignore[type-arg]
    """Print the DOCX and PDF read lines; ``timed``/``figure``/``verdict`` are the bench's own."""
    try:
        import docx  # noqa: F401
    except ImportError:
        print("read docx  2k clauses: skipped (python-docx, which writes the document, is not installed)")
        return
    from alignbench.readers.binary import read_binary

    data = docx_bytes()
    t_docx = timed(lambda: read_binary(data, "docx", source="bench.docx"), repeats)
    print(
        f"read docx  2k clauses ({_clauses(t_docx.last)} clauses read): {figure(t_docx)} "
        f"(goal <= {GOAL_DOCX_CALIB} calib: {verdict(t_docx.calib <= GOAL_DOCX_CALIB)})"
    )
    try:
        import pypdfium2  # noqa: F401
    except ImportError:
        print("read pdf   2k clauses: skipped (the pdf extra is not installed)")
        return
    pdf = pdf_bytes(data)
    if isinstance(pdf, str):
        print(f"read pdf   2k clauses: skipped ({pdf})")
        return
    import pypdfium2 as pdfium

    page_count = len(pdfium.PdfDocument(pdf))
    t_pdf = timed(lambda: read_binary(pdf, "pdf", source="bench.pdf"), repeats)
    print(
        f"read pdf   2k clauses, {page_count} pages ({_clauses(t_pdf.last)} clauses read): {figure(t_pdf)} "
        f"(goal <= {GOAL_PDF_CALIB} calib: {verdict(t_pdf.calib <= GOAL_PDF_CALIB)})"
    )


def _clauses(tree: object) -> int:
    """How many clauses (list items) a tree holds: a read that lost its numbering shows here."""
    return sum(1 for block in tree.blocks() if block.kind == "list_item")  # type: ignore[attr-defined]
