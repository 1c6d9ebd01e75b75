"""The same document through three formats: does Word or PDF give the Markdown reader's tree?

``python -m alignbench.readers.roundtrip [--out DIR] [--limit N] [MARKDOWN ...]`` renders each
Markdown document (default: every ``source.md`` and ``test.md`` of ``corpus/real``) to DOCX with
pandoc (CommonMark with pipe tables, the Markdown reader's dialect) and the DOCX to PDF with
LibreOffice headless, reads all three, and compares them:

- **via DOCX** the whole tree must be identical: every block's address, kind, label and text;
- **via PDF** the sequence of headings and text blocks (kind, label, text) must be identical; a PDF
  has no table markup and no heading levels beyond font sizes, so its tree's shape is not compared.

Every difference is put in a class and the totals printed as a Markdown table, the figures
docs/FORMATS.md quotes. Some classes are differences a PDF cannot avoid (``PDF_EXCEPTIONS``): a
document whose only PDF differences are of those classes is counted apart, as identical apart from
stated exceptions; docs/FORMATS.md says why each is one. Needs ``pandoc`` and ``soffice`` on the
PATH (Debian: pandoc, libreoffice-writer-nogui) and the docx and pdf extras.
"""

from __future__ import annotations

import argparse
import difflib
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from alignbench.blocks import BlockTree, normalise
from alignbench.errors import AlignbenchError
from alignbench.readers.front_matter import split_front_matter

REAL = Path("corpus/real")
SOFFICE_TIMEOUT_S = 900
# The Markdown reader's dialect. ``hard_line_breaks`` keeps each source line a line (a Word line break):
# the Markdown reader reads a label that starts a source line as a clause, so the line is information.
PANDOC_FROM = "commonmark+pipe_tables+hard_line_breaks"
TEXT_KINDS = frozenset({"heading", "paragraph", "list_item", "cell"})
# What the PDF route cannot carry, whatever its reader does (tested in tests/test_pdf_reader.py and
# tests/test_formats_roundtrip.py): a hyphen at a line end where the document writes the word both
# ways; an invisible formatting character (U+200E); and what pandoc renders differently from the
# Markdown reader's parser, which the DOCX shows as well (the PDF is printed from that DOCX).
HYPHEN = "hyphen differs"
INVISIBLE = "invisible character differs"
RENDERER = "the renderer reads the Markdown differently (the DOCX route shows it too)"
PDF_EXCEPTIONS = frozenset({HYPHEN, INVISIBLE, RENDERER})

Item = tuple[str, str | None, str]


@dataclass
class Outcome:
    """One document's comparison: the difference classes found (empty when identical)."""

    name: str
    docx: Counter[str] = field(default_factory=Counter)
    pdf: Counter[str] = field(default_factory=Counter)


def tools_missing() -> list[str]:
    return [tool for tool in ("pandoc", "soffice") if shutil.which(tool) is None]


def render(markdown: Sequence[Path], work: Path) -> list[tuple[Path, Path, Path]]:
    """``(markdown, docx, pdf)`` for each document: pandoc per file, one LibreOffice run for all."""
    work.mkdir(parents=True, exist_ok=True)
    out = []
    for index, path in enumerate(markdown):
        docx = work / f"{index:04d}.docx"
        # Front matter is not document text (the Markdown reader drops and counts it); pandoc's
        # CommonMark would print it as a heading, so it is left out of what pandoc renders.
        _, body = split_front_matter(path.read_text(encoding="utf-8"))
        subprocess.run(
            ["pandoc", "-f", PANDOC_FROM, "-t", "docx", "-o", str(docx)],
            input=body.encode("utf-8"),
            check=True,
            capture_output=True,
        )
        out.append((path, docx, work / f"{index:04d}.pdf"))
    profile = work / "lo-profile"
    subprocess.run(
        [
            "soffice",
            f"-env:UserInstallation=file://{profile.resolve()}",
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(work),
            *[str(docx) for _, docx, _ in out],
        ],
        check=True,
        capture_output=True,
        timeout=SOFFICE_TIMEOUT_S,
    )
    return out


def tree_items(tree: BlockTree) -> list[tuple[str, str, str | None, str]]:
    """Every block below the root: address, kind, label, text."""
    return [(b.address, b.kind, b.label, normalise(b.text)) for b in tree.blocks() if b.address != "/"]


def text_items(tree: BlockTree) -> list[Item]:
    """Headings and text blocks in reading order, table cells as text: what a PDF can show."""
    out: list[Item] = []
    for block in tree.blocks():
        if block.kind not in TEXT_KINDS:
            continue
        kind = "heading" if block.kind == "heading" else "text"
        out.append((kind, block.label, normalise(block.text)))
    return out


