"""The bench's figure from its samples: runs the machine changed speed during are not counted.

No timing happens here: the samples are written out, so each assertion is about arithmetic only."""

from __future__ import annotations

import pytest

from alignbench.bench import STEADY_DRIFT, Sample, summarise


def test_a_run_between_loops_of_two_speeds_is_not_steady() -> None:
    assert Sample(0.100, 0.050, 0.110).steady
    assert not Sample(0.100, 0.050, 0.200).steady  # the machine halved its speed mid-run
    assert not Sample(0.200, 0.050, 0.100).steady
    edge = 0.100 * (1 + STEADY_DRIFT)
    assert Sample(0.100, 0.050, edge).steady


def test_unsteady_runs_are_left_out_of_the_medians_and_counted() -> None:
    samples = [
        Sample(0.100, 0.060, 0.100),  # ratio 0.60
        Sample(0.100, 0.100, 0.200),  # ratio 0.67, unsteady: left out
        Sample(0.200, 0.110, 0.200),  # ratio 0.55
        Sample(0.100, 0.050, 0.100),  # ratio 0.50
    ]
    timing = summarise(samples, last="result")
    assert timing.calib == pytest.approx(0.55)
    assert timing.seconds == pytest.approx(0.060)
    assert (timing.discarded, timing.all_unsteady, timing.last) == (1, False, "result")


def test_when_no_run_is_steady_all_count_and_the_figure_says_so() -> None:
    samples = [Sample(0.100, 0.060, 0.200), Sample(0.200, 0.060, 0.100)]
    timing = summarise(samples)
    assert timing.calib == pytest.approx(0.060 / 0.150)
    assert (timing.discarded, timing.all_unsteady) == (2, True)
