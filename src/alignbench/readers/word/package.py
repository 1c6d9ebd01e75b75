"""Open a ``.docx`` package: the body and the parts related to it, as plain lxml trees.

The package is a ZIP of XML parts tied together by relationship parts (``_rels/.rels`` names the main
document; ``word/_rels/document.xml.rels`` its styles, numbering, comments, notes, headers and
footers). Resolving them is a few lines; python-docx resolves them too, but parses every part into
its own element classes, whose every child lookup cost 8 us against lxml's 0.3 us: a third of the
time of reading a 2,000-clause document (docs/CONTRACTS.md, "Word documents").
"""

from __future__ import annotations

import posixpath
import zipfile
from dataclasses import dataclass, field
from io import BytesIO
from typing import Any

from alignbench.errors import AlignbenchError

_PACKAGE_RELS = "_rels/.rels"
_RELS_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
# A part bigger than this once inflated is a ZIP bomb or the wrong file, not a contract.
MAX_PART_BYTES = 200 * 1024 * 1024
RELATED_KINDS = ("styles", "numbering", "comments", "footnotes", "endnotes", "header", "footer")


@dataclass
class Package:
    """The main document's XML root, and the roots of its related parts by kind, in target order."""

    document: Any
    related: dict[str, list[Any]] = field(default_factory=dict)


def _parser() -> Any:
    from lxml import etree

    # No entity expansion, no network, no huge-tree mode: a hostile file gets no XXE or billion laughs.
    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True)


def _xml(archive: zipfile.ZipFile, name: str, source: str) -> Any:
    from lxml import etree

    try:
        info = archive.getinfo(name)
    except KeyError:
        raise AlignbenchError(f"{source}: not a readable Word .docx file (part {name} is missing)") from None
    if info.file_size > MAX_PART_BYTES:
        raise AlignbenchError(
            f"{source}: part {name} inflates to {info.file_size // 1048576} MB; "
            "check that this is the right file"
        )
    try:
        return etree.fromstring(archive.read(name), _parser())
    except (etree.XMLSyntaxError, zipfile.BadZipFile, OSError, ValueError) as exc:
        reason = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
        raise AlignbenchError(f"{source}: not a readable Word .docx file ({name}: {reason})") from None


def _relationships(archive: zipfile.ZipFile, rels_name: str, base: str, source: str) -> list[tuple[str, str]]:
    """``(kind, part name)`` of each internal relationship in ``rels_name``, in document order."""
    if rels_name not in archive.namelist():
        return []
    out = []
    for rel in _xml(archive, rels_name, source).iter(_RELS_NS + "Relationship"):
        if rel.get("TargetMode") == "External":
            continue
        kind = (rel.get("Type") or "").rstrip("/").rpartition("/")[2]
        target = rel.get("Target") or ""
        name = (
            target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(base, target))
        )
        out.append((kind, name))
    return out


def open_package(data: bytes, source: str) -> Package:
    """The document and its related parts; a one-line error for anything that is not a .docx."""
    try:
        import lxml  # noqa: F401
    except ImportError:
        raise AlignbenchError(
            f"{source}: reading Word files needs the docx extra; "
            "install it with pip install 'alignbench[docx]'"
        ) from None
    try:
        archive = zipfile.ZipFile(BytesIO(data))
    except (zipfile.BadZipFile, ValueError):
        raise AlignbenchError(
            f"{source}: not a Word .docx file (not a ZIP package); save it as .docx"
        ) from None
    with archive:
        main = [
            name
            for kind, name in _relationships(archive, _PACKAGE_RELS, "", source)
            if kind == "officeDocument"
        ]
        if not main:
            raise AlignbenchError(
                f"{source}: not a Word .docx file (the package names no main document); save it as .docx"
            )
        document_name = main[0]
        folder, _, leaf = document_name.rpartition("/")
        rels_name = posixpath.join(folder, "_rels", f"{leaf}.rels")
        package = Package(_xml(archive, document_name, source))
        for kind, name in _relationships(archive, rels_name, folder, source):
            if kind in RELATED_KINDS and name in archive.namelist():
                package.related.setdefault(kind, []).append(_xml(archive, name, source))
        return package
