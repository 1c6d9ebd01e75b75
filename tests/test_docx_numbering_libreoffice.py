"""The numbering fixtures' labels against LibreOffice's rendering (its text export), a second renderer.

Slow (one LibreOffice start, about 10 s) and needs ``soffice`` (Debian: libreoffice-writer-nogui):
CI installs it; elsewhere the test skips with that reason unless ALIGNBENCH_REQUIRE_OFFICE is set.
A fixture where LibreOffice departs from Word's rules says so (``libreoffice_differs``) and is
checked against the rules alone (test_docx_reader).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("lxml", reason="the docx extra (lxml) is not installed")

from docx_numbering_fixtures import FIXTURES

pytestmark = pytest.mark.slow


def _soffice() -> str:
    found = shutil.which("soffice")
    if found is None:
        if os.environ.get("ALIGNBENCH_REQUIRE_OFFICE"):
            pytest.fail("soffice is not installed (apt-get install libreoffice-writer-nogui)")
        pytest.skip("soffice (LibreOffice) is not installed: apt-get install libreoffice-writer-nogui")
    return found


def test_labels_match_libreoffice_text_export(tmp_path: Path) -> None:
    soffice = _soffice()
    checked = [f for f in FIXTURES if not f.libreoffice_differs]
    assert len(checked) >= 9
    paths = [f.build(tmp_path / f"{f.name}.docx") for f in checked]
    out = tmp_path / "txt"
    subprocess.run(
        [
            soffice,
            f"-env:UserInstallation=file://{tmp_path / 'lo-profile'}",
            "--headless",
            "--convert-to",
            "txt:Text (encoded):UTF8",
            "--outdir",
            str(out),
            *map(str, paths),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    mismatches = []
    for fixture in checked:
        text = (out / f"{fixture.name}.txt").read_text(encoding="utf-8-sig")
        # LibreOffice indents a numbered paragraph's line and starts it with the number as shown.
        numbered = [line.strip() for line in text.splitlines() if line[:1].isspace() and line.strip()]
        if len(numbered) != len(fixture.labels):
            mismatches.append((fixture.name, numbered, fixture.labels))
            continue
        for line, label in zip(numbered, fixture.labels, strict=True):
            if not (line == label or line.startswith((f"{label} ", f"{label}\t"))):
                mismatches.append((fixture.name, line, label))
    assert mismatches == []
