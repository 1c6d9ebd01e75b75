"""DVC stage ``fetch``: verify every file in corpus/sources.yaml; write results/fetch.json."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from alignbench.corpus.fetch import MIRROR_ENV, RESULT_FILE, fetch
from alignbench.errors import AlignbenchError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=".", help="repository root (default: .)")
    parser.add_argument("--mirror", help=f"directory laid out like corpus/raw (default: ${MIRROR_ENV})")
    parser.add_argument(
        "--online", action="store_true", help="allow downloading missing files from their url"
    )
    args = parser.parse_args(argv)
    try:
        records = fetch(Path(args.root), mirror=args.mirror, online=args.online)
    except AlignbenchError as exc:
        print(f"fetch: error: {exc}", file=sys.stderr)
        return 2
    obtained = sum(1 for r in records if r["status"] != "verified")
    print(f"fetch: {len(records)} files verified ({obtained} obtained this run); wrote {RESULT_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
