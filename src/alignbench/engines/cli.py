"""``alignbench evaluate``: the engine author's one command (docs/ENGINES.md)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    evaluate = subparsers.add_parser(
        "evaluate",
        help="score one registered engine beside ours and the floor",
        description="Run ENGINE on the chosen tiers, print the headline beside our engine and the floor "
        "with bootstrap intervals; write OUT/pairs/<tier>/<pair>.json, OUT/summary.json, OUT/summary.html.",
    )
    evaluate.add_argument("engine", help="a registered engine name (entry point group alignbench.engines)")
    evaluate.add_argument("--tier", choices=("real", "synthetic", "all"), default="all")
    evaluate.add_argument("--corpus", help="a checkout directory or the corpus bundle .tar.gz (default: .)")
    evaluate.add_argument("--out", type=Path, help="output directory (default: evaluation-ENGINE)")
    evaluate.set_defaults(func=_evaluate)


def _evaluate(args: argparse.Namespace) -> int:
    from alignbench.engines.evaluate import evaluate, text_table

    out = args.out or Path(f"evaluation-{args.engine}")
    evaluation = evaluate(args.engine, args.tier, args.corpus, out)
    print(text_table(evaluation))
    print(f"wrote {out}/summary.html, {out}/summary.json and {out}/pairs/")
    return 0
