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


def _cmd_migrate_moves(args: argparse.Namespace) -> int:
    from alignbench.labels.fastload import parse_labels_text
    from alignbench.labels.migrate import migrate_moves, rekey_verdicts
    from alignbench.yamlload import read_text

    root = Path(args.root)
    if args.pairs:
        paths = [_labels_path(resolve_pair(root, pair)) for pair in args.pairs]
    else:
        paths = []
        for tp in discover(root, ("real",)):
            blind = tp.labels_path.parent / "blind-labels.yaml"  # the blind pass follows the same rule
            paths.extend([tp.labels_path, *([blind] if blind.is_file() else [])])
    for path in paths:
        # Parsed without the schema: a file from before verdicts were keyed by move fails it until
        # this very command has re-keyed them (dump_labels validates what is written).
        data = parse_labels_text(read_text(path), str(path))
        sides = open_pair(data, root)
        rekeyed, before, after = rekey_verdicts(data, sides)
        migrated, changed = migrate_moves(rekeyed, sides)
        rekeyed = migrated
        if not changed and before == after and rekeyed["move_verdicts"] == data["move_verdicts"]:
            print(f"{path}: move flags already follow the rule; verdicts already keyed by move")
            continue
        write_text(path, dump_labels(rekeyed))
        moves_out = sum(1 for c in changed if c["from"] == "move")
        moves_in = sum(1 for c in changed if c["to"] == "move")
        print(
            f"{path}: {len(changed)} row kind(s) changed, {moves_out} move flag(s) removed and {moves_in} "
            f"added (recorded in migrations; signatures carried); verdict rows {before} -> {after}"
        )
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
    sides = open_pair(labels, root)
    updated, versions = record_verdict(
        labels,
        moves,
        args.source,
        args.test,
        args.verdict,
        args.reason,
        parse_by(args.by),
        (sides["source"].tree, sides["test"].tree),
    )
    write_text(path, dump_labels(updated))  # signatures stand: they do not cover verdicts (labels.sign)
    print(f"{path}: {args.verdict} for {args.source} -> {args.test} (reported by {', '.join(versions)})")
    return 0


LABEL_DESCRIPTION = """\
The benchmark's label files (corpus/labels/..., labels.yaml): which clause of the old version became
which clause of the new one, as decided by a labeller. These commands start a labelling, turn a
reviewer's decisions into labels, check them, sign them and exchange them with annotation tools.
docs/LABELLING.md walks through the whole procedure.

A PAIR is a pair's name (as `alignbench label check --all` lists them; write tier/name when two
tiers have it) or the path of its labels.yaml.
"""


