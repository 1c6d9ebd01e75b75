"""``alignbench compare OLD NEW``: what moved, what was renumbered, inserted, deleted and modified.

The human output reads top-down like a change summary; ``--json`` prints the Alignment JSON instead.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from typing import TYPE_CHECKING, Any

from alignbench.alignment.config import BACKENDS

if TYPE_CHECKING:
    from alignbench.alignment.model import Alignment, Change
    from alignbench.blocks import BlockTree


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "compare", help="align two versions of a document and list the changes", description=__doc__
    )
    parser.add_argument("old", help="the earlier version (.md, .markdown or .txt)")
    parser.add_argument("new", help="the later version")
    parser.add_argument(
        "--backend", choices=BACKENDS, default="auto", help="similarity backend (default auto)"
    )
    parser.add_argument("--json", action="store_true", help="print the Alignment JSON instead of a summary")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Imported here, not at the top: `alignbench --help` and `compare --help` need only the parser.
    from alignbench.alignment import AlignmentConfig, align
    from alignbench.readers import read

    old, new = read(args.old), read(args.new)
    result = align(old, new, AlignmentConfig(similarity=args.backend))
    sys.stdout.write(result.to_json() if args.json else render(result, old, new))
    return 0


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
        lines += [f"  {c.source_label} -> {c.test_label} ({c.test})" for c in by_kind["renumber"]]
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
            lines.append(f"  ~ {_name(c.test, c.test_label)}: {diff}")
    return "\n".join(lines) + "\n"
