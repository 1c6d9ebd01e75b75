"""The PDF (``.pdf``) reader: the text layer (``textlayer``), the layout (``layout``), then the text rules.

The layout finds what only the page shows: running headers and footers, paragraph breaks, headings
set in a bigger or bold font, words hyphenated at a line end. Every body block is then handed, as
indented plain-text lines, to the plain-text reader (``readers.plaintext``), so labels, bullets and
clause grouping follow exactly the rules a ``.txt`` file gets, whatever those rules become.

No OCR: a PDF whose pages carry no text layer (a scan) is refused with a message that says so.
"""

from __future__ import annotations

from collections import Counter

from alignbench.errors import AlignbenchError
from alignbench.readers import plaintext
from alignbench.readers.label_grammar import match_label
from alignbench.readers.pdf.layout import blocks, drop_running_lines
from alignbench.readers.pdf.textlayer import read_lines
from alignbench.readers.profiles import Profile
from alignbench.readers.units import Unit

__all__ = ["read_units"]


def read_units(data: bytes, profile: Profile, dropped: Counter[str], source: str = "<pdf>") -> list[Unit]:
    """The unit stream of a PDF's bytes; running headers, footers and page numbers are counted."""
    lines = read_lines(data, source)
    if not lines:
        raise AlignbenchError(
            f"{source}: the PDF has no text layer (a scanned document?); alignbench does no OCR, "
            "so run it through OCR first or give the original Word or text file"
        )
    units: list[Unit] = []
    line_number = 1
    for block in blocks(drop_running_lines(lines, dropped)):
        if block.rank is not None:
            title = block.lines[0][1]
            label = match_label(title, profile, heading=True)
            if label is not None and label.kind in profile.headings.labelled_kinds:
                units.append(Unit("heading", text=label.rest, label=label, rank=block.rank, line=line_number))
            else:
                units.append(Unit("heading", text=title, rank=block.rank, line=line_number))
            line_number += 2
            continue
        text = "\n".join(" " * indent + line for indent, line in block.lines)
        for unit in plaintext.read_units(text, profile, dropped, source):
            units.append(unit._replace(line=unit.line + line_number - 1) if isinstance(unit, Unit) else unit)
        line_number += len(block.lines) + 1
    return units
