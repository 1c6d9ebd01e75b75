"""``alignbench compare OLD NEW``: what moved, what was renumbered, inserted, deleted and modified.

The human output reads top-down like a change summary; ``--json`` prints the Alignment JSON instead,
with each change's text added; ``--html OUT.html`` also writes the redline page. Like ``diff``, the
exit status is 0 when the documents have no change, 1 when they differ and 2 on an error. Content a
reader keeps out of the tree (HTML, link targets, markup) is compared too: a difference there is a
change of its own kind ("Dropped content changed", JSON ``dropped_changes``), never "same"; and one
note per dropped kind goes to standard error.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from alignbench.alignment.config import BACKENDS

if TYPE_CHECKING:
    from alignbench.alignment.model import Alignment
    from alignbench.blocks import Block, BlockTree

EXIT_SAME, EXIT_DIFFERENT = 0, 1


DESCRIPTION = """\
Compare two versions of a document clause by clause: which clauses moved, were renumbered, inserted,
deleted or edited. Each change is named by its heading path and clause label, as in "§4 Payment ›
4.5"; an edited clause shows its word diff ([-removed-] {+added+}), also when it moved or was
renumbered; a run of renumbered clauses shows as one line (4.2–4.9 → 4.1–4.8).

Documents are Markdown (.md, .markdown) or plain text (.txt); use --format for other names.
"""

EXAMPLES = """\
examples:
  alignbench compare old.md new.md                     a summary of the changes
  alignbench compare old.md new.md --html redline.html  a redline page to open in a browser
  alignbench compare old.md new.md --json              every change as JSON, with its full text
  alignbench compare old.txt - < new.txt               read one version from standard input

exit status: 0 the documents have no change, 1 they differ, 2 an error (like diff)
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="compare two versions of a document and list what moved, changed, appeared or went",
        description=DESCRIPTION,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "old",
        help="the earlier version (.md, .markdown, .txt, .docx or .pdf), or - to read it from standard input",
    )
    parser.add_argument("new", help="the later version, or - to read it from standard input")
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="auto",
        help="how similar clauses are found: rapidfuzz (fast) or difflib; auto picks rapidfuzz when "
        "it is installed (default: auto)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print every change as JSON (with each side's full text) instead of the summary",
    )
    parser.add_argument(
        "--format",
        choices=("markdown", "text", "docx", "pdf"),
        default=None,
        help="read both documents in this format, whatever their names end with "
        "(default: from each suffix: .md and .markdown Markdown, .txt text, .docx Word, .pdf PDF)",
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
        help="also write a redline page (one file that opens in a browser without a network); "
        "the terminal then gets only the one-line count",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also print each block's address in its document (the JSON's source and test)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="let --html replace a file that is an input of this command or a labels file",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Imported here, not at the top: `alignbench --help` and `compare --help` need only the parser.
    from alignbench.alignment import AlignmentConfig, align
    from alignbench.atomic import dump_json
    from alignbench.errors import AlignbenchError
    from alignbench.outputs import check_output, write_output
    from alignbench.readers import STDIN, format_of, read_document
    from alignbench.readers.cli import require_known_format
    from alignbench.textout import render
    from alignbench.visible import json_safe, show

    if args.old == STDIN and args.new == STDIN:
        raise AlignbenchError("only one of OLD and NEW can be - (standard input)")
    require_known_format([args.old, args.new], args.format)
    # Standard input has no suffix: read it in --format, else in the other version's format.
    old = read_document(
        args.old, format=args.format, stdin_format=format_of(args.new), revisions=args.revisions
    )
    new = read_document(
        args.new, format=args.format, stdin_format=format_of(args.old), revisions=args.revisions
    )
    if args.html is not None:  # refused before the work, not after it (alignbench.outputs)
        check_output(args.html, inputs=_files(args.old, args.new), force=args.force, flag="--html")
    from alignbench.readers.drops import dropped_changes, notes

    result = align(old, new, AlignmentConfig(similarity=args.backend))
    hidden = dropped_changes(old.drops, new.drops)
    summary = render(result, old, new, verbose=args.verbose, hidden=hidden)
    # What each reader dropped, one line per kind: never silent (issue 28), never in the way of --json.
    for note in notes(old.drops, args.old) + notes(new.drops, args.new):
        sys.stderr.write(show(note) + "\n")
    if args.html is not None:
        from alignbench.html import render_redline

        # The paths as given name the documents: no absolute path leaks into a page that gets shared.
        page = render_redline(result, old, new, old_name=args.old, new_name=args.new)
        write_output(args.html, page, inputs=_files(args.old, args.new), force=args.force, flag="--html")
    # Hidden and control characters reach the terminal as glyphs (alignbench.visible), never raw.
    if args.json:
        sys.stdout.write(json_safe(dump_json(with_drops(with_texts(result, old, new), old, new, hidden))))
    elif args.html is not None:
        sys.stdout.write(show(summary.splitlines()[0] + f"; redline written to {args.html}") + "\n")
    else:
        sys.stdout.write(show(summary))
    return EXIT_DIFFERENT if result.changes or hidden else EXIT_SAME


def with_drops(
    data: dict[str, Any], old: BlockTree, new: BlockTree, hidden: list[dict[str, Any]]
) -> dict[str, Any]:
    """The JSON with what each reader dropped (kind, line, digest, text) and where the dropped content
    differs (``dropped_changes``, a change kind of its own: the command exits 1 for it)."""
    from alignbench.readers.drops import drops_to_dict

    data["dropped"] = {"source": drops_to_dict(old.drops), "test": drops_to_dict(new.drops)}
    data["dropped_changes"] = hidden
    return data


def _files(*given: str) -> list[str]:
    return [name for name in given if name != "-"]


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
