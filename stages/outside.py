"""DVC stage `outside`: the outside-corpus set's per-pair counts (issue 11), for REPORT.md.

Reads tests/outside/<pair>/ (documents, SOURCE.yaml, facts.yaml), aligns each pair with the default
configuration and writes results/outside.json. The facts themselves are asserted by
tests/test_outside_set.py in CI, not here. Exit 0 ok, 2 input error.
"""

from __future__ import annotations

import sys
from pathlib import Path

from alignbench.atomic import write_json
from alignbench.errors import AlignbenchError
from alignbench.outside import OUTSIDE_DIR, summarise_set

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = "results/outside.json"


def main(root: Path = ROOT) -> int:
    try:
        summary = summarise_set(root / OUTSIDE_DIR)
    except AlignbenchError as exc:
        print(f"outside: error: {exc}", file=sys.stderr)
        return 2
    write_json(root / OUTPUT, summary)
    totals = summary["totals"]
    print(
        f"outside: {len(summary['pairs'])} pairs, {totals['links']} links, {totals['moves']} moves, "
        f"{totals['bullet_renumbers']} bullet or empty renumbers; {OUTPUT} written"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
