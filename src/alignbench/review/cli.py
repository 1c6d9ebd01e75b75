"""``alignbench review PAIR``: write the self-contained review page of one real pair (thin wrapper)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def _cmd_review(args: argparse.Namespace) -> int:
    from alignbench.review.page import write_page

    out = Path(args.out) if args.out else Path(f"review-{Path(args.pair).name}.html")
    print(write_page(Path(args.root), args.pair, out, force=args.force))
    return 0


def register(subparsers: Any) -> None:
    """Add ``review`` to the top-level ``alignbench`` parser."""
    parser = subparsers.add_parser("review", help="write the HTML review page of a real pair's draft labels")
    parser.add_argument("pair", help="real pair id (a directory under corpus/labels/real)")
    parser.add_argument("--out", help="where to write the page (default: review-<pair>.html here)")
    parser.add_argument(
        "--force", action="store_true", help="let --out replace an input of the page or a labels file"
    )
    parser.add_argument("--root", default=".", help="repository root (default: current directory)")
    parser.set_defaults(func=_cmd_review)
