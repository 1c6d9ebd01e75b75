"""Scoring: integer counts per pair, ratios from summed counts, tables and the committed outputs.

The metric definitions are seed 000's and issue 7's; every rule that could flatter a number lives in
one named place here so the report can state it.
"""

from alignbench.score.counts import COLUMNS, PairCounts, count_pair
from alignbench.score.ratios import headline, ratio
from alignbench.score.truth import Truth, truth_from_labels

__all__ = ["COLUMNS", "PairCounts", "Truth", "count_pair", "headline", "ratio", "truth_from_labels"]
