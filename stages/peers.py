"""DVC stage `peers` (frozen, optional extra): xmldiff and Docxodus on every labelled pair."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from alignbench.errors import AlignbenchError, exit_code
from alignbench.peers import PEER_ENGINES
from alignbench.peers.run import run_peers

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--engine", choices=PEER_ENGINES, action="append", help="run only this peer (repeatable)"
    )
    args = parser.parse_args(argv)
    engines = tuple(sorted(set(args.engine))) if args.engine else PEER_ENGINES
    try:
        counts = run_peers(ROOT, engines)
    except AlignbenchError as exc:
        print(f"peers: error: {exc}", file=sys.stderr)
        return exit_code(exc)
    for engine, n in counts.items():
        print(f"peers: {engine}: {n} pairs written to results/peers/{engine}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
