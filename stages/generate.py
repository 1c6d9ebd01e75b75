"""DVC stage ``generate``: build the synthetic tier from corpus/plans/synthetic.yaml.

``python stages/generate.py`` writes corpus/synthetic and prints the per-plan summary;
``python stages/generate.py --check`` rebuilds into a temporary directory and compares byte for byte.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from alignbench.errors import AlignbenchError, exit_code
from alignbench.fanout import batch_gc
from alignbench.generate.stage import (
    OUT_DIR,
    build_tier,
    check_tier,
    generate_params,
    read_enabled_plans,
    summary_table,
    write_tier,
)
from alignbench.provenance import verify_corpus

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    batch_gc()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare a fresh build with the committed tier")
    args = parser.parse_args(argv)
    try:
        verify_corpus(ROOT, synthetic=False)  # the prepared real tier, exactly as prepare wrote it
        enabled = read_enabled_plans(ROOT)
        if args.check:
            problems = check_tier(ROOT, enabled)
            if problems:
                print(f"{OUT_DIR} is not reproducible ({len(problems)} file(s)):", file=sys.stderr)
                for line in problems[:50]:
                    print(f"  {line}", file=sys.stderr)
                print("re-run: python stages/generate.py", file=sys.stderr)
                return 1
            print(f"{OUT_DIR}: reproduces byte for byte")
            return 0
        results = build_tier(ROOT, enabled)
        write_tier(results, ROOT / OUT_DIR, generate_params(ROOT))
        print(summary_table(results))
        return 0
    except AlignbenchError as exc:
        print(f"generate: {exc}", file=sys.stderr)
        return exit_code(exc)


if __name__ == "__main__":
    sys.exit(main())
