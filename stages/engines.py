"""DVC stages `align@<name>`, `floor`, `peers` and `plugins`: registered engines over every labelled pair.

`python stages/engines.py NAME...` runs the named engines; `--third-party` runs every engine that
params.yaml `engines:` selects and another distribution ships (isolated, see docs/ENGINES.md) and
writes `results/engines/index.json`, the record of what ran and which pairs failed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from alignbench.engines.stage import run_named, run_third_party
from alignbench.errors import AlignbenchError, exit_code
from alignbench.fanout import batch_gc
from alignbench.provenance import verify_corpus

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    batch_gc()
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("engines", nargs="*", help="registered engine names")
    parser.add_argument("--third-party", action="store_true", help="every selected third-party engine")
    args = parser.parse_args(argv)
    if bool(args.engines) == args.third_party:
        parser.error("name engines or pass --third-party, not both")
    try:
        verify_corpus(ROOT)  # refuse a mixed, stale or edited corpus (alignbench.manifest)
        lines = run_third_party(ROOT) if args.third_party else run_named(ROOT, args.engines)
    except AlignbenchError as exc:
        print(f"engines: error: {exc}", file=sys.stderr)
        return exit_code(exc)
    for line in lines:
        print(f"engines: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
