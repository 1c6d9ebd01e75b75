"""Time per pair for every registered engine on a fixed sample: ``python -m alignbench.peers.timing``.

A duration is not reproducible, so it never enters a committed output; this command prints it for a
person to read and quote. The sample is every ``--every``-th pair in :func:`alignbench.tiers.discover`
order (deterministic), reading is excluded from the timed call, and each engine gets one untimed
warm-up call first (Docxodus starts its host process on the first call).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from alignbench.engines.registry import engine_params, info, roster
from alignbench.errors import AlignbenchError
from alignbench.runs import LoadedPair, load_pair
from alignbench.tiers import discover


def timed_engines() -> tuple[str, ...]:
    """Every registered engine that has a stage output (the calibration rows are the scorer's)."""
    engines = roster()
    return (*engines.headline, *engines.peers)


def sample_pairs(root: Path, every: int) -> list[LoadedPair]:
    if every < 1:
        raise AlignbenchError(f"--every must be a positive integer, got {every}")
    return [load_pair(root, tp) for tp in discover(root)[::every]]


def engine_call(root: Path, engine: str) -> Callable[[LoadedPair], Any]:
    from alignbench.engines.run import read_all_params

    params = engine_params(engine, read_all_params(root))
    function = info(engine).engine.align
    return lambda loaded: function(loaded.source, loaded.test, params)


def median_ms(call: Callable[[LoadedPair], Any], pairs: Sequence[LoadedPair]) -> tuple[float, float]:
    """(median, max) milliseconds per pair; the first pair is run once untimed as a warm-up."""
    call(pairs[0])
    times = []
    for loaded in pairs:
        start = time.perf_counter()
        call(loaded)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m alignbench.peers.timing", description=__doc__)
    parser.add_argument("--every", type=int, default=10, help="time every N-th pair (default 10)")
    parser.add_argument("--engine", choices=timed_engines(), action="append", help="only this engine")
    parser.add_argument("--root", default=".", help="repository root (default: current directory)")
    args = parser.parse_args(argv)
    root = Path(args.root)
    engines = [e for e in timed_engines() if not args.engine or e in args.engine]
    try:
        pairs = sample_pairs(root, args.every)
        if not pairs:
            raise AlignbenchError(f"{root}: no labelled pairs found; run `dvc repro` first")
        blocks = statistics.median(len(p.source) + len(p.test) for p in pairs)
        print(f"sample: {len(pairs)} pairs (every {args.every}-th pair), median {blocks:.0f} blocks per pair")
        for engine in engines:
            median, worst = median_ms(engine_call(root, engine), pairs)
            print(f"{engine:>10}: median {median:8.1f} ms per pair, max {worst:8.1f} ms")
    except AlignbenchError as exc:
        print(f"timing: error: {exc}", file=sys.stderr)
        return 1
    finally:
        for engine in engines:  # an engine that started a host process stops it
            close = getattr(info(engine).engine, "close", None)
            if close is not None:
                close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
