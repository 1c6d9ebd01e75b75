"""``python -m alignbench.floorcheck [--tier T]... [--backend B] [--show N] [--json OUT]``, and
``--wild [--dest external/pga] [--limit N]`` for the wild run's pairs (development only);
``--min-similarity X`` explores another threshold than params.yaml's.

Prints the violation count per tier (or for the wild sample), the counts by kind, and the first
``--show`` violations. Exit 0 when there are none, 1 when there are, 2 for a usage or input error.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from alignbench.alignment.config import BACKENDS
from alignbench.errors import AlignbenchError
from alignbench.floorcheck.consistency import Violation
from alignbench.floorcheck.run import DEFAULT_BACKEND
from alignbench.tiers import TIERS

DEFAULT_WILD = Path("external/pga")


def format_counts(title: str, violations: list[Violation]) -> str:
    kinds = Counter(v.kind for v in violations)
    pairs = len({v.pair for v in violations})
    by_kind = ", ".join(f"{kind} {kinds[kind]}" for kind in sorted(kinds)) or "none"
    return f"{title}: {len(violations)} violations in {pairs} pairs ({by_kind})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m alignbench.floorcheck", description=__doc__)
    parser.add_argument("--tier", action="append", choices=TIERS, help="a tier (repeatable; default all)")
    parser.add_argument(
        "--backend", choices=BACKENDS, default=DEFAULT_BACKEND, help="the engine's similarity backend"
    )
    parser.add_argument("--show", type=int, default=10, help="print the first N violations (default 10)")
    parser.add_argument("--json", type=Path, default=None, help="write every violation to this JSON file")
    parser.add_argument("--wild", action="store_true", help="the wild run's pairs instead (docs/WILD.md)")
    parser.add_argument("--dest", type=Path, default=DEFAULT_WILD, help="the wild import folder")
    parser.add_argument("--limit", type=int, default=None, help="wild: at most N pairs, spread evenly")
    parser.add_argument("--workers", type=int, default=None, help="wild: fork N workers")
    parser.add_argument("--root", type=Path, default=Path("."), help="the repository (default .)")
    parser.add_argument(
        "--min-similarity", type=float, default=None, help="explore another threshold than params.yaml's"
    )
    args = parser.parse_args(argv)
    try:
        if args.show < 0 or (args.limit is not None and args.limit < 0):
            raise AlignbenchError("--show and --limit take a number, 0 or more")
        if args.min_similarity is not None and not 0.0 <= args.min_similarity <= 1.0:
            raise AlignbenchError(f"--min-similarity {args.min_similarity}: give a number from 0 to 1")
        from alignbench.floorcheck.run import Settings, check_tiers, check_wild, read_settings

        settings = read_settings(args.root)
        if args.min_similarity is not None:
            settings = Settings(args.min_similarity, settings.align)
        if args.wild:
            setting = f"fork:{args.workers}" if args.workers else None
            run, found = check_wild(args.root, args.dest, args.limit, args.backend, setting, settings)
            groups = {f"wild ({run} pairs)": found}
        else:
            groups = check_tiers(args.root, args.tier or TIERS, args.backend, settings)
        everything = [v for title in groups for v in groups[title]]
        for title in groups:
            print(format_counts(title, groups[title]))
        for violation in everything[: args.show]:
            print(violation.describe())
        if args.json is not None:
            from alignbench.atomic import write_json

            write_json(args.json, [v.to_dict() for v in everything])
    except AlignbenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 1 if everything else 0


if __name__ == "__main__":
    sys.exit(main())
