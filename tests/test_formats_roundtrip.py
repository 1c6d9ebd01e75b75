"""The same document through three formats: the real tier's Markdown rendered to DOCX (pandoc) and
to PDF (LibreOffice), read back, compared with the Markdown reader's tree (readers.roundtrip).

Slow (about two and a half minutes on two cores) and needs pandoc and soffice (Debian: pandoc,
libreoffice-writer-nogui): CI installs them; elsewhere it skips with that reason unless
ALIGNBENCH_REQUIRE_OFFICE is set. The figures and every difference class are in docs/FORMATS.md.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("lxml", reason="the docx extra (lxml) is not installed")
pytest.importorskip("pypdfium2", reason="the pdf extra (pypdfium2) is not installed")

from alignbench.readers.roundtrip import pdf_exceptions_only, real_markdown, run, tools_missing

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
# Issue 30's targets are 95% via DOCX and 90% via PDF. Both are met: via PDF, 111 of 122 documents
# (91.0%) are identical, and 119 (97.5%) identical or differing only in the stated exceptions a PDF
# cannot avoid (roundtrip.PDF_EXCEPTIONS, docs/FORMATS.md). The second floor is today's figure less a
# margin of a few documents (another LibreOffice or font set breaks lines elsewhere), to catch a
# regression.
DOCX_TARGET = 0.95
PDF_TARGET = 0.90
PDF_FLOOR_WITH_EXCEPTIONS = 0.95


def test_docx_and_pdf_give_the_markdown_readers_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tools_missing()
    if missing:
        if os.environ.get("ALIGNBENCH_REQUIRE_OFFICE"):
            pytest.fail(
                f"{', '.join(missing)} not installed (apt-get install pandoc libreoffice-writer-nogui)"
            )
        pytest.skip(f"{', '.join(missing)} not installed: apt-get install pandoc libreoffice-writer-nogui")
    monkeypatch.chdir(ROOT)
    documents = real_markdown()
    assert len(documents) >= 100
    outcomes = run(documents, tmp_path)
    same_docx = sum(1 for o in outcomes if not o.docx) / len(outcomes)
    same_pdf = sum(1 for o in outcomes if not o.pdf) / len(outcomes)
    excepted = sum(1 for o in outcomes if o.pdf and pdf_exceptions_only(o)) / len(outcomes)
    unreadable = [o.name for o in outcomes if any(k.startswith("unreadable") for k in (*o.docx, *o.pdf))]
    assert unreadable == []
    assert same_docx >= DOCX_TARGET, same_docx
    assert same_pdf >= PDF_TARGET, same_pdf
    assert same_pdf + excepted >= PDF_FLOOR_WITH_EXCEPTIONS, (same_pdf, excepted)
