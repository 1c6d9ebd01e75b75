"""The seeded mutation generator: synthetic pairs whose ground truth is known by construction.

A source document becomes an editable tree of units with stable ids; operators mutate a copy; the
truth is read off unit identity on the two sides, never off the aligner being measured.
"""

from __future__ import annotations

GENERATOR_NAME = "alignbench.generate"
# Changed only deliberately: it feeds every pair's seed, so bumping it regenerates the whole tier.
GENERATOR_VERSION = "1"

__all__ = ["GENERATOR_NAME", "GENERATOR_VERSION"]
