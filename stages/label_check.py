"""DVC stage ``label_check``: every label file of every tier must pass before anything is aligned.

Expects every real pair of corpus/pairs.yaml and every synthetic pair of the plans enabled in
params.yaml to have a labels.yaml, and every one of them to pass. Writes ``results/labels.json`` only
on success. Exit 0 ok, 1 checks failed, 2 input error; on failure no labels.json is left behind.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from alignbench.atomic import sweep_temporaries, write_json
from alignbench.errors import AlignbenchError, CheckFailed, exit_code
from alignbench.fanout import batch_gc
from alignbench.labels.check import format_problems
from alignbench.labels.completeness import (
    blind_subset_problems,
    completeness_problems,
    expected_pairs,
    require_checkout,
)
from alignbench.labels.pipeline import build_summary, check_all, real_labels
from alignbench.provenance import verify_corpus
from alignbench.tiers import discover

OUTPUT = "results/labels.json"


def _no_stale_output(output: Path, shown: str) -> str:
    """What is true of the output after a failure: a stale one is removed so nothing scores on it."""
    if output.is_file():
        output.unlink()
        return f"removed the stale {shown} (it described an earlier run) so no later stage uses it"
    return f"{shown} does not exist and was not written"


def main(argv: list[str] | None = None) -> int:
    batch_gc()
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="exit status: 0 ok, 1 checks failed, 2 usage or input error",
    )
    parser.add_argument("--root", default=".", help="repository root (default: current directory)")
    parser.add_argument("--output", default=OUTPUT, help=f"summary path under the root (default: {OUTPUT})")
    args = parser.parse_args(argv)
    root = Path(args.root)
    output = root / args.output
    for leftover in sweep_temporaries(output):
        print(f"label_check: removed {leftover.name}, left by an interrupted earlier run", file=sys.stderr)
    try:
        require_checkout(root)
        read = verify_corpus(root)  # both tiers exactly as prepare and generate wrote them, at these params
        expected = expected_pairs(root)
        print(f"label_check: {expected.statement()}")
        incomplete = completeness_problems(expected, discover(root))
        results = check_all(root)
        incomplete += blind_subset_problems(root, expected, real_labels(results))
        failed = [r for _, _, _, r in results if not r.ok]
        for result in failed:
            print(format_problems(result), file=sys.stderr)
        for problem in incomplete:
            print(f"label_check: incomplete: {problem}", file=sys.stderr)
        if failed or incomplete:
            raise CheckFailed(
                f"label check failed for {len(failed)} of {len(results)} pair(s)"
                + (f" and {len(incomplete)} completeness problem(s)" if incomplete else "")
            )
        write_json(output, {**build_summary(results, root), "inputs": read})  # which corpus it passed
    except AlignbenchError as exc:
        print(f"label_check: error: {exc}; {_no_stale_output(output, args.output)}", file=sys.stderr)
        return exit_code(exc)
    print(f"label_check: {len(results)} pair(s) passed; wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
