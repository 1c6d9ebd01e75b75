"""Word and PDF documents: their bytes to the unit stream, then the one tree builder.

Each format's reader lives in its own subpackage (``readers.word``, ``readers.pdf``) and is imported
only when a document of its format is read, so the core install and ``alignbench --help`` never load
python-docx or PDFium.
"""

from __future__ import annotations

from collections import Counter

from alignbench.blocks import BlockTree
from alignbench.errors import AlignbenchError
from alignbench.gc_pause import paused_collector
from alignbench.readers.nesting import build_tree
from alignbench.readers.profiles import DEFAULT_PROFILE_FOR_FORMAT, get_profile

BINARY_FORMATS: tuple[str, ...] = ("docx", "pdf")
ACCEPTED = "accepted"
REVISION_VIEWS: tuple[str, ...] = (ACCEPTED, "original")
# A Word or PDF file carries pictures and fonts: the text-file limit would refuse ordinary contracts.
MAX_BINARY_BYTES = 50 * 1024 * 1024


def read_binary(
    data: bytes, format: str, profile: str | None = None, *, source: str, revisions: str = ACCEPTED
) -> BlockTree:
    """Read a Word or PDF document's bytes into a block tree; ``source`` names it in errors."""
    if revisions not in REVISION_VIEWS:
        raise AlignbenchError(f"{source}: unknown revisions view {revisions!r}; use accepted or original")
    if not data:
        raise AlignbenchError(f"{source}: file is empty; give a {format} document with some text in it")
    profile_name = profile or DEFAULT_PROFILE_FOR_FORMAT[format]
    compiled = get_profile(profile_name)
    dropped: Counter[str] = Counter()
    if format == "docx":
        from alignbench.readers import word

        units = word.read_units(data, compiled, dropped, source, revisions)
    else:
        from alignbench.readers import pdf

        units = pdf.read_units(data, compiled, dropped, source)
    if not units:
        raise AlignbenchError(
            f"{source}: document has no text; give a {format} document with some text in it"
        )
    with paused_collector():
        root = build_tree(units, compiled, source)
    return BlockTree(
        root, dropped=dict(sorted(dropped.items())), format=format, profile=profile_name, addressed=True
    )
