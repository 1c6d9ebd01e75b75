"""Build small .docx files from raw WordprocessingML, so a test controls every numbering property.

python-docx writes no numbering definitions of its own, so the fixtures write the parts themselves:
a package is the six parts Word needs (content types, relationships, document, styles, numbering)
plus any of comments, footnotes, header and footer. Every string is escaped here; a fixture says
only what it means.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml"


def run(text: str, *, hidden: bool = False) -> str:
    rpr = "<w:rPr><w:vanish/></w:rPr>" if hidden else ""
    return f'<w:r>{rpr}<w:t xml:space="preserve">{escape(text)}</w:t></w:r>'


def para(
    text: str = "",
    *,
    num: int | None = None,
    ilvl: int | None = None,
    style: str | None = None,
    ind: int | None = None,
    runs: str | None = None,
    mark: str = "",
) -> str:
    """A paragraph: ``num``/``ilvl`` its numbering, ``style`` its style id, ``mark`` raw XML for the
    paragraph mark's run properties (a tracked insertion or deletion of the mark)."""
    ppr = []
    if style is not None:
        ppr.append(f"<w:pStyle w:val={quoteattr(style)}/>")
    if num is not None or ilvl is not None:
        inner = "" if ilvl is None else f'<w:ilvl w:val="{ilvl}"/>'
        inner += "" if num is None else f'<w:numId w:val="{num}"/>'
        ppr.append(f"<w:numPr>{inner}</w:numPr>")
    if ind is not None:
        ppr.append(f'<w:ind w:left="{ind}" w:hanging="360"/>')
    if mark:
        ppr.append(f"<w:rPr>{mark}</w:rPr>")
    body = runs if runs is not None else (run(text) if text else "")
    return f"<w:p><w:pPr>{''.join(ppr)}</w:pPr>{body}</w:p>"


def inserted(inner: str, rev: int = 1) -> str:
    return f'<w:ins w:id="{rev}" w:author="t" w:date="2024-01-01T00:00:00Z">{inner}</w:ins>'


def deleted(text: str, rev: int = 2) -> str:
    return (
        f'<w:del w:id="{rev}" w:author="t" w:date="2024-01-01T00:00:00Z">'
        f'<w:r><w:delText xml:space="preserve">{escape(text)}</w:delText></w:r></w:del>'
    )


def table(rows: Sequence[Sequence[str]], *, header: bool = False) -> str:
    out = ["<w:tbl><w:tblPr/>"]
    for index, cells in enumerate(rows):
        trpr = "<w:trPr><w:tblHeader/></w:trPr>" if header and index == 0 else ""
        out.append(f"<w:tr>{trpr}")
        out.extend(f"<w:tc><w:tcPr/>{para(cell)}</w:tc>" for cell in cells)
        out.append("</w:tr>")
    out.append("</w:tbl>")
    return "".join(out)


def level(
    ilvl: int,
    fmt: str,
    text: str,
    *,
    start: int | None = 1,
    restart: int | None = None,
    legal: bool = False,
    pstyle: str | None = None,
    indent: int | None = None,
) -> str:
    parts = [f'<w:lvl w:ilvl="{ilvl}">']
    if start is not None:
        parts.append(f'<w:start w:val="{start}"/>')
    parts.append(f'<w:numFmt w:val="{fmt}"/>')
    if restart is not None:
        parts.append(f'<w:lvlRestart w:val="{restart}"/>')
    if pstyle is not None:
        parts.append(f"<w:pStyle w:val={quoteattr(pstyle)}/>")
    if legal:
        parts.append("<w:isLgl/>")
    parts.append(f"<w:lvlText w:val={quoteattr(text)}/>")
    left = indent if indent is not None else 720 * (ilvl + 1)
    parts.append(f'<w:pPr><w:ind w:left="{left}" w:hanging="360"/></w:pPr></w:lvl>')
    return "".join(parts)


def abstract(abstract_id: int, levels: Iterable[str]) -> str:
    return f'<w:abstractNum w:abstractNumId="{abstract_id}">{"".join(levels)}</w:abstractNum>'


