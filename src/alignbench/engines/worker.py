"""The subprocess side of :mod:`alignbench.engines.isolation`: ``python -m alignbench.engines.worker N MB``.

Reads one JSON request per line (``{tier, pair, labels, params}``, run from the repository root),
answers one JSON line ``{"output": ...}`` or ``{"error": "..."}``. The engine's own prints go to
standard error, so they can never corrupt an answer. The memory limit is set on this process before
the engine is imported.
"""

from __future__ import annotations

import json
import os
import resource
import sys
from pathlib import Path


def _limit_memory(megabytes: int) -> None:
    limit = megabytes * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def main(argv: list[str]) -> int:
    name, megabytes = argv[0], int(argv[1])
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # anything the engine prints lands on stderr
    sys.stdout = sys.stderr
    _limit_memory(megabytes)
    from alignbench.engines.registry import info
    from alignbench.runs import load_pair
    from alignbench.tiers import TierPair

    root = Path.cwd()
    engine = info(name).engine
    for line in sys.stdin:
        request = json.loads(line)
        try:
            tier_pair = TierPair(request["tier"], request["pair"], Path(request["labels"]))
            loaded = load_pair(root, tier_pair, header_only=True)
            output = engine.align(loaded.source, loaded.test, request["params"])
            text = json.dumps({"output": output}, ensure_ascii=False, allow_nan=False)
        except MemoryError:
            text = json.dumps({"error": f"MemoryError: over the {megabytes} MiB memory limit"})
        except Exception as exc:  # the engine is third-party code: its failure is one line
            text = json.dumps({"error": f"{type(exc).__name__}: {exc}"})
        answers.write(text + "\n")
        answers.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
