"""``alignbench review``: write the self-contained review page of a pair (thin wrapper)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from alignbench.errors import AlignbenchError

DESCRIPTION = """\
Write one HTML page for reviewing which clause of the old document became which clause of the new
one. The page opens from disk in any browser (no server, no network) and saves your progress there.

  alignbench review PAIR        a pair of this repository: a directory name under
                                corpus/labels/real (e.g. csa-1.1-to-2.0); reviews its labels.yaml
  alignbench review OLD NEW     any two documents (.md or .txt): the engine drafts the labels into
                                review-OLD-to-NEW.yaml here (--labels to choose), then the page
                                reviews that file; no corpus and no `prepare` needed

In the page: first mark the clauses that moved, then confirm or fix each row (keys: j/k next and
previous row, c confirm, p pick partner, m flag move, u undo, ? for all keys), press Export decisions,
and compile the download back into the labels:

  alignbench label compile PAIR|LABELS.yaml --from decisions-PAIR.json --as-reviewer human:YOU
  alignbench label check PAIR|LABELS.yaml
"""


def _looks_like_path(value: str, root: Path) -> bool:
    return "/" in value or "\\" in value or (root / value).exists() or Path(value).exists()


def _pair_in_path(value: str, root: Path) -> str | None:
    """The corpus pair a path names (``corpus/real/PAIR/source.md`` -> PAIR), when there is one."""
    from alignbench.labels.init import REAL_LABELS

    for part in reversed(Path(value).parts):
        if (root / REAL_LABELS / part / "labels.yaml").is_file():
            return part
    return None


def _not_a_pair_name(value: str, root: Path) -> AlignbenchError:
    pair = _pair_in_path(value, root)
    hint = f"did you mean `alignbench review {pair}`? " if pair else ""
    return AlignbenchError(
        f"review: {value!r} is a path, not a pair name; {hint}give a directory name under "
        "corpus/labels/real, or two documents to compare: `alignbench review OLD NEW`"
    )


def _cmd_review(args: argparse.Namespace) -> int:
    from alignbench.review.page import write_page

    root = Path(args.root)
    if args.new is None:
        if args.labels:
            raise AlignbenchError("review: --labels is for two documents (`alignbench review OLD NEW`)")
        if _looks_like_path(args.pair, root):
            raise _not_a_pair_name(args.pair, root)
        out = Path(args.out) if args.out else Path(f"review-{Path(args.pair).name}.html")
        print(write_page(root, args.pair, out, force=args.force))
        return 0
    from alignbench.review.own_pair import default_labels_path, refuse_overwrite, seed_own_pair

    old, new = Path(args.pair), Path(args.new)
    labels = Path(args.labels) if args.labels else default_labels_path(old, new)
    out = Path(args.out) if args.out else labels.with_suffix(".html")
    refuse_overwrite(labels, [old, new], "--labels")
    refuse_overwrite(out, [old, new, labels], "--out")
    data, seeded = seed_own_pair(root, old, new, labels)
    print(f"{'wrote' if seeded else 'reusing'} {labels}: labels of {old} -> {new}")
    print(write_page(root, data["pair"], out, draft=labels, force=args.force))
    export = f"decisions-{data['pair']}.json"
    print(f"then: alignbench label compile {labels} --from {export} --as-reviewer human:YOU")
    return 0


def register(subparsers: Any) -> None:
    """Add ``review`` to the top-level ``alignbench`` parser."""
    parser = subparsers.add_parser(
        "review",
        help="write an HTML page to review the labels of a pair or two documents",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("pair", metavar="PAIR|OLD", help="a pair id, or the old document")
    parser.add_argument("new", metavar="NEW", nargs="?", help="the new document (with OLD)")
    parser.add_argument(
        "--out",
        help="where to write the page (default: review-PAIR.html here; with OLD NEW, beside the labels)",
    )
    parser.add_argument(
        "--labels",
        help="with OLD NEW: the labels file to draft, or to reuse (default: review-OLD-to-NEW.yaml here)",
    )
    parser.add_argument(
        "--root",
        default=".",
        help="the repository (with PAIR), or the directory both documents' paths are relative to "
        "(with OLD NEW); default: the current directory",
    )
    parser.add_argument(
        "--force", action="store_true", help="let --out replace an input of the page or a labels file"
    )
    parser.set_defaults(func=_cmd_review)
