"""Does a base document have a plan's feature? Asked of the operators themselves, by a dry run.

A plan applied to a document without its feature (a tables plan on a document with no table) yields a
pair whose test is its source: a no-op that pads every score. The feature is whatever the plan's
``requires`` operators need, and the only honest test of that is to let each operator try, on a copy,
with a throwaway generator, and have the reader confirm the result - so a new operator needs no second,
drift-prone description of its preconditions.
"""

from __future__ import annotations

from random import Random

from alignbench.generate.catalog import OPERATORS, STYLES
from alignbench.generate.model import Document
from alignbench.generate.roundtrip import verify

_PROBE_SEEDS = (0, 1, 2)


def missing_features(doc: Document, requires: tuple[str, ...]) -> list[str]:
    """The required operators that find nothing to act on in ``doc`` under any style (empty: all found)."""
    missing = []
    for op in requires:
        if not any(_acts(doc, op, style) for style in STYLES[op]):
            missing.append(op)
    return missing


def _acts(doc: Document, op: str, style: str) -> bool:
    for seed in _PROBE_SEEDS:
        trial = doc.clone()
        if OPERATORS[op](trial, Random(seed), style) is not None and verify(trial) is not None:
            return True
    return False
