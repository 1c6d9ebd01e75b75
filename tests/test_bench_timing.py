"""The bench's figure from its samples: runs the machine changed speed during are not counted.

No timing happens here: the samples are written out, so each assertion is about arithmetic only (and
the start-up line's command is run once, untimed, to check it is the right one)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from alignbench.bench import STEADY_DRIFT, Round, Sample, startup_command, summarise, summarise_rounds


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


def test_the_scale_is_the_median_of_each_rounds_own_quotient() -> None:
    """Each round divides its 20k run by the 2k run timed beside it; a round with a speed change in
    either run is left out of all three figures. The quotient of the two medians would be 10.0 here,
    the median of the rounds' own quotients is 11.0."""
    rounds = [
        Round(Sample(0.100, 0.050, 0.100), Sample(0.100, 0.500, 0.100)),  # 0.5, 5.0: 10x
        Round(Sample(0.100, 0.040, 0.100), Sample(0.100, 0.440, 0.100)),  # 0.4, 4.4: 11x
        Round(Sample(0.100, 0.060, 0.100), Sample(0.100, 0.720, 0.100)),  # 0.6, 7.2: 12x
        Round(Sample(0.100, 0.010, 0.100), Sample(0.100, 0.900, 0.300)),  # 20k run unsteady: left out
    ]
    scaling = summarise_rounds(rounds)
    assert scaling.scale == pytest.approx(11.0)
    assert scaling.small.calib == pytest.approx(0.5)
    assert scaling.large.calib == pytest.approx(5.0)
    assert scaling.large.seconds == pytest.approx(0.5)
    assert (scaling.small.discarded, scaling.large.all_unsteady, scaling.small.runs) == (1, False, "round(s)")


def test_when_no_round_is_steady_all_count_and_the_figures_say_so() -> None:
    rounds = [Round(Sample(0.100, 0.050, 0.200), Sample(0.200, 1.000, 0.200))]
    scaling = summarise_rounds(rounds)
    assert scaling.scale == pytest.approx((1.0 / 0.2) / (0.05 / 0.15))
    assert (scaling.small.all_unsteady, scaling.large.all_unsteady, scaling.large.discarded) == (
        True,
        True,
        1,
    )


def test_the_start_up_figure_runs_what_a_reviewer_types() -> None:
    """The command the start-up line times is the installed ``alignbench`` and ends in its help."""
    command = startup_command()
    assert command[-2:] == ["compare", "--help"]
    assert Path(command[0]).name == "alignbench" or command[1:3] == ["-m", "alignbench.cli"]
    shown = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    assert shown.startswith("usage: alignbench compare")
