"""Ratios from summed integer counts (micro-average), and a seeded bootstrap over pairs.

A zero denominator gives ``None`` (printed ``n/a``), never 0. F1 is computed from the counts, not from
rounded precision and recall. Rounding happens only when a number is written out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from alignbench.score.counts import PairCounts

if TYPE_CHECKING:  # imported where used: label_check and report read ratios but never resample
    import numpy as np

HEADLINES: tuple[str, ...] = (
    "precision",
    "recall",
    "f1",
    "precision_plain",
    "recall_plain",
    "f1_plain",
    "spurious_rate",
    "move_precision",
    "move_recall",
    "move_pair_recall",
    "move_ceiling",
    "renumber_precision",
    "renumber_recall",
)


def ratio(numerator: int, denominator: int) -> float | None:
    """``numerator / denominator``, or ``None`` when the denominator is zero."""
    return None if denominator == 0 else numerator / denominator


def headline(c: PairCounts) -> dict[str, float | None]:
    """Every headline ratio of one (summed) count record.

    The link figures credit a link when the engine paired the source block with any identical twin of
    the labelled partner (adjacent byte-identical siblings, which no document tells apart: issue #27),
    one to one; the ``_plain`` figures beside them credit only the labelled block itself.
    ``move_ceiling`` is the best move recall a content-based engine could reach: labelled moves minus
    those whose text has a byte-identical twin among the leftovers, over labelled moves.
    """
    return {
        "precision": ratio(c.twin_hit_links, c.reported_links),
        "recall": ratio(c.twin_hit_links, c.labelled_links),
        "f1": ratio(2 * c.twin_hit_links, c.reported_links + c.labelled_links),
        "precision_plain": ratio(c.hit_links, c.reported_links),
        "recall_plain": ratio(c.hit_links, c.labelled_links),
        "f1_plain": ratio(2 * c.hit_links, c.reported_links + c.labelled_links),
        "spurious_rate": ratio(c.spurious_links, c.reported_links),
        "move_precision": ratio(c.hit_moves, c.reported_moves),
        "move_recall": ratio(c.hit_moves, c.labelled_moves),
        "move_pair_recall": ratio(c.move_pairs_hit, c.labelled_moves),
        "move_ceiling": ratio(c.labelled_moves - c.move_ceiling_lost, c.labelled_moves),
        "renumber_precision": ratio(c.hit_renumbers, c.reported_renumbers),
        "renumber_recall": ratio(c.hit_renumbers, c.labelled_renumbers),
    }


# headline() as numerator and denominator sums of count fields (field, coefficient): the bootstrap
# computes every resample's headline at once from these, by the same integer sums and one division.
Terms = tuple[tuple[str, int], ...]
HEADLINE_TERMS: dict[str, tuple[Terms, Terms]] = {
    "precision": ((("twin_hit_links", 1),), (("reported_links", 1),)),
    "recall": ((("twin_hit_links", 1),), (("labelled_links", 1),)),
    "f1": ((("twin_hit_links", 2),), (("reported_links", 1), ("labelled_links", 1))),
    "precision_plain": ((("hit_links", 1),), (("reported_links", 1),)),
    "recall_plain": ((("hit_links", 1),), (("labelled_links", 1),)),
    "f1_plain": ((("hit_links", 2),), (("reported_links", 1), ("labelled_links", 1))),
    "spurious_rate": ((("spurious_links", 1),), (("reported_links", 1),)),
    "move_precision": ((("hit_moves", 1),), (("reported_moves", 1),)),
    "move_recall": ((("hit_moves", 1),), (("labelled_moves", 1),)),
    "move_pair_recall": ((("move_pairs_hit", 1),), (("labelled_moves", 1),)),
    "move_ceiling": ((("labelled_moves", 1), ("move_ceiling_lost", -1)), (("labelled_moves", 1),)),
    "renumber_precision": ((("hit_renumbers", 1),), (("reported_renumbers", 1),)),
    "renumber_recall": ((("hit_renumbers", 1),), (("labelled_renumbers", 1),)),
}


def total(counts: Sequence[PairCounts]) -> PairCounts:
    """Sum of count records (the micro-average's numerators and denominators)."""
    result = PairCounts()
    for item in counts:
        result = result + item
    return result


def bootstrap_indices(n_pairs: int, samples: int, seed: int) -> np.ndarray:
    """Resampled pair indices, one row per bootstrap sample; the same seed gives the same rows.

    Using the same rows for every backend of a tier makes the backend comparison a paired one.
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    if n_pairs == 0:
        return np.zeros((0, 0), dtype=np.int64)
    return rng.integers(0, n_pairs, size=(samples, n_pairs))


def bootstrap_intervals(
    counts: Sequence[PairCounts],
    indices: np.ndarray,
    confidence: float,
    metric: Callable[[PairCounts], dict[str, float | None]] = headline,
) -> dict[str, tuple[float, float] | None]:
    """Percentile interval of every headline over resampled pairs; ``None`` where no sample is defined.

    A resample whose denominator is zero has no value for that ratio and is left out of its interval.
    """
    import numpy as np

    names = list(metric(PairCounts()))
    field_names = list(PairCounts.__dataclass_fields__)
    matrix = np.array([[getattr(c, f) for f in field_names] for c in counts], dtype=np.int64)
    if metric is headline:
        values = _headline_values(matrix, indices, field_names)
    else:
        values = {name: [] for name in names}
        for summed in _resampled_sums(matrix, indices, len(field_names)):
            for name, value in metric(PairCounts(*summed)).items():
                if value is not None:
                    values[name].append(value)
    low_q, high_q = (1 - confidence) / 2, 1 - (1 - confidence) / 2
    intervals: dict[str, tuple[float, float] | None] = {}
    for name in names:
        if not len(values[name]):
            intervals[name] = None
            continue
        arr = np.asarray(values[name], dtype=np.float64)
        intervals[name] = (float(np.quantile(arr, low_q)), float(np.quantile(arr, high_q)))
    return intervals


def _headline_values(matrix: np.ndarray, indices: np.ndarray, field_names: list[str]) -> dict[str, Any]:
    """Per headline, its value in every resample whose denominator is not zero, in sample order.

    The same numbers as ``headline`` of each resample: the integer sums are exact in int64, and an
    int / int of Python is the correctly rounded quotient of the two as doubles (counts are far below
    2**53), which is what numpy's division of the converted sums computes. ~1,000x fewer Python calls."""
    import numpy as np

    if indices.size == 0:
        sums = np.zeros((len(indices), len(field_names)), dtype=np.int64)
    else:
        sums = np.concatenate(
            [np.array(block, dtype=np.int64) for block in _resampled_blocks(matrix, indices)]
        )
    column = {name: sums[:, i] for i, name in enumerate(field_names)}

    def combined(terms: Terms) -> np.ndarray:
        return sum((column[name] * coefficient for name, coefficient in terms), np.zeros(len(sums), np.int64))

    values: dict[str, Any] = {}
    for name, (numerator, denominator) in HEADLINE_TERMS.items():
        top, bottom = combined(numerator), combined(denominator)
        defined = bottom != 0
        values[name] = top[defined].astype(np.float64) / bottom[defined].astype(np.float64)
    return values


def _resampled_sums(matrix: np.ndarray, indices: np.ndarray, width: int) -> Iterator[list[int]]:
    """Per bootstrap sample (row of ``indices``), the column sums of its rows of ``matrix`` as Python
    ints, in sample order; summed a block of samples per numpy call instead of one sample at a time."""
    if indices.size == 0:  # no pairs: every sample sums to zero
        yield from ([0] * width for _ in range(len(indices)))
        return
    for block in _resampled_blocks(matrix, indices):
        yield from block.tolist()


def _resampled_blocks(matrix: np.ndarray, indices: np.ndarray) -> Iterator[np.ndarray]:
    """The resampled column sums a block of samples at a time (~8 MB of int64 per gather)."""
    block = max(1, (1 << 20) // max(1, indices.shape[1] * matrix.shape[1]))
    for start in range(0, len(indices), block):
        yield matrix[indices[start : start + block]].sum(axis=1)


def rounded(value: float | None, places: int = 4) -> float | None:
    """Round at the edge only; ``None`` stays ``None``."""
    return None if value is None else round(value, places)


def fmt(value: float | None, places: int = 4) -> str:
    """Text form used in tables and the report: fixed places, ``n/a`` for an undefined ratio."""
    return "n/a" if value is None else f"{value:.{places}f}"
