"""``alignbench evaluate`` and ``alignbench bundle``: the engine author's commands (docs/ENGINES.md)."""

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
    bundle = subparsers.add_parser(
        "bundle",
        help="pack the corpus data artefact that `evaluate --corpus` reads",
        description="Pack params.yaml and every labelled pair with its documents into one deterministic "
        ".tar.gz (run in a checkout after `dvc repro`); prints its sha256.",
    )
    bundle.add_argument("out", type=Path)
    bundle.set_defaults(func=_bundle)


def _evaluate(args: argparse.Namespace) -> int:
    from alignbench.engines.evaluate import evaluate, text_table

    out = args.out or Path(f"evaluation-{args.engine}")
    evaluation = evaluate(args.engine, args.tier, args.corpus, out)
    print(text_table(evaluation))
    print(f"wrote {out}/summary.html, {out}/summary.json and {out}/pairs/")
    return 0


def _bundle(args: argparse.Namespace) -> int:
    from alignbench.engines.bundle import pack

    digest = pack(Path("."), args.out)
    print(f"{args.out}: sha256 {digest}")
    return 0
