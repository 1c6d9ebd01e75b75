"""Time per pair for every engine on a fixed sample: ``python -m alignbench.peers.timing``.

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

from alignbench.blocks import BlockTree
from alignbench.errors import AlignbenchError
from alignbench.peers import PEER_ENGINES
from alignbench.runs import BACKENDS, LoadedPair, align_loaded, alignment_config, load_pair, read_params
from alignbench.tiers import discover

ALL_ENGINES: tuple[str, ...] = ("floor", *BACKENDS, *PEER_ENGINES)


def sample_pairs(root: Path, every: int) -> list[LoadedPair]:
    if every < 1:
        raise AlignbenchError(f"--every must be a positive integer, got {every}")
    return [load_pair(root, tp) for tp in discover(root)[::every]]


def engine_call(root: Path, engine: str) -> Callable[[LoadedPair], Any]:
    if engine == "floor":
        from alignbench.floor import floor_alignment

        return lambda loaded: floor_alignment(loaded.source, loaded.test)
    if engine in BACKENDS:
        config = alignment_config(read_params(root, "align"), engine)
        return lambda loaded: align_loaded(loaded, config)
    from alignbench.peers.run import engine_function

    function: Callable[[BlockTree, BlockTree], Any] = engine_function(engine)
    return lambda loaded: function(loaded.source, loaded.test)


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
    parser.add_argument("--engine", choices=ALL_ENGINES, action="append", help="only this engine")
    parser.add_argument("--root", default=".", help="repository root (default: current directory)")
    args = parser.parse_args(argv)
    root = Path(args.root)
    engines = [e for e in ALL_ENGINES if not args.engine or e in args.engine]
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
        if "docxodus" in engines:
            from alignbench.peers.run import stop_docxodus_host

            stop_docxodus_host()
    return 0


if __name__ == "__main__":
    sys.exit(main())
