"""How many examples a property test draws: every one in CI, half of them in the developer loop.

Each property states the count CI runs, as ``settings(max_examples=examples(n))``. Hypothesis's own
drawing and bookkeeping is over a third of the suite's CPU, and ``make test`` (the developer loop, a
60 s target on 2 cores: issue 13) runs every property at half its count. CI then runs every
Hypothesis test again at its full count (``make test-slow``: pytest's ``hypothesis`` mark, with
``ALIGNBENCH_PROPERTY_EXAMPLES=full``), so nothing CI searches was cut. Properties marked ``slow``
keep a literal count: they run in CI only.
"""

from __future__ import annotations

import os

ENV = "ALIGNBENCH_PROPERTY_EXAMPLES"
_BUDGETS = ("half", "full")
BUDGET = os.environ.get(ENV) or "half"
if BUDGET not in _BUDGETS:
    raise RuntimeError(f"{ENV}={BUDGET!r}: expected one of {', '.join(_BUDGETS)} (unset means half)")


def examples(full: int) -> int:
    """The example count to draw for a property whose full (CI) count is ``full``."""
    return full if BUDGET == "full" else max(1, full // 2)
