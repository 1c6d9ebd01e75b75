"""``alignbench blocks FILE``: show the tree a reader builds, so a reader bug is visible at a glance."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from alignbench.atomic import dump_json
from alignbench.blocks import Block, BlockTree, normalise
from alignbench.errors import EXIT_STATUS_HELP, AlignbenchError
from alignbench.readers import FORMATS, STDIN, format_of, read_document
from alignbench.readers.binary import ACCEPTED, REVISION_VIEWS
from alignbench.readers.drops import notes
from alignbench.readers.profiles import profile_names

PREVIEW_CHARS = 60


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "blocks",
        help="show how a document is read: its sections, clauses and labels",
        description="Show how alignbench reads a document: one line per block (section, heading, "
        "paragraph, list item, table, row, cell), indented by nesting, with its address, kind, clause "
        "label, content digest and first words. Use it to check that a document's numbering and "
        "structure were recognised before comparing it.",
        epilog=EXIT_STATUS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file",
        help="the document (.md or .markdown Markdown, .txt plain text, .docx Word, .pdf PDF), "
        "or - for standard input",
    )
    parser.add_argument(
        "--format", choices=FORMATS, help="read it in this format, whatever its name ends with"
    )
    parser.add_argument(
        "--profile",
        choices=profile_names(),
        help="a reading profile for a kind of document (default: the format's own)",
    )
    parser.add_argument(
        "--revisions",
        choices=REVISION_VIEWS,
        default=ACCEPTED,
        help="Word tracked changes: read the accepted (default) or the original text",
    )
    parser.add_argument("--json", action="store_true", help="print the whole tree as JSON instead")
    parser.set_defaults(func=run_blocks)


def format_tree(tree: BlockTree) -> str:
    """One line per block, indented by depth: address, kind, label, digest and a text preview."""
    lines = []
    for block in tree.blocks():
        lines.append(_line(block))
    if tree.dropped:
        lines.append("dropped: " + ", ".join(f"{k}={v}" for k, v in tree.dropped.items()))
    return "\n".join(lines) + "\n"


def _line(block: Block) -> str:
    depth = 0 if block.address == "/" else block.address.count("/")
    label = f" [{block.label}]" if block.label is not None else ""
    preview = normalise(block.text)[:PREVIEW_CHARS]
    text = f"  {preview}" if preview else ""
    return f"{'  ' * depth}{block.address}  {block.kind}{label}  {block.digest}{text}"


def require_known_format(paths: list[str], format: str | None) -> None:
    """A file whose name does not say its format gets the command-line way to give it, before the
    reader's own message (written for the Python function) can reach a user of the command."""
    if format is not None:
        return
    for path in paths:
        if path != STDIN and format_of(path) is None and Path(path).is_file():
            raise AlignbenchError(
                f"{path}: cannot tell the format from the file name; add --format markdown or --format text"
            )


def run_blocks(args: argparse.Namespace) -> int:
    require_known_format([args.file], args.format)
    tree = read_document(args.file, format=args.format, profile=args.profile, revisions=args.revisions)
    from alignbench.visible import json_safe, show

    # Hidden and control characters reach the terminal as glyphs (alignbench.visible), never raw.
    sys.stdout.write(json_safe(dump_json(tree.to_dict())) if args.json else show(format_tree(tree)))
    # Every drop is visible: one line per kind, on standard error so the JSON stays JSON.
    for note in notes(tree.drops):
        sys.stderr.write(show(note) + "\n")
    return 0
