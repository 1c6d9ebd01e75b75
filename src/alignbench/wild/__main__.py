"""``python -m alignbench.wild import SRC``, then ``python -m alignbench.wild run [--limit N]``.

See the package docstring and docs/WILD.md."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from alignbench.atomic import write_json
from alignbench.errors import AlignbenchError

DEFAULT_DEST = Path("external/pga")
DEFAULT_REPORT = Path("external/wild.json")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m alignbench.wild", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    imp = commands.add_parser("import", help="copy a document history (a git clone) into external/pga")
    imp.add_argument("source", type=Path, help="a clone (work tree or bare) of OpenTermsArchive/pga-versions")
    imp.add_argument("--dest", type=Path, default=DEFAULT_DEST)
    imp.add_argument("--rev", default="HEAD", help="the commit whose history to import (default HEAD)")
    go = commands.add_parser("run", help="read and align every consecutive revision pair")
    go.add_argument("--dest", type=Path, default=DEFAULT_DEST, help="the import folder")
    go.add_argument("--limit", type=int, default=None, help="run at most N pairs, spread evenly")
    go.add_argument(
        "--workers", type=int, default=None, help="fork N workers (default: ALIGNBENCH_SCHEDULER)"
    )
    go.add_argument("--report", type=Path, default=DEFAULT_REPORT, help="where to write the JSON report")
    args = parser.parse_args(argv)
    try:
        if args.command == "import":
            from alignbench.wild.history import import_history

            revisions = import_history(args.source, args.dest, args.rev)
            documents = len({r.document for r in revisions})
            print(f"imported {len(revisions)} revisions of {documents} documents into {args.dest}")
            return 0
        if args.limit is not None and args.limit < 0:
            raise AlignbenchError(f"--limit {args.limit}: give a number of pairs, 0 or more")
        from alignbench.wild.run import format_summary, run

        setting = f"fork:{args.workers}" if args.workers else None
        report = run(args.dest, args.limit, setting)
        write_json(args.report, report)
        print(format_summary(report))
        return 1 if report["crashes"] or report["noloss_violations"] else 0
    except AlignbenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
