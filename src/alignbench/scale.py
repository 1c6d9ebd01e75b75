"""``python -m alignbench.scale --pairs 10000``: an external tier aligned through Dask, in pairs per second.

The tier is generated from a seed into a temporary directory (never committed, removed afterwards):
each pair is a short revised contract (:mod:`alignbench.workloads`) written as two markdown files.
Workers read and align the files themselves, as in the align stage, in batches, and return the JSON;
the run checks that every worker count produced the same bytes. Needs the files on a path every
worker sees: always true for the local clusters this starts, for ``tcp://`` only on a shared filesystem.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from alignbench.alignment.config import BACKENDS as SIMILARITY_BACKENDS
from alignbench.alignment.similarity import resolve_backend
from alignbench.atomic import dump_json
from alignbench.fanout import ENV, map_pairs
from alignbench.workloads import SEED, mutate, sections, to_markdown

BATCH = 25  # pairs per task: a pair aligns in ~5 ms, so one task each would be mostly scheduling


def write_tier(root: Path, n_pairs: int, seed: int = SEED) -> list[tuple[Path, Path]]:
    """``n_pairs`` pairs of 2-6 sections each (18-54 clauses), 10% edited, 2% moved, 2 inserted."""
    rng = random.Random(seed)
    out = []
    for k in range(n_pairs):
        base = sections(rng, rng.randint(2, 6))
        old, new = root / f"pair-{k:05d}" / "source.md", root / f"pair-{k:05d}" / "test.md"
        old.parent.mkdir(parents=True)
        old.write_text(to_markdown(base), encoding="utf-8")
        new.write_text(to_markdown(mutate(rng, base, edited=0.10, moved=0.02, inserted=2)), encoding="utf-8")
        out.append((old, new))
    return out


@dataclass(frozen=True)
class AlignBatch:
    """Read and align a batch of pairs; the Alignment JSON of each, in order."""

    pairs: tuple[tuple[Path, Path], ...]
    backend: str

    def __call__(self) -> list[str]:
        from alignbench.alignment import AlignmentConfig, align
        from alignbench.readers import read

        config = AlignmentConfig(similarity=self.backend)
        return [dump_json(align(read(old), read(new), config).to_dict()) for old, new in self.pairs]


def _run(batch: AlignBatch) -> list[str]:
    return batch()


def align_tier(pairs: Sequence[tuple[Path, Path]], backend: str, setting: str) -> tuple[float, str]:
    """(seconds, sha256 of all outputs in order) for one scheduler setting, cluster start-up included."""
    batches = [AlignBatch(tuple(pairs[i : i + BATCH]), backend) for i in range(0, len(pairs), BATCH)]
    names = [f"scale/pair-{i:05d}..{min(i + BATCH, len(pairs)) - 1:05d}" for i in range(0, len(pairs), BATCH)]
    start = time.perf_counter()
    results = map_pairs(_run, batches, names, "scale", setting)
    seconds = time.perf_counter() - start
    digest = hashlib.sha256("".join(text for batch in results for text in batch).encode("utf-8"))
    return seconds, digest.hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m alignbench.scale", description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000, help="pairs in the generated tier")
    parser.add_argument(
        "--backend", default=resolve_backend("auto"), choices=[b for b in SIMILARITY_BACKENDS if b != "auto"]
    )
    parser.add_argument("--workers", default="1,2", help="LocalCluster worker counts to time (default 1,2)")
    parser.add_argument("--serial", action="store_true", help="also time an in-process run")
    args = parser.parse_args(argv)
    external = os.environ.get(ENV, "")
    settings = [f"local:{n}" for n in args.workers.split(",") if n.strip()]
    if external.startswith("tcp://"):
        settings = [external]
    if args.serial:
        settings.insert(0, "serial")
    with tempfile.TemporaryDirectory(prefix="alignbench-scale-") as tmp:
        start = time.perf_counter()
        pairs = write_tier(Path(tmp), args.pairs)
        print(f"generated {len(pairs):,} pairs in {time.perf_counter() - start:.1f} s ({args.backend})")
        digests = set()
        for setting in settings:
            seconds, digest = align_tier(pairs, args.backend, setting)
            digests.add(digest)
            print(
                f"{setting:>24}: {seconds:7.1f} s, {len(pairs) / seconds:8.1f} pairs/s, sha256 {digest[:12]}"
            )
        print("outputs identical across settings" if len(digests) == 1 else "OUTPUTS DIFFER across settings")
        return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
