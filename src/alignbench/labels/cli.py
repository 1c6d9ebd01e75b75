"""``alignbench label init|sheet|compile|check|sign|reanchor|agree``: the labelling tools, thin wrappers.

PAIR is a pair id found by ``alignbench.tiers.discover`` (``tier/pair`` when the id exists in both
tiers) or a path to a ``labels.yaml`` (or to the directory holding it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from alignbench.atomic import dump_json, write_text
from alignbench.errors import EXIT_STATUS_HELP, AlignbenchError, CheckFailed
from alignbench.labels.adjudication import RULINGS, record_ruling
from alignbench.labels.agree import agree, render_table
from alignbench.labels.check import check_file, format_problems
from alignbench.labels.compile import parse_by
from alignbench.labels.completeness import (
    blind_subset_problems,
    completeness_problems,
    expected_pairs,
    require_checkout,
)
from alignbench.labels.documents import open_pair
from alignbench.labels.io import dump_labels, load_labels
from alignbench.labels.reanchor import reanchor
from alignbench.labels.sign import ROLES, SIGNER_KINDS, sign
from alignbench.labels.verdicts import VERDICTS, engine_moves, record_verdict, render_moves
from alignbench.outputs import check_output, write_output
from alignbench.tiers import TierPair, discover


def resolve_pair(root: Path, pair: str) -> TierPair | Path:
    """A discovered pair (so its tier and name are checked too) or an explicit labels path."""
    candidate = Path(pair)
    if candidate.is_dir() and (candidate / "labels.yaml").is_file():
        candidate = candidate / "labels.yaml"
    if candidate.is_file():
        for found in discover(root):
            if found.labels_path.resolve() == candidate.resolve():
                return found
        return candidate
    tier, _, name = pair.rpartition("/")
    matches = [p for p in discover(root) if p.pair == name and tier in ("", p.tier)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise AlignbenchError(
            f"pair {pair!r}: no labels.yaml found for it in any tier; give a pair id from "
            "`alignbench label check --all` or a path to a labels.yaml"
        )
    raise AlignbenchError(f"pair {pair!r} exists in several tiers; write it as <tier>/{name}")


def _labels_path(found: TierPair | Path) -> Path:
    return found.labels_path if isinstance(found, TierPair) else found


def _cmd_check(args: argparse.Namespace) -> int:
    root = Path(args.root)
    if args.all == bool(args.pair):
        raise AlignbenchError("label check: give either one PAIR or --all")
    incomplete: list[str] = []
    if args.all:
        require_checkout(root)
        expected = expected_pairs(root)
        print(expected.statement())
        targets: list[TierPair | Path] = list(discover(root))
        incomplete = completeness_problems(expected, targets) + blind_subset_problems(root, expected)
    else:
        targets = [resolve_pair(root, args.pair)]
    failed = 0
    for found in targets:
        expect = (found.tier, found.pair) if isinstance(found, TierPair) else None
        result = check_file(_labels_path(found), root=root, expect=expect)
        if args.reviewed and result.ok and result.figures["proposed"]:
            result.problems.append(
                f"{result.figures['proposed']} row(s) still proposed; confirm or correct each "
                "(--reviewed requires a fully reviewed file)"
            )
        if result.ok:
            f = result.figures
            rate = "n/a" if f["override_rate"] is None else f"{f['override_rate']:.4f}"
            print(
                f"ok {result.where}: {f['rows']} rows, {f['proposed']} proposed, {f['confirmed']} confirmed, "
                f"{f['corrected']} corrected, override_rate {rate}, labelled by {f['labelled_by']}, "
                f"{'signed' if f['signed'] else 'unsigned'}"
            )
        else:
            failed += 1
            print(format_problems(result), file=sys.stderr)
    for problem in incomplete:
        print(f"incomplete: {problem}", file=sys.stderr)
    if failed or incomplete:
        raise CheckFailed(
            f"label check failed for {failed} of {len(targets)} pair(s)"
            + (f" and {len(incomplete)} completeness problem(s)" if incomplete else "")
            + "; see the problems above"
        )
    return 0


def _cmd_sign(args: argparse.Namespace) -> int:
    path = _labels_path(resolve_pair(Path(args.root), args.pair))
    signed = sign(load_labels(path), args.signer, args.kind, args.role, str(path))
    write_text(path, dump_labels(signed))
    print(f"signed {path} as {args.signer} ({args.kind}, {args.role})")
    return 0


def _cmd_reanchor(args: argparse.Namespace) -> int:
    root = Path(args.root)
    path = _labels_path(resolve_pair(root, args.pair))
    data = load_labels(path)
    fixed, changes = reanchor(data, open_pair(data, root), str(path))
    if not changes:
        print(f"{path}: every address still carries its digest; nothing to do")
        return 0
    write_text(path, dump_labels(fixed))
    print(f"{path}: {len(changes)} change(s)")
    for line in changes:
        print(f"  {line}")
    if fixed["review"]["signatures"]:
        print("  the signatures no longer match: review the diff and sign again")
    return 0


def _cmd_agree(args: argparse.Namespace) -> int:
    a, b = load_labels(args.a), load_labels(args.b)
    report = agree(a, b, names=(args.a, args.b))
    if args.blind_dir:
        from alignbench.labels.blind_workdir import verify_blind_workdir

        report["blind_workdir"] = verify_blind_workdir(Path(args.blind_dir), report["pair"])
    table = render_table(report)
    if args.json:
        write_text(args.json, dump_json(report))
    if args.table:
        write_text(args.table, table)
    sys.stdout.write(table)
    return 0


def _cmd_blind(args: argparse.Namespace) -> int:
    from alignbench.labels.blind_workdir import make_blind_workdir

    manifest = make_blind_workdir(Path(args.root), args.pair, Path(args.dir))
    print(f"wrote {args.dir}: {', '.join(manifest['given'])} (hashes in blind-workdir.json)")
    return 0


def _cmd_blind_draw(args: argparse.Namespace) -> int:
    from alignbench.labels.stratify import write_draw

    result, fraction, text = write_draw(Path(args.root), write=args.write)
    sys.stdout.write(text if not args.write else f"wrote {len(result.subset)} pairs to the blind subset\n")
    for missed in result.meets(fraction):
        print(f"not yet met: {missed}", file=sys.stderr)
    return 0


def _cmd_sheet(args: argparse.Namespace) -> int:
    from alignbench.labels.workflow import write_blank_sheet, write_sheet

    root = Path(args.root)
    out = Path(args.out) if args.out else None
    if args.blank:  # reads the manifest and the documents only: never the labels or the engine
        outcome = write_blank_sheet(root, args.pair, out)
    else:
        outcome = write_sheet(root, _labels_path(resolve_pair(root, args.pair)), out)
    print(outcome.summary)
    return 0


def _cmd_compile(args: argparse.Namespace) -> int:
    from alignbench.labels.compile import parse_by
    from alignbench.labels.workflow import compile_sheet

    if args.decisions is not None:
        return _compile_review(args)
    if args.sheet is None or args.by is None:
        raise AlignbenchError(
            "label compile: give a SHEET and --by KIND:ID, or --from decisions.json --as-reviewer KIND:ID"
        )
    if isinstance(args.as_reviewer, str):
        raise AlignbenchError(
            f"label compile: --as-reviewer takes no id with a sheet (got {args.as_reviewer!r}); "
            "the reviewer is --by"
        )
    outcome = compile_sheet(
        Path(args.root),
        args.pair,
        Path(args.sheet),
        parse_by(args.by),
        draft_path=Path(args.draft) if args.draft else None,
        out=Path(args.out) if args.out else None,
        force=args.force,
        as_reviewer=bool(args.as_reviewer),
    )
    for warning in outcome.warnings:
        print(warning, file=sys.stderr)
    print(outcome.summary)
    return 0


def _compile_review(args: argparse.Namespace) -> int:
    """``--from decisions.json``: the review page's export, compiled and signed by the reviewer."""
    from alignbench.review.decisions import compile_export

    given = [
        f
        for f, v in (
            ("SHEET", args.sheet),
            ("--by", args.by),
            ("--draft", args.draft),
            ("--out", args.out),
            ("--force", args.force),
        )
        if v
    ]
    if given:
        raise AlignbenchError(
            f"label compile --from: {', '.join(given)} do not apply; the export names its draft (the "
            "pair's labels.yaml) and the reviewer is --as-reviewer KIND:ID"
        )
    if not isinstance(args.as_reviewer, str):
        raise AlignbenchError("label compile --from: give the reviewer as --as-reviewer human:NAME")
    outcome = compile_export(Path(args.root), args.pair, Path(args.decisions), args.as_reviewer)
    for warning in outcome.warnings:
        print(warning, file=sys.stderr)
    print(outcome.summary)
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    from alignbench.review.interchange import export_spans

    root = Path(args.root)
    labels_path = _labels_path(resolve_pair(root, args.pair))
    if args.out:  # never onto the labels or a document it reads (alignbench.outputs)
        check_output(args.out, inputs=[labels_path], force=args.force, flag="--out")
    text = export_spans(root, labels_path)
    if args.out:
        labels = load_labels(labels_path)
        documents = [root / labels[side]["file"] for side in ("source", "test")]
        write_output(args.out, text, inputs=[labels_path, *documents], force=args.force, flag="--out")
        print(f"wrote {args.out}: {text.count(chr(10))} span record(s)")
    else:
        sys.stdout.write(text)
    return 0


