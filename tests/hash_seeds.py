"""Run one Python command in a fresh interpreter under a hash seed other than this process's: a
determinism check compares its standard output with what this process computes itself, which must not
depend on ``hash()`` order. One interpreter start-up per check (they are mostly start-up), where two
fresh interpreters under two fixed seeds took two."""

from __future__ import annotations

import os
import subprocess
import sys

# The seed this process was started with (read at collection, before any test touched the
# environment): unset or "random" is a random seed, "0" no randomisation, a number that seed.
STARTED_WITH = os.environ.get("PYTHONHASHSEED")
OTHER_SEED = "4242" if STARTED_WITH == "1" else "1"


def output_under_another_hash_seed(args: list[str]) -> str:
    """Standard output of ``python *args`` under ``OTHER_SEED`` (a random seed of this process equals
    it with probability 2**-64)."""
    proc = subprocess.run(
        [sys.executable, *args],
        env={**os.environ, "PYTHONHASHSEED": OTHER_SEED},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout
