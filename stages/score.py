"""DVC stage `score`: metrics, tables and plots from the committed engine and floor outputs."""

from __future__ import annotations

import sys
from pathlib import Path

from alignbench.errors import AlignbenchError
from alignbench.score.write import gate_lines, score_repository

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    try:
        latest = score_repository(ROOT)
    except AlignbenchError as exc:
        print(f"score: error: {exc}", file=sys.stderr)
        return 1
    for line in gate_lines(latest):
        print(f"score: gate {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
