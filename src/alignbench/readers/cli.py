"""``alignbench blocks FILE``: show the tree a reader builds, so a reader bug is visible at a glance."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from alignbench.atomic import dump_json
from alignbench.blocks import Block, BlockTree, normalise
from alignbench.errors import EXIT_STATUS_HELP
from alignbench.readers import FORMATS, read_document
from alignbench.readers.binary import ACCEPTED, REVISION_VIEWS
from alignbench.readers.profiles import profile_names

PREVIEW_CHARS = 60


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "blocks",
        help="print the block tree of a document",
        description="Print the block tree of a document: address, kind, label, digest and text.",
        epilog=EXIT_STATUS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file", help="the document (.md/.markdown, .txt, .docx or .pdf), or - for standard input"
    )
    parser.add_argument("--format", choices=FORMATS, help="override the format inferred from the suffix")
    parser.add_argument("--profile", choices=profile_names(), help="reader profile (default: by format)")
    parser.add_argument(
        "--revisions",
        choices=REVISION_VIEWS,
        default=ACCEPTED,
        help="Word tracked changes: read the accepted (default) or the original text",
    )
    parser.add_argument("--json", action="store_true", help="print BlockTree.to_dict() as JSON")
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


def run_blocks(args: argparse.Namespace) -> int:
    tree = read_document(args.file, format=args.format, profile=args.profile, revisions=args.revisions)
    sys.stdout.write(dump_json(tree.to_dict()) if args.json else format_tree(tree))
    return 0
