"""Which scheduler a stage uses (``ALIGNBENCH_SCHEDULER``), and the in-process path's order and errors."""

from __future__ import annotations

import pytest

from alignbench.errors import AlignbenchError
from alignbench.fanout import ENV, LOCAL_CLUSTER_FROM, map_pairs, scheduler_setting


def test_auto_runs_small_stages_in_process_and_large_ones_on_a_local_cluster(monkeypatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    assert scheduler_setting(LOCAL_CLUSTER_FROM - 1) == "serial"
    assert scheduler_setting(LOCAL_CLUSTER_FROM) == "local:2"
    monkeypatch.setattr("os.cpu_count", lambda: 1)
    assert scheduler_setting(10 * LOCAL_CLUSTER_FROM) == "serial"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("serial", "serial"), ("local:3", "local:3"), ("tcp://10.0.0.5:8786", "tcp://10.0.0.5:8786")],
)
def test_explicit_settings_are_taken_literally(monkeypatch, raw: str, expected: str) -> None:
    monkeypatch.setenv(ENV, raw)
    assert scheduler_setting(1) == expected


@pytest.mark.parametrize("raw", ["local:0", "threads", "host:8786"])
def test_an_unknown_setting_is_one_clear_error(monkeypatch, raw: str) -> None:
    monkeypatch.setenv(ENV, raw)
    with pytest.raises(AlignbenchError, match=rf"{ENV}='{raw}' is not understood"):
        scheduler_setting(1)


def test_serial_keeps_order_and_names_the_failing_pair() -> None:
    assert map_pairs(int, ["3", "1", "2"], ["a", "b", "c"], "align", "serial") == [3, 1, 2]
    with pytest.raises(
        AlignbenchError, match=r"^floor: pair real/b failed \(ValueError: .*nothing was written"
    ):
        map_pairs(int, ["1", "x"], ["real/a", "real/b"], "floor", "serial")
