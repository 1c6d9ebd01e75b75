"""The align stage through a real Dask cluster: a ``dask scheduler`` and two ``dask worker`` processes on
127.0.0.1 (free ports, bounded waits, always torn down) produce the same bytes as an in-process run, and
a failing pair (raising, or killing its worker) names the pair and leaves no output behind."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import alignbench
from alignbench.engines.run import run_engine as align_all
from alignbench.errors import AlignbenchError
from alignbench.fanout import ENV, map_pairs, scheduler_setting

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[1]
PAIRS = ("csa-2.1--mixed-a", "csa-2.1--moves-a", "csa-2.1--mixed-b")
START_TIMEOUT_S = 90


def _spawn(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    handle = log.open("wb")
    return subprocess.Popen(args, env=env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True)


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Address of a scheduler with two single-threaded workers, torn down after the module."""
    work = tmp_path_factory.mktemp("dask")
    scheduler_file = work / "scheduler.json"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(alignbench.__file__).parents[1]), env.get("PYTHONPATH", "")]
    )
    env["DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES"] = "0"  # a killed worker fails its task at once
    dask = shutil.which("dask", path=str(Path(sys.executable).parent)) or "dask"
    procs = [
        _spawn(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(scheduler_file)],
            env,
            work / "scheduler.log",
        )
    ]  # fmt: skip
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not scheduler_file.is_file() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert scheduler_file.is_file(), (work / "scheduler.log").read_text()
        for k in range(2):
            procs.append(
                _spawn(
                    [dask, "worker", "--scheduler-file", str(scheduler_file), "--nthreads", "1",
                     "--host", "127.0.0.1", "--no-dashboard", "--name", f"w{k}"],
                    env,
                    work / f"worker{k}.log",
                )
            )  # fmt: skip
        address = json.loads(scheduler_file.read_text())["address"]
        from distributed import Client

        with Client(address, timeout=f"{START_TIMEOUT_S}s") as client:
            client.wait_for_workers(2, timeout=START_TIMEOUT_S)
        yield address
    finally:
        _stop(procs)


def _small_repo(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "params.yaml", root / "params.yaml")
    for pair in PAIRS:
        shutil.copytree(REPO / "corpus" / "synthetic" / pair, root / "corpus" / "synthetic" / pair)
    return root


def _outputs(root: Path) -> dict[str, bytes]:
    out = root / "results"
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.json"))}


def test_the_cluster_writes_the_same_bytes_as_a_serial_run(
    cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serial, distributed = _small_repo(tmp_path / "serial"), _small_repo(tmp_path / "cluster")
    monkeypatch.setenv(ENV, "serial")
    align_all(serial, "rapidfuzz")
    monkeypatch.setenv(ENV, cluster)
    assert scheduler_setting(len(PAIRS)) == cluster
    align_all(distributed, "rapidfuzz")
    expected = _outputs(serial)
    assert sorted(expected) == [
        "alignments/rapidfuzz/MANIFEST.json",
        *(f"alignments/rapidfuzz/synthetic/{p}.json" for p in sorted(PAIRS)),
    ]
    assert _outputs(distributed) == expected


def test_a_pair_that_raises_on_a_worker_is_named(cluster: str) -> None:
    with pytest.raises(AlignbenchError, match=r"align: pair synthetic/b failed \(ValueError: .*'x'"):
        map_pairs(int, ["1", "x", "3"], ["synthetic/a", "synthetic/b", "synthetic/c"], "align", cluster)


def test_a_missing_document_fails_the_stage_with_no_partial_output(
    cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _small_repo(tmp_path)
    (root / "corpus" / "synthetic" / PAIRS[-1] / "test.md").unlink()
    monkeypatch.setenv(ENV, cluster)
    with pytest.raises(AlignbenchError, match=rf"{PAIRS[-1]}/labels.yaml: test.file .* does not exist"):
        align_all(root, "difflib")
    assert not (root / "results").exists()


def test_a_killed_worker_is_named_and_the_cluster_survives(cluster: str) -> None:
    with pytest.raises(AlignbenchError, match=r"floor: pair real/doomed failed \(KilledWorker"):
        map_pairs(os._exit, [3], ["real/doomed"], "floor", cluster)
    from distributed import Client

    with Client(cluster, timeout="60s") as client:
        client.wait_for_workers(2, timeout=START_TIMEOUT_S)  # the nanny restarted the killed worker
    assert map_pairs(int, ["4", "5"], ["a", "b"], "align", cluster) == [4, 5]
