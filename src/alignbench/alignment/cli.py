"""``alignbench compare OLD NEW``: what moved, what was renumbered, inserted, deleted and modified.

The human output reads top-down like a change summary; ``--json`` prints the Alignment JSON instead,
with each change's text added; ``--html OUT.html`` also writes the redline page. Like ``diff``, the
exit status is 0 when the documents have no change, 1 when they differ and 2 on an error.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from typing import TYPE_CHECKING, Any

from alignbench.alignment.config import BACKENDS

if TYPE_CHECKING:
    from alignbench.alignment.model import Alignment, Change
    from alignbench.blocks import Block, BlockTree

EXIT_SAME, EXIT_DIFFERENT = 0, 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "compare", help="align two versions of a document and list the changes", description=__doc__
    )
    parser.add_argument(
        "old", help="the earlier version (.md, .markdown, .txt, .docx or .pdf), or - for standard input"
    )
    parser.add_argument("new", help="the later version, or - for standard input")
    parser.add_argument(
        "--backend", choices=BACKENDS, default="auto", help="similarity backend (default auto)"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the Alignment JSON instead of a summary, each change with its source_text and test_text",
    )
    parser.add_argument(
        "--format",
        choices=("markdown", "text", "docx", "pdf"),
        default=None,
        help="read both files as this format (default: from each suffix: .md/.markdown, .txt, .docx, .pdf)",
    )
    parser.add_argument(
        "--revisions",
        choices=("accepted", "original"),
        default="accepted",
        help="Word tracked changes: read the accepted (default) or the original text",
    )
    parser.add_argument(
        "--html",
        metavar="OUT.html",
        default=None,
        help="also write a self-contained HTML redline (opens from disk, no network); "
        "stdout then gets the one-line summary only, unless --json",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Imported here, not at the top: `alignbench --help` and `compare --help` need only the parser.
    from alignbench.alignment import AlignmentConfig, align
    from alignbench.atomic import dump_json, write_text
    from alignbench.errors import AlignbenchError
    from alignbench.readers import STDIN, format_of, read_document

    if args.old == STDIN and args.new == STDIN:
        raise AlignbenchError("only one of OLD and NEW can be - (standard input)")
    # Standard input has no suffix: read it in --format, else in the other version's format.
    old = read_document(
        args.old, format=args.format, stdin_format=format_of(args.new), revisions=args.revisions
    )
    new = read_document(
        args.new, format=args.format, stdin_format=format_of(args.old), revisions=args.revisions
    )
    result = align(old, new, AlignmentConfig(similarity=args.backend))
    summary = render(result, old, new)
    if args.html is not None:
        from alignbench.html import render_redline

        # The paths as given name the documents: no absolute path leaks into a page that gets shared.
        write_text(args.html, render_redline(result, old, new, old_name=args.old, new_name=args.new))
    if args.json:
        sys.stdout.write(dump_json(with_texts(result, old, new)))
    elif args.html is not None:
        sys.stdout.write(summary.splitlines()[0] + f"; redline written to {args.html}\n")
    else:
        sys.stdout.write(summary)
    return EXIT_DIFFERENT if result.changes else EXIT_SAME


def subtree_text(block: Block) -> str:
    """A block and everything under it, one text-bearing block per line led by its label.

    A row reads as its cells joined by `` | ``. Nothing is cut, so an inserted section's JSON
    carries all of its text.
    """
    from alignbench.blocks import normalise

    lines: list[str] = []

    def visit(node: Block) -> None:
        if node.kind == "row":
            cells = " | ".join(normalise(c.text) for c in node.children if c.kind == "cell")
            lines.append(f"{node.label} {cells}" if node.label else cells)
            return
        if not node.is_container:
            text = normalise(node.text)
            lines.append(f"{node.label} {text}".strip() if node.label else text)
        for child in node.children:
            visit(child)

    visit(block)
    return "\n".join(lines)


def with_texts(result: Alignment, old: BlockTree, new: BlockTree) -> dict[str, Any]:
    """The Alignment JSON with ``source_text``/``test_text`` on each change (null on the empty side)."""
    data = result.to_dict()
    for change in data["changes"]:
        change["source_text"] = subtree_text(old.find(change["source"])) if change["source"] else None
        change["test_text"] = subtree_text(new.find(change["test"])) if change["test"] else None
    return data


def word_diff(old: str, new: str) -> str:
    """Word-level diff in wdiff style: ``[-removed-]`` and ``{+added+}`` around whole words."""
    a, b = old.split(), new.split()
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.extend(a[i1:i2])
            continue
        if op in ("delete", "replace"):
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if op in ("insert", "replace"):
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(out)


def _name(address: str | None, label: str | None) -> str:
    return f"{label} ({address})" if label else str(address)


def _snippet(tree: BlockTree, address: str, width: int = 72) -> str:
    block = tree.find(address)
    text = " ".join(block.text.split()) if block.text else ""
    if not text and block.children:
        heading = next((c for c in block.children if c.kind == "heading"), None)
        text = " ".join(heading.text.split()) if heading else f"{len(block.children)} blocks"
    return text if len(text) <= width else text[: width - 3] + "..."


def render(result: Alignment, old: BlockTree, new: BlockTree) -> str:
    by_kind: dict[str, list[Change]] = {k: [] for k in ("move", "renumber", "insert", "delete", "modify")}
    for change in result.changes:
        by_kind[change.kind].append(change)
    lines = [
        f"{len(result.pairs) - 1} blocks paired, {len(by_kind['move'])} moved, "
        f"{len(by_kind['renumber'])} renumbered, {len(by_kind['insert'])} inserted, "
        f"{len(by_kind['delete'])} deleted, {len(by_kind['modify'])} modified "
        f"(backend {result.backend_resolved}"
        + (", comparison budget exhausted)" if result.budget_exhausted else ")")
    ]
    if by_kind["move"]:
        lines += ["", "Moved:"]
        lines += [
            f"  {_name(c.source, c.source_label)} -> {_name(c.test, c.test_label)}: {_snippet(new, c.test)}"
            for c in by_kind["move"]
        ]
    if by_kind["renumber"]:
        lines += ["", "Renumbered:"]
        lines += [
            f"  {c.source_label or '(no label)'} -> {c.test_label or '(no label)'} ({c.test})"
            for c in by_kind["renumber"]
        ]
    if by_kind["insert"]:
        lines += ["", "Inserted:"]
        lines += [f"  + {_name(c.test, c.test_label)}: {_snippet(new, c.test)}" for c in by_kind["insert"]]
    if by_kind["delete"]:
        lines += ["", "Deleted:"]
        lines += [
            f"  - {_name(c.source, c.source_label)}: {_snippet(old, c.source)}" for c in by_kind["delete"]
        ]
    if by_kind["modify"]:
        lines += ["", "Modified:"]
        for c in by_kind["modify"]:
            diff = word_diff(old.find(c.source).text, new.find(c.test).text)
            relabel = ""
            if c.source_label != c.test_label:  # a label gained or lost: not a renumber, but shown
                relabel = f" [label {c.source_label or '(no label)'} -> {c.test_label or '(no label)'}]"
            lines.append(f"  ~ {_name(c.test, c.test_label)}{relabel}: {diff}")
    return "\n".join(lines) + "\n"
