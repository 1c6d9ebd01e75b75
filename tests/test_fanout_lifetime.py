"""Workers do not outlive their stage (issue 33, item 7).

A SIGKILLed stage's forked workers die with it (``PR_SET_PDEATHSIG``, or a parent-pid watchdog), and a
``tcp://`` scheduler with no live worker fails within ``ALIGNBENCH_WORKER_TIMEOUT`` seconds, in one
line, leaving the stage's outputs as they were.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from alignbench.errors import AlignbenchError
from alignbench.fanout import WORKER_TIMEOUT_ENV, WORKER_TIMEOUT_S, worker_timeout

REPO = Path(__file__).resolve().parents[1]
PAIR = "csa-2.1--mixed-a"


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting to be reaped does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state not in ("Z", "X")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), env.get("PYTHONPATH", "")])
    return env


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork workers run on Linux only")
def test_forked_workers_die_when_the_stage_is_killed(tmp_path: Path) -> None:
    started = tmp_path / "started"
    started.mkdir()
    script = textwrap.dedent(
        f"""
        import os, time
        from alignbench.fanout import map_pairs

        def work(item):
            (open({str(started)!r} + "/" + str(os.getpid()), "w")).close()
            time.sleep(300)
            return item

        map_pairs(work, list(range(32)), [f"synthetic/p{{i}}" for i in range(32)], "align", "fork:2")
        """
    )
    stage = subprocess.Popen([sys.executable, "-c", script], env=_env(), start_new_session=True)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
            workers = sorted(int(p.name) for p in started.iterdir())
        assert len(workers) == 2, "the two forked workers did not start"
        stage.send_signal(signal.SIGKILL)
        stage.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        survivors = [pid for pid in workers if _alive(pid)]
        assert not survivors, f"forked workers {survivors} outlived their killed stage"
    finally:
        if stage.poll() is None:
            stage.kill()
            stage.wait(timeout=10)
        for pid in workers:  # only the workers this test started, if the assertion above failed
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
def test_a_scheduler_with_no_live_worker_fails_in_one_line_and_writes_nothing(tmp_path: Path) -> None:
    from distributed import LocalCluster

    root = tmp_path / "repo"
    (root / "corpus" / "synthetic").mkdir(parents=True)
    shutil.copy(REPO / "params.yaml", root / "params.yaml")
    shutil.copytree(REPO / "corpus" / "synthetic" / PAIR, root / "corpus" / "synthetic" / PAIR)
    run = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from alignbench.errors import AlignbenchError
        from alignbench.engines.run import run_engine as align_all

        try:
            align_all(Path(sys.argv[1]), "difflib")
        except AlignbenchError as exc:
            print(f"align: error: {exc}", file=sys.stderr)
            sys.exit(2)
        """
    )
    env = _env() | {"ALIGNBENCH_SCHEDULER": "serial", "ALIGNBENCH_CACHE": "off"}
    subprocess.run([sys.executable, "-c", run, str(root)], env=env, check=True, timeout=120)
    out = root / "results"
    before = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    assert f"alignments/difflib/synthetic/{PAIR}.json" in before

    with LocalCluster(
        n_workers=0, processes=False, protocol="tcp", host="127.0.0.1", dashboard_address=None
    ) as cluster:
        env |= {"ALIGNBENCH_SCHEDULER": cluster.scheduler_address, WORKER_TIMEOUT_ENV: "2"}
        start = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-c", run, str(root)], env=env, capture_output=True, text=True, timeout=60
        )
        elapsed = time.monotonic() - start
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "has had no live worker for 2 s" in lines[0] and "nothing was written" in lines[0]
    assert elapsed < 2 + 30  # the stated timeout, plus interpreter and client start-up
    after = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    assert after == before


def test_the_worker_timeout_is_stated_and_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(WORKER_TIMEOUT_ENV, raising=False)
    assert worker_timeout() == WORKER_TIMEOUT_S
    monkeypatch.setenv(WORKER_TIMEOUT_ENV, "2.5")
    assert worker_timeout() == 2.5
    for bad in ("0", "-1", "nan", "inf", "1e9", "soon"):
        monkeypatch.setenv(WORKER_TIMEOUT_ENV, bad)
        with pytest.raises(AlignbenchError, match=f"{WORKER_TIMEOUT_ENV}="):
            worker_timeout()
