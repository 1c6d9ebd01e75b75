"""Which scheduler a stage uses (``ALIGNBENCH_SCHEDULER``), and the in-process path's order and errors."""

from __future__ import annotations

import os
import threading

import pytest

from alignbench.errors import AlignbenchError
from alignbench.fanout import (
    ENV,
    FORK_FROM,
    LOCAL_CLUSTER_FROM,
    _fork_is_safe,
    map_pairs,
    scheduler_setting,
    usable_cores,
)


def test_auto_forks_below_the_cluster_threshold_and_starts_a_local_cluster_above(monkeypatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setattr("alignbench.fanout.usable_cores", lambda: 2)
    monkeypatch.setattr("alignbench.fanout._fork_is_safe", lambda: True)
    assert scheduler_setting(FORK_FROM - 1) == "serial"
    assert scheduler_setting(FORK_FROM) == "fork:2"
    assert scheduler_setting(LOCAL_CLUSTER_FROM - 1) == "fork:2"
    assert scheduler_setting(LOCAL_CLUSTER_FROM) == "local:2"
    monkeypatch.setattr("alignbench.fanout._fork_is_safe", lambda: False)
    assert scheduler_setting(LOCAL_CLUSTER_FROM - 1) == "serial"
    monkeypatch.setattr("alignbench.fanout.usable_cores", lambda: 1)
    assert scheduler_setting(10 * LOCAL_CLUSTER_FROM) == "serial"


def test_a_process_with_a_second_thread_never_forks_by_default() -> None:
    release = threading.Event()
    helper = threading.Thread(target=release.wait)
    helper.start()
    try:
        assert not _fork_is_safe()
    finally:
        release.set()
        helper.join()


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("serial", "serial"),
        ("local:3", "local:3"),
        ("fork:3", "fork:3"),
        ("tcp://10.0.0.5:8786", "tcp://10.0.0.5:8786"),
    ],
)
def test_explicit_settings_are_taken_literally(monkeypatch, raw: str, expected: str) -> None:
    monkeypatch.setenv(ENV, raw)
    assert scheduler_setting(1) == expected


@pytest.mark.parametrize("raw", ["local:0", "fork:0", "fork:x", "threads", "host:8786"])
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


def _double_or_fail(item: str) -> int:
    if item == "bad":
        raise ValueError("not a number")
    if item == "refused":
        raise AlignbenchError("corpus/x/labels.yaml: refused; fix it")
    return 2 * int(item)


def test_forked_workers_return_every_result_in_item_order() -> None:
    items = [str(i) for i in range(203)]  # more items than tasks, and not a multiple of the task size
    names = [f"synthetic/p{i}" for i in range(203)]
    assert map_pairs(_double_or_fail, items, names, "floor", "fork:2") == [2 * i for i in range(203)]
    assert map_pairs(_double_or_fail, ["7"], ["real/a"], "floor", "fork:3") == [14]


def test_forked_workers_are_dask_tasks_and_leave_the_hash_seed_alone(monkeypatch) -> None:
    """The fork setting runs on Dask's own multiprocessing scheduler (no home-made pool): a Dask
    callback sees each contiguous run of pairs as one task, and Dask's spawn-only PYTHONHASHSEED
    is not left behind in the stage's environment."""
    from dask.callbacks import Callback

    monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    seen: list[object] = []
    items = [str(i) for i in range(64)]  # 2 workers x 8 tasks of 4 pairs
    with Callback(posttask=lambda key, result, dsk, state, worker: seen.append(key)):
        out = map_pairs(_double_or_fail, items, [f"real/p{i}" for i in range(64)], "floor", "fork:2")
    assert out == [2 * i for i in range(64)]
    assert len(seen) == 2 * 8 and sorted(seen) == [("pairs", task) for task in range(16)]
    assert "PYTHONHASHSEED" not in os.environ
    monkeypatch.setenv("PYTHONHASHSEED", "0")  # the one set value Dask would replace
    assert map_pairs(_double_or_fail, items, [f"real/p{i}" for i in range(64)], "floor", "fork:2") == out
    assert os.environ["PYTHONHASHSEED"] == "0"


def test_forked_workers_name_the_first_failing_pair_like_the_serial_run() -> None:
    items = [str(i) for i in range(40)]
    items[31], items[9] = "bad", "bad"
    names = [f"real/p{i}" for i in range(40)]
    with pytest.raises(AlignbenchError) as serial:
        map_pairs(_double_or_fail, items, names, "floor", "serial")
    with pytest.raises(AlignbenchError) as forked:
        map_pairs(_double_or_fail, items, names, "floor", "fork:2")
    assert str(forked.value) == str(serial.value)
    assert str(forked.value).startswith("floor: pair real/p9 failed (ValueError: not a number)")
    items[3] = "refused"  # a user-facing error passes through unchanged, as in-process
    with pytest.raises(AlignbenchError, match=r"^corpus/x/labels.yaml: refused; fix it$"):
        map_pairs(_double_or_fail, items, names, "floor", "fork:2")


def test_a_forked_worker_that_dies_names_its_pair() -> None:
    with pytest.raises(
        AlignbenchError, match=r"^floor: pair real/doomed failed \(BrokenProcessPool: .*nothing was written"
    ):
        map_pairs(os._exit, [3], ["real/doomed"], "floor", "fork:2")


def test_usable_cores_follow_the_cpu_affinity(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr("alignbench.fanout.CGROUP_CPU_MAX", str(tmp_path / "no-cgroup-quota"))
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 3}, raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 64)
    monkeypatch.delenv(ENV, raising=False)
    assert usable_cores() == 2
    monkeypatch.setenv(ENV, "local")
    assert scheduler_setting(1) == "local:2"


def test_usable_cores_respect_a_cgroup_cpu_quota(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: set(range(16)), raising=False)
    cpu_max = tmp_path / "cpu.max"
    monkeypatch.setattr("alignbench.fanout.CGROUP_CPU_MAX", str(cpu_max))
    cpu_max.write_text("150000 100000\n")  # 1.5 CPUs: two workers
    assert usable_cores() == 2
    cpu_max.write_text("max 100000\n")
    assert usable_cores() == 16
