"""DVC stage ``prepare``: rebuild corpus/real from corpus/pairs.yaml and the verified raw files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from alignbench.corpus.prepare import REAL_DIR, prepare
from alignbench.errors import AlignbenchError
from alignbench.fanout import batch_gc


def main(argv: list[str] | None = None) -> int:
    batch_gc()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=".", help="repository root (default: .)")
    args = parser.parse_args(argv)
    try:
        manifests = prepare(Path(args.root))
    except AlignbenchError as exc:
        print(f"prepare: error: {exc}", file=sys.stderr)
        return 2
    controls = sum(1 for m in manifests if m["control"])
    print(f"prepare: wrote {len(manifests)} pairs ({controls} negative controls) into {REAL_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