def classify(expected: Sequence[Item], got: Sequence[Item]) -> Counter[str]:
    """The difference classes between two item sequences (empty when they are equal)."""
    classes: Counter[str] = Counter()
    matcher = difflib.SequenceMatcher(None, expected, got, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            continue
        left, right = expected[a0:a1], got[b0:b1]
        if op == "replace" and len(left) == len(right):
            for one, two in zip(left, right, strict=True):
                classes[_pair_class(one, two)] += 1
            continue
        joined_left = " ".join(text for _, _, text in left)
        joined_right = " ".join(text for _, _, text in right)
        if left and right and _squash(joined_left) == _squash(joined_right):
            classes["blocks split or merged (same text)"] += 1
        elif not right:
            classes["block missing"] += len(left)
        elif not left:
            classes["block added"] += len(right)
        else:
            classes["blocks split or merged (text differs)"] += 1
    return classes


def _squash(text: str) -> str:
    return "".join(text.split())


def _visible(text: str) -> str:
    """The text less its invisible formatting characters (Unicode category Cf) and its spaces."""
    return "".join(ch for ch in text if not ch.isspace() and unicodedata.category(ch) != "Cf")


def _pair_class(one: Item, two: Item) -> str:
    if one[0] != two[0]:
        return f"{one[0]} read as {two[0]}"
    if one[1] != two[1]:
        return "label differs"
    if _squash(one[2]) == _squash(two[2]):
        return "spacing differs"
    if _squash(one[2]).replace("-", "") == _squash(two[2]).replace("-", ""):
        return HYPHEN
    if _visible(one[2]) == _visible(two[2]):
        return INVISIBLE
    return "text differs"


def compare(markdown: Path, docx: Path, pdf: Path, name: str) -> Outcome:
    from alignbench.readers import read

    outcome = Outcome(name)
    expected = read(markdown)
    via_docx: BlockTree | Exception
    try:
        via_docx = read(docx)
    except AlignbenchError as exc:
        via_docx = exc
        outcome.docx[f"unreadable: {exc}"] += 1
    else:
        want, got = tree_items(expected), tree_items(via_docx)
        if want != got:
            classes = classify(text_items(expected), text_items(via_docx))
            outcome.docx.update(classes or Counter({"tree shape differs (same texts)": 1}))
    try:
        via_pdf = read(pdf)
    except AlignbenchError as exc:
        outcome.pdf[f"unreadable: {exc}"] += 1
    else:
        pdf_items = text_items(via_pdf)
        if outcome.docx and not isinstance(via_docx, Exception) and pdf_items == text_items(via_docx):
            outcome.pdf[RENDERER] += sum(outcome.docx.values())
        else:
            outcome.pdf.update(classify(text_items(expected), pdf_items))
    return outcome


def pdf_exceptions_only(outcome: Outcome) -> bool:
    """Whether every PDF difference of a document is one a PDF cannot avoid (``PDF_EXCEPTIONS``)."""
    return all(name in PDF_EXCEPTIONS for name in outcome.pdf)


def summary(outcomes: Sequence[Outcome]) -> str:
    total = len(outcomes)
    same_docx = sum(1 for o in outcomes if not o.docx)
    same_pdf = sum(1 for o in outcomes if not o.pdf)
    excepted = sum(1 for o in outcomes if o.pdf and pdf_exceptions_only(o))
    lines = [
        f"documents: {total}",
        f"identical via DOCX: {same_docx} ({100 * same_docx / max(total, 1):.1f}%)",
        f"identical via PDF: {same_pdf} ({100 * same_pdf / max(total, 1):.1f}%)",
        f"identical via PDF or differing only in stated exceptions: {same_pdf + excepted} "
        f"({100 * (same_pdf + excepted) / max(total, 1):.1f}%)",
        "",
        "| route | difference class | documents | occurrences |",
        "| --- | --- | ---: | ---: |",
    ]
    for route in ("docx", "pdf"):
        docs: Counter[str] = Counter()
        hits: Counter[str] = Counter()
        for outcome in outcomes:
            found = getattr(outcome, route)
            for name, count in found.items():
                docs[name] += 1
                hits[name] += count
        for name in sorted(docs, key=lambda n: (-docs[n], n)):
            lines.append(f"| {route} | {name} | {docs[name]} | {hits[name]} |")
    lines.append("")
    for outcome in outcomes:
        if outcome.docx or outcome.pdf:
            parts = [f"docx {dict(sorted(outcome.docx.items()))}" if outcome.docx else ""]
            parts.append(f"pdf {dict(sorted(outcome.pdf.items()))}" if outcome.pdf else "")
            lines.append(f"- {outcome.name}: " + "; ".join(p for p in parts if p))
    return "\n".join(lines) + "\n"


def real_markdown(root: Path = REAL) -> list[Path]:
    return sorted(p for pattern in ("*/source.md", "*/test.md") for p in root.glob(pattern))


def run(markdown: Sequence[Path], work: Path) -> list[Outcome]:
    rendered = render(markdown, work)
    return [compare(md, docx, pdf, f"{md.parent.name}/{md.name}") for md, docx, pdf in rendered]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m alignbench.readers.roundtrip", description=__doc__)
    parser.add_argument("markdown", nargs="*", type=Path, help="documents (default: the real tier's)")
    parser.add_argument("--limit", type=int, default=0, help="only the first N documents")
    args = parser.parse_args(argv)
    missing = tools_missing()
    if missing:
        print(f"roundtrip: {', '.join(missing)} not on the PATH; install pandoc libreoffice-writer-nogui")
        return 2
    documents = list(args.markdown) or real_markdown()
    if args.limit:
        documents = documents[: args.limit]
    with tempfile.TemporaryDirectory(prefix="alignbench-roundtrip-") as work:
        outcomes = run(documents, Path(work))
    sys.stdout.write(summary(outcomes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