def register(subparsers: Any) -> None:
    """Add ``label`` and its sub-commands to the top-level ``alignbench`` parser."""
    label = subparsers.add_parser(
        "label",
        help="make, check, sign and exchange the benchmark's label files",
        description=LABEL_DESCRIPTION,
        epilog=EXIT_STATUS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    verbs = label.add_subparsers(dest="label_command", required=True)

    def verb(name: str, help_text: str) -> argparse.ArgumentParser:
        parser = verbs.add_parser(
            name,
            help=help_text,
            description=help_text[0].upper() + help_text[1:] + ".",
            epilog=EXIT_STATUS_HELP,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        parser.add_argument(
            "--root", default=".", help="the alignbench checkout to work in (default: the current directory)"
        )
        return parser

    p = verb(
        "init", "start labelling a real pair: a draft labels.yaml proposed by the engine, and worksheets"
    )
    p.add_argument("pair", help="the pair's name (a directory under corpus/real)")
    p.add_argument("--force", action="store_true", help="replace an existing labels.yaml")
    p.add_argument(
        "--backend",
        default="auto",
        help="how the engine finds similar clauses: rapidfuzz, difflib or auto (default: auto)",
    )
    p.set_defaults(func=_cmd_init)

    p = verb("sheet", "write a plain-text decision sheet for a pair (edit it, then run `label compile`)")
    p.add_argument("pair", help="the pair's name (or, without --blank, the path of its labels.yaml)")
    p.add_argument(
        "--blank",
        action="store_true",
        help="an empty sheet made from the two documents only, for a second labeller who must not "
        "see the first one's decisions (default file: blind-sheet.txt)",
    )
    p.add_argument("--out", help="where to write (default: corpus/labels/real/<pair>/sheet.txt)")
    p.set_defaults(func=_cmd_sheet)

    p = verb(
        "compile",
        "turn an edited decision sheet, or the decisions saved from the review page, into a labels.yaml",
    )
    p.add_argument(
        "pair",
        help="the pair's name (a directory under corpus/real); with --from also the labels file that "
        "`alignbench review OLD NEW` wrote",
    )
    p.add_argument("sheet", nargs="?", help="the edited decision sheet (or use --from)")
    p.add_argument("--by", help="who labelled: human:ID or agent:ID (with a sheet)")
    p.add_argument(
        "--from",
        dest="decisions",
        help="the decisions file saved from the review page (`alignbench review`), instead of a sheet",
    )
    p.add_argument(
        "--draft",
        help="the labels.yaml the sheet was made from: rows you left as they were are marked confirmed, "
        "rows you changed or added corrected",
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
        help="with a sheet: you correct another labeller's file (keep labelled_by; you join "
        "reviewed_by if you changed a row); with --from: the reviewer who made the export, who signs it "
        "(human:NAME)",
    )
    p.set_defaults(func=_cmd_compile)

    p = verb(
        "export",
        "write a pair's labels as JSON lines of text spans, for annotation tools such as Label Studio",
    )
    p.add_argument("pair", help="the pair's name, or the path of its labels.yaml")
    p.add_argument(
        "--format",
        choices=("spans",),
        required=True,
        help="spans: one JSON object per line, each label anchored to character spans of the two "
        "documents (docs/LABELLING.md describes the fields)",
    )
    p.add_argument("--out", help="where to write (default: standard output)")
    p.add_argument("--force", action="store_true", help="let --out replace a labels file or a document")
    p.set_defaults(func=_cmd_export)

    p = verb(
        "import",
        "read span labels (from `label export` or an annotation tool) back into a pair's "
        "labels.yaml, checking them first",
    )
    p.add_argument("pair", help="the pair's name, or the path of its labels.yaml")
    p.add_argument(
        "file", help="the JSON-lines file, from `label export --format spans` or an annotation tool"
    )
    p.set_defaults(func=_cmd_import)

    p = verb("rule", "record a ruling on one disagreement between two labellers (listed in agreement.json)")
    p.add_argument("pair", help="the pair's name, or the path of its labels.yaml")
    p.add_argument("disagreement", help="the disagreement id (x-...) from agreement.json")
    p.add_argument(
        "--ruling",
        required=True,
        choices=RULINGS,
        help="a: the first labeller is right, b: the second (blind) one is, neither",
    )
    p.add_argument("--reason", required=True, help="why, against the text")
    p.add_argument("--by", required=True, help="the adjudicator: human:ID or agent:ID")
    p.set_defaults(func=_cmd_rule)

    p = verb(
        "check",
        "check label files against their documents: format, that every block is covered, that "
        "the documents did not change, signatures; exit 1 when a check fails",
    )
    p.add_argument("pair", nargs="?", help="the pair's name, or the path of its labels.yaml")
    p.add_argument(
        "--all", action="store_true", help="check every pair, and that every planned pair has labels"
    )
    p.add_argument(
        "--reviewed",
        action="store_true",
        help="also fail while any row is still only proposed (not yet reviewed)",
    )
    p.set_defaults(func=_cmd_check)

    p = verb(
        "moves",
        "list the moves the engine finds in a pair, and whether each is labelled, ruled on "
        "or not yet reviewed",
    )
    p.add_argument("pair", help="the pair's name, or the path of its labels.yaml")
    p.set_defaults(func=_cmd_moves)

    p = verb("verdict", "record whether an engine move that the labels lack is wrong or acceptable")
    p.add_argument("pair", help="the pair's name, or the path of its labels.yaml")
    p.add_argument("source", help="the move's old address, as `label moves` prints it")
    p.add_argument("test", help="the move's new address, as `label moves` prints it")
    p.add_argument("--verdict", required=True, choices=VERDICTS)
    p.add_argument("--reason", required=True, help="why; it is read in the pull request")
    p.add_argument("--by", required=True, help="who rules: human:ID or agent:ID")
    p.set_defaults(func=_cmd_verdict)

    p = verb("sign", "sign a pair's labels once every row is reviewed")
    p.add_argument("pair", help="the pair's name, or the path of its labels.yaml")
    p.add_argument("--as", dest="signer", required=True, help="your name or id (no spaces)")
    p.add_argument("--kind", required=True, choices=SIGNER_KINDS)
    p.add_argument("--role", required=True, choices=ROLES)
    p.set_defaults(func=_cmd_sign)

    p = verb(
        "reanchor",
        "update a pair's labels after its documents or the reader changed, matching blocks by content",
    )
    p.add_argument("pair", help="the pair's name, or the path of its labels.yaml")
    p.set_defaults(func=_cmd_reanchor)

    p = verb(
        "migrate-moves",
        "recompute every move flag by the move rule (a move is a change of place in reading order), "
        "record the change in the file, and key move verdicts by the move",
    )
    p.add_argument("pairs", nargs="*", help="pair names or paths to labels.yaml (default: every real pair)")
    p.set_defaults(func=_cmd_migrate_moves)

    p = verb("agree", "measure how far two labellings of the same pair agree, and list their disagreements")
    p.add_argument("a", help="labels.yaml of the first labelling")
    p.add_argument("b", help="labels.yaml of the second (blind) labelling")
    p.add_argument("--json", help="also write the report as JSON here")
    p.add_argument("--table", help="also write the Markdown table here")
    p.add_argument(
        "--blind-dir",
        help="the directory `label blind` made for B: checked, and its file hashes recorded in the report",
    )
    p.set_defaults(func=_cmd_agree)

    p = verb(
        "blind-draw", "draw again the pairs that get a second, blind labelling (a seeded, stratified draw)"
    )
    p.add_argument("--write", action="store_true", help="write corpus/labels/real/blind-subset.yaml")
    p.set_defaults(func=_cmd_blind_draw)

    p = verb(
        "blind",
        "make a directory holding only a pair's two documents and an empty sheet, for a blind labeller",
    )
    p.add_argument("pair", help="the pair's name (a directory under corpus/real)")
    p.add_argument("--dir", required=True, help="a new or empty directory for the blind labeller")
    p.set_defaults(func=_cmd_blind)
