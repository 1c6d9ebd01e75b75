"""DVC stage `align@<backend>`: align every labelled pair with one similarity backend."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from alignbench.errors import AlignbenchError, exit_code
from alignbench.fanout import batch_gc
from alignbench.provenance import verify_corpus
from alignbench.runs import BACKENDS, align_all

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    batch_gc()
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backend", required=True, choices=BACKENDS)
    args = parser.parse_args(argv)
    try:
        verify_corpus(ROOT)  # refuse a mixed, stale or edited corpus (alignbench.manifest)
        written = align_all(ROOT, args.backend)
    except AlignbenchError as exc:
        print(f"align: error: {exc}", file=sys.stderr)
        return exit_code(exc)
    print(f"align@{args.backend}: {len(written)} pairs written to results/alignments/{args.backend}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
