"""DVC stage ``label_check``: every label file of every tier must pass before anything is aligned.

Writes ``results/labels.json`` on success; on any problem, lists every problem of every pair and exits
non-zero without writing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from alignbench.atomic import write_json
from alignbench.errors import AlignbenchError
from alignbench.labels.check import format_problems
from alignbench.labels.pipeline import build_summary, check_all

OUTPUT = "results/labels.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=".", help="repository root (default: current directory)")
    parser.add_argument("--output", default=OUTPUT, help=f"summary path under the root (default: {OUTPUT})")
    args = parser.parse_args(argv)
    root = Path(args.root)
    try:
        results = check_all(root)
        failed = [r for _, _, _, r in results if not r.ok]
        for result in failed:
            print(format_problems(result), file=sys.stderr)
        if failed:
            raise AlignbenchError(
                f"label check failed for {len(failed)} of {len(results)} pair(s); {OUTPUT} not written"
            )
        write_json(root / args.output, build_summary(results, root))
    except AlignbenchError as exc:
        print(f"label_check: error: {exc}", file=sys.stderr)
        return 1
    print(f"label_check: {len(results)} pair(s) passed; wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