def _cmd_import(args: argparse.Namespace) -> int:
    from alignbench.review.interchange import import_spans

    root = Path(args.root)
    path = _labels_path(resolve_pair(root, args.pair))
    text, warnings = import_spans(root, path, Path(args.file))
    for warning in warnings:
        print(f"{path}: {warning}", file=sys.stderr)
    unchanged = path.read_text(encoding="utf-8") == text
    write_text(path, text)
    print(f"{path}: {'unchanged' if unchanged else 'rows replaced'} from {args.file}")
    return 0


def _cmd_init(args: argparse.Namespace) -> int:
    from alignbench.labels.init import init_pair

    for path in init_pair(Path(args.root), args.pair, force=args.force, backend=args.backend):
        print(f"wrote {path}")
    return 0


def _tier_and_pair(found: TierPair | Path, labels: dict[str, Any]) -> tuple[str, str]:
    if isinstance(found, TierPair):
        return found.tier, found.pair
    return str(labels["tier"]), str(labels["pair"])


def _cmd_moves(args: argparse.Namespace) -> int:
    root = Path(args.root)
    found = resolve_pair(root, args.pair)
    labels = load_labels(_labels_path(found))
    tier, pair = _tier_and_pair(found, labels)
    sys.stdout.write(render_moves(engine_moves(root, tier, pair, labels)))
    return 0


