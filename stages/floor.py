"""DVC stage `floor`: the flat redlines 0.6.2 engine on every labelled pair, lifted to block pairs."""

from __future__ import annotations

import sys
from pathlib import Path

import alignbench.floor.engine  # noqa: F401 - imported once here, not once per forked worker
from alignbench.errors import AlignbenchError, exit_code
from alignbench.fanout import batch_gc
from alignbench.provenance import verify_corpus
from alignbench.runs import floor_all

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    batch_gc()
    try:
        verify_corpus(ROOT)  # refuse a mixed, stale or edited corpus (alignbench.manifest)
        written = floor_all(ROOT)
    except AlignbenchError as exc:
        print(f"floor: error: {exc}", file=sys.stderr)
        return exit_code(exc)
    print(f"floor: {len(written)} pairs written to results/floor")
    return 0


if __name__ == "__main__":
    sys.exit(main())