def num(num_id: int, abstract_id: int, *, starts: Mapping[int, int] | None = None, levels: str = "") -> str:
    overrides = "".join(
        f'<w:lvlOverride w:ilvl="{ilvl}"><w:startOverride w:val="{start}"/></w:lvlOverride>'
        for ilvl, start in sorted((starts or {}).items())
    )
    return f'<w:num w:numId="{num_id}"><w:abstractNumId w:val="{abstract_id}"/>{overrides}{levels}</w:num>'


def style(
    style_id: str,
    name: str,
    *,
    num_id: int | None = None,
    ilvl: int | None = None,
    outline: int | None = None,
    based_on: str | None = None,
) -> str:
    ppr = []
    if num_id is not None:
        inner = ("" if ilvl is None else f'<w:ilvl w:val="{ilvl}"/>') + f'<w:numId w:val="{num_id}"/>'
        ppr.append(f"<w:numPr>{inner}</w:numPr>")
    if outline is not None:
        ppr.append(f'<w:outlineLvl w:val="{outline}"/>')
    based = f"<w:basedOn w:val={quoteattr(based_on)}/>" if based_on else ""
    return (
        f'<w:style w:type="paragraph" w:styleId={quoteattr(style_id)}><w:name w:val={quoteattr(name)}/>'
        f"{based}<w:pPr>{''.join(ppr)}</w:pPr></w:style>"
    )


_NORMAL = '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
HEADINGS = "".join(
    style(f"Heading{n}", f"heading {n}", outline=n - 1, based_on="Normal") for n in range(1, 4)
)


def build_docx(
    path: Path,
    body: str,
    *,
    numbering: str = "",
    styles: str = HEADINGS,
    comments: str = "",
    footnotes: str = "",
    header: str = "",
    footer: str = "",
) -> Path:
    """Write a .docx at ``path`` whose body is ``body`` (paragraph and table XML)."""
    side = {
        "comments": (comments, "comments", "comments+xml", "w:comments"),
        "footnotes": (footnotes, "footnotes", "footnotes+xml", "w:footnotes"),
        "header1": (header, "header", "header+xml", "w:hdr"),
        "footer1": (footer, "footer", "footer+xml", "w:ftr"),
    }
    overrides = [
        ("/word/document.xml", f"{_MAIN}.document.main+xml"),
        ("/word/styles.xml", f"{_MAIN}.styles+xml"),
        ("/word/numbering.xml", f"{_MAIN}.numbering+xml"),
    ]
    rels = [("rId1", "styles", "styles.xml"), ("rId2", "numbering", "numbering.xml")]
    parts = {
        "word/document.xml": (
            f'<w:document xmlns:w="{W_NS}" xmlns:r="{R_NS}"><w:body>{body}<w:sectPr/></w:body></w:document>'
        ),
        "word/styles.xml": f'<w:styles xmlns:w="{W_NS}">{_NORMAL}{styles}</w:styles>',
        "word/numbering.xml": f'<w:numbering xmlns:w="{W_NS}">{numbering}</w:numbering>',
    }
    for index, (name, (content, rel_type, content_type, root)) in enumerate(side.items(), start=3):
        if not content:
            continue
        parts[f"word/{name}.xml"] = f'<{root} xmlns:w="{W_NS}">{content}</{root}>'
        overrides.append((f"/word/{name}.xml", f"{_MAIN}.{content_type}"))
        rels.append((f"rId{index}", rel_type, f"{name}.xml"))
    types = "".join(f'<Override PartName="{name}" ContentType="{kind}"/>' for name, kind in overrides)
    parts["[Content_Types].xml"] = (
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        f'<Default Extension="xml" ContentType="application/xml"/>{types}</Types>'
    )
    parts["_rels/.rels"] = (
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f'<Relationship Id="rId1" Type="{REL}/officeDocument" Target="word/document.xml"/></Relationships>'
    )
    parts["word/_rels/document.xml.rels"] = (
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        + "".join(f'<Relationship Id="{i}" Type="{REL}/{t}" Target="{target}"/>' for i, t, target in rels)
        + "</Relationships>"
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
        for name in sorted(parts):
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            package.writestr(info, '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' + parts[name])
    return path