def _cmd_rule(args: argparse.Namespace) -> int:
    root = Path(args.root)
    path = _labels_path(resolve_pair(root, args.pair))
    updated = record_ruling(
        load_labels(path), path, args.disagreement, args.ruling, args.reason, parse_by(args.by)
    )
    if updated["review"]["signatures"]:
        print(f"{path}: content changed, dropping the signatures; sign again", file=sys.stderr)
        updated["review"] = {**updated["review"], "signatures": []}
    write_text(path, dump_labels(updated))
    print(f"{path}: {args.disagreement} ruled {args.ruling}")
    return 0


def _cmd_verdict(args: argparse.Namespace) -> int:
    root = Path(args.root)
    found = resolve_pair(root, args.pair)
    path = _labels_path(found)
    labels = load_labels(path)
    tier, pair = _tier_and_pair(found, labels)
    moves = engine_moves(root, tier, pair, labels)
    updated, versions = record_verdict(
        labels, moves, args.source, args.test, args.verdict, args.reason, parse_by(args.by)
    )
    write_text(path, dump_labels(updated))  # signatures stand: they do not cover verdicts (labels.sign)
    print(f"{path}: {args.verdict} for {args.source} -> {args.test} at {', '.join(versions)}")
    return 0


def register(subparsers: Any) -> None:
    """Add ``label`` and its sub-commands to the top-level ``alignbench`` parser."""
    label = subparsers.add_parser(
        "label",
        help="label files: init, sheet, compile, check, sign, blind, agree, ...",
        epilog=EXIT_STATUS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    verbs = label.add_subparsers(dest="label_command", required=True)

    def verb(name: str, help_text: str) -> argparse.ArgumentParser:
        parser = verbs.add_parser(
            name,
            help=help_text,
            epilog=EXIT_STATUS_HELP,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        parser.add_argument("--root", default=".", help="repository root (default: current directory)")
        return parser

    p = verb("init", "seed a draft labels.yaml + worksheets for a real pair from the engine")
    p.add_argument("pair", help="real pair id (a directory under corpus/real)")
    p.add_argument("--force", action="store_true", help="replace an existing labels.yaml")
    p.add_argument("--backend", default="auto", help="similarity backend (default: auto)")
    p.set_defaults(func=_cmd_init)

    p = verb("sheet", "write a plain-text decision sheet for a real pair (edit it, then `label compile`)")
    p.add_argument("pair", help="real pair id (or, without --blank, a path to its labels.yaml)")
    p.add_argument(
        "--blank",
        action="store_true",
        help="blind-pass scaffold with no decisions, from the two documents only "
        "(default out: blind-sheet.txt)",
    )
    p.add_argument("--out", help="where to write (default: corpus/labels/real/<pair>/sheet.txt)")
    p.set_defaults(func=_cmd_sheet)

    p = verb("compile", "compile a decision sheet (or a review page export) into a labels.yaml")
    p.add_argument("pair", help="real pair id (a directory under corpus/real)")
    p.add_argument("sheet", nargs="?", help="the edited sheet (not with --from)")
    p.add_argument("--by", help="who labelled: human:ID or agent:ID (with a sheet)")
    p.add_argument(
        "--from",
        dest="decisions",
        help="a decisions.json exported by `alignbench review PAIR` (instead of a sheet)",
    )
    p.add_argument(
        "--draft",
        help="labels.yaml the sheet was made from; unchanged rows are confirmed, "
        "changed or added ones corrected",
    )
    p.add_argument(
        "--out",
        help="where to write (default: corpus/labels/real/<pair>/labels.yaml with --draft, "
        "blind-labels.yaml without)",
    )
    p.add_argument("--force", action="store_true", help="without --draft, replace an existing --out file")
    p.add_argument(
        "--as-reviewer",
        nargs="?",
        const=True,
        default=False,
        metavar="KIND:ID",
        help="with a sheet: you correct another labeller's file (keep labelled_by, add you to "
        "reviewed_by); with --from: the reviewer who made the export, who signs it (human:NAME)",
    )
    p.set_defaults(func=_cmd_compile)

    p = verb("export", "write a pair's labels as span-anchored JSONL for annotation workbenches")
    p.add_argument("pair", help="pair id or path to labels.yaml")
    p.add_argument("--format", choices=("spans",), required=True, help="spans: seed 002's JSONL shape")
    p.add_argument("--out", help="where to write (default: standard output)")
    p.add_argument("--force", action="store_true", help="let --out replace a labels file or a document")
    p.set_defaults(func=_cmd_export)

    p = verb("import", "validate span-anchored JSONL and read it back into the pair's labels.yaml")
    p.add_argument("pair", help="pair id or path to labels.yaml")
    p.add_argument("file", help="the JSONL file (from `label export --format spans` or a workbench)")
    p.set_defaults(func=_cmd_import)

    p = verb("rule", "record an adjudicator's ruling on one disagreement of agreement.json")
    p.add_argument("pair", help="pair id or path to labels.yaml")
    p.add_argument("disagreement", help="the disagreement id (x-...) from agreement.json")
    p.add_argument("--ruling", required=True, choices=RULINGS, help="a = primary, b = blind, neither")
    p.add_argument("--reason", required=True, help="why, against the text")
    p.add_argument("--by", required=True, help="the adjudicator: human:ID or agent:ID")
    p.set_defaults(func=_cmd_rule)

    p = verb(
        "check",
        "check labels against the documents: schema, digests, totality, signatures "
        "(--all: also every planned pair present); exit 1 when a check fails",
    )
    p.add_argument("pair", nargs="?", help="pair id or path to labels.yaml")
    p.add_argument("--all", action="store_true", help="check every pair of every tier")
    p.add_argument("--reviewed", action="store_true", help="also fail while any row is still proposed")
    p.set_defaults(func=_cmd_check)

    p = verb("moves", "list every engine move on a pair: labelled, ruled on, or unreviewed")
    p.add_argument("pair", help="pair id or path to labels.yaml")
    p.set_defaults(func=_cmd_moves)

    p = verb("verdict", "rule on an engine move the labels do not contain (for every engine version)")
    p.add_argument("pair", help="pair id or path to labels.yaml")
    p.add_argument("source", help="source address of the move, as `label moves` prints it")
    p.add_argument("test", help="test address of the move, as `label moves` prints it")
    p.add_argument("--verdict", required=True, choices=VERDICTS)
    p.add_argument("--reason", required=True, help="why; it is read in the pull request")
    p.add_argument("--by", required=True, help="who rules: human:ID or agent:ID")
    p.set_defaults(func=_cmd_verdict)

    p = verb("sign", "sign a fully reviewed labels.yaml")
    p.add_argument("pair", help="pair id or path to labels.yaml")
    p.add_argument("--as", dest="signer", required=True, help="your id (no spaces)")
    p.add_argument("--kind", required=True, choices=SIGNER_KINDS)
    p.add_argument("--role", required=True, choices=ROLES)
    p.set_defaults(func=_cmd_sign)

    p = verb("reanchor", "re-map addresses by digest after a document or reader change")
    p.add_argument("pair", help="pair id or path to labels.yaml")
    p.set_defaults(func=_cmd_reanchor)

    p = verb("agree", "agreement of labelling B against labelling A of the same pair")
    p.add_argument("a", help="labels.yaml of the first labelling")
    p.add_argument("b", help="labels.yaml of the second (blind) labelling")
    p.add_argument("--json", help="also write the report as JSON here")
    p.add_argument("--table", help="also write the Markdown table here")
    p.add_argument(
        "--blind-dir",
        help="the directory `label blind` made for B: checked, and its file hashes recorded in the report",
    )
    p.set_defaults(func=_cmd_agree)

    p = verb("blind-draw", "recompute the stratified blind subset from the labels (see labels.stratify)")
    p.add_argument("--write", action="store_true", help="write corpus/labels/real/blind-subset.yaml")
    p.set_defaults(func=_cmd_blind_draw)

    p = verb("blind", "make a fresh directory holding only the two documents and a blank sheet")
    p.add_argument("pair", help="real pair id (a directory under corpus/real)")
    p.add_argument("--dir", required=True, help="a new or empty directory for the blind labeller")
    p.set_defaults(func=_cmd_blind)
