"""Run one Python command under two hash seeds at once (both are mostly interpreter start-up): a
determinism check compares their standard outputs, which must not depend on ``hash()`` order."""

from __future__ import annotations

import os
import subprocess
import sys

SEEDS: tuple[str, ...] = ("1", "4242")


def outputs_under_hash_seeds(args: list[str] | dict[str, list[str]]) -> list[str]:
    """Standard output of ``python *args`` per seed; ``args`` may also map a seed to its own args."""
    procs = [
        subprocess.Popen(
            [sys.executable, *(args[seed] if isinstance(args, dict) else args)],
            env={**os.environ, "PYTHONHASHSEED": seed},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seed in SEEDS
    ]
    outputs = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        outputs.append(out)
    return outputs
