"""An interrupted ``dvc repro`` does not wedge the project (issue 33, item 3).

The fast tests cut the committed ``dvc.lock`` the way a killed DVC leaves it and check that the guard
recognises it and recovers in one command. The slow test kills a real ``dvc repro`` of a small DVC
project at seeded random moments (the DVC process alone, or it and the guard together) and shows that
one ``python -m alignbench.dvclock repro`` always brings the project back to ``dvc status`` clean.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from alignbench.dvclock import BACKUP, LOCK, MARKER, RWLOCK, check, lock_problem, main, restore

REPO = Path(__file__).resolve().parents[1]
COMMITTED = (REPO / "dvc.lock").read_bytes() if (REPO / "dvc.lock").is_file() else b""


def test_the_committed_lock_is_whole() -> None:
    assert lock_problem(COMMITTED) is None


def test_every_cut_of_the_lock_mid_line_or_mid_entry_is_recognised() -> None:
    lines = COMMITTED.splitlines(keepends=True)
    boundaries = {sum(len(line) for line in lines[:k]) for k in range(len(lines) + 1)}
    for offset in range(0, len(COMMITTED), 97):
        if offset not in boundaries:
            assert lock_problem(COMMITTED[:offset]) is not None, offset
    # a cut at a line boundary inside an entry: a dependency with its path and no digest
    cut = COMMITTED.index(b"      hash: md5\n") + len(b"      hash: md5\n")
    assert "incomplete" in lock_problem(COMMITTED[:cut])
    assert lock_problem(b"") == "it is empty"


def test_the_check_says_in_one_line_how_to_recover(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / LOCK).write_bytes(b"")
    assert main(["check"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"{LOCK} is torn: it is empty; {check(tmp_path).split('; ', 1)[1]}"]
    assert "make repro" in err[0] and "git checkout -- dvc.lock" in err[0]
    (tmp_path / LOCK).write_bytes(COMMITTED)
    assert main(["check"]) == 0


def test_the_check_names_a_torn_rwlock_and_a_guarded_run_removes_it(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / LOCK).write_bytes(COMMITTED)
    (tmp_path / RWLOCK).parent.mkdir(parents=True)
    (tmp_path / RWLOCK).write_bytes(b'{"read": {}, "wri')
    assert main(["check"]) == 2
    assert f"{RWLOCK} is torn" in capsys.readouterr().err
    from alignbench.dvclock import _clear_torn_rwlock

    assert _clear_torn_rwlock(tmp_path) and not (tmp_path / RWLOCK).exists()
    assert main(["check"]) == 0


def test_restore_puts_back_the_kept_copy_and_refuses_without_one(tmp_path: Path) -> None:
    (tmp_path / LOCK).write_bytes(COMMITTED[:1000])
    assert not restore(tmp_path)
    (tmp_path / BACKUP).parent.mkdir(parents=True)
    (tmp_path / BACKUP).write_bytes(COMMITTED)
    assert restore(tmp_path)
    assert (tmp_path / LOCK).read_bytes() == COMMITTED


# --- a real dvc repro, killed -----------------------------------------------------------------------

STEP = textwrap.dedent(
    """
    import sys, time
    n = int(sys.argv[1])
    value = open("params.yaml").read().split("value:")[1].strip()
    prev = open(f"out/{n - 1}.txt").read() if n > 1 else ""
    time.sleep(0.2)
    open(f"out/{n}.txt", "w").write(prev + f"step {n} at {value}\\n")
    """
)
STAGES = 3


def _project(root: Path, env: dict[str, str]) -> None:
    (root / "out").mkdir(parents=True)
    (root / "step.py").write_text(STEP, encoding="utf-8")
    (root / "params.yaml").write_text("value: 0\n", encoding="utf-8")
    lines = ["stages:"]
    for n in range(1, STAGES + 1):
        deps = ["step.py"] + ([f"out/{n - 1}.txt"] if n > 1 else [])
        lines += [
            f"  s{n}:",
            f"    cmd: {sys.executable} step.py {n}",
            "    deps: [" + ", ".join(deps) + "]",
            "    params: [value]",
            f"    outs: [{{out/{n}.txt: {{cache: false}}}}]",
        ]
    (root / "dvc.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    subprocess.run([_dvc(), "init", "--no-scm", "-q"], cwd=root, env=env, check=True)


def _dvc() -> str:
    return str(Path(sys.executable).parent / "dvc")


def _guard(root: Path, env: dict[str, str], **kwargs) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "alignbench.dvclock", "repro"],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        **kwargs,
    )


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found += [int(p) for p in task.read_text().split()]
    return found


def _status_is_clean(root: Path, env: dict[str, str]) -> None:
    status = subprocess.run([_dvc(), "status"], cwd=root, env=env, capture_output=True, text=True, timeout=60)
    assert status.returncode == 0, status.stderr
    assert "Data and pipelines are up to date." in status.stdout, status.stdout


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for the dvc process")
def test_a_killed_dvc_repro_always_recovers_with_one_command(tmp_path: Path) -> None:
    env = dict(os.environ, DVC_NO_ANALYTICS="1", PYTHONPATH=str(REPO / "src"))
    root = tmp_path / "project"
    _project(root, env)
    start = time.monotonic()
    first = _guard(root, env)
    assert first.wait(timeout=120) == 0, first.stderr.read().decode()
    full_run = time.monotonic() - start
    _status_is_clean(root, env)
    rng = random.Random(20261205)
    outcomes = []
    lock = root / LOCK
    for trial in range(4):
        (root / "params.yaml").write_text(f"value: {trial + 1}\n", encoding="utf-8")
        before = lock.stat().st_mtime_ns
        run = _guard(root, env)
        if trial % 2:  # the moment DVC starts rewriting the lock after a stage: where it tears
            deadline = time.monotonic() + full_run * 3
            while lock.stat().st_mtime_ns == before and time.monotonic() < deadline:
                pass
        else:
            time.sleep(rng.uniform(0.3, full_run))
        whole_group = rng.random() < 0.5
        if whole_group:  # the guard dies too: the next run must find and undo what it left
            os.killpg(run.pid, signal.SIGKILL)
        else:
            for child in _children(run.pid):
                os.kill(child, signal.SIGKILL)
        run.wait(timeout=60)
        outcomes.append((whole_group, lock_problem(lock.read_bytes()) if lock.is_file() else "absent"))
        recovery = _guard(root, env)  # the one command
        assert recovery.wait(timeout=120) == 0, (trial, recovery.stderr.read().decode())
        _status_is_clean(root, env)
        assert lock_problem(lock.read_bytes()) is None
        assert not (root / MARKER).exists()
        assert (root / f"out/{STAGES}.txt").read_text().endswith(f"step {STAGES} at {trial + 1}\n")
    # the torn states a kill leaves, made on purpose: each recovers with the same one command
    for cut in (0, len((root / LOCK).read_bytes()) // 2):
        (root / "params.yaml").write_text(f"value: cut{cut}\n", encoding="utf-8")
        (root / LOCK).write_bytes((root / LOCK).read_bytes()[:cut])
        assert check(root) is not None
        recovery = _guard(root, env)
        assert recovery.wait(timeout=120) == 0, recovery.stderr.read().decode()
        assert b"restored" in recovery.stderr.read()
        _status_is_clean(root, env)
    # DVC's record of running stages, torn the same way (a kill found this one): removed, then the run
    (root / "params.yaml").write_text("value: torn-rwlock\n", encoding="utf-8")
    (root / RWLOCK).write_bytes(b"")
    recovery = _guard(root, env)
    assert recovery.wait(timeout=120) == 0, recovery.stderr.read().decode()
    assert f"removed the torn {RWLOCK}".encode() in recovery.stderr.read()
    _status_is_clean(root, env)
    assert any(group for group, _ in outcomes) and not all(group for group, _ in outcomes), outcomes


def test_a_whole_rwlock_held_only_by_dead_processes_counts_as_torn(tmp_path: Path) -> None:
    """A dvc killed during a stage leaves a whole rwlock naming it; every later run refused to start
    until the file was removed by hand. Held by a live process, it stays."""
    import json
    import subprocess

    from alignbench import dvclock

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    (tmp_path / ".dvc" / "tmp").mkdir(parents=True)
    rwlock = tmp_path / dvclock.RWLOCK

    def held_by(pid: int) -> None:
        entry = {"pid": pid, "cmd": "dvc repro"}
        rwlock.write_text(json.dumps({"read": {"a": [entry]}, "write": {"b": entry}}), encoding="utf-8")

    held_by(gone.pid)
    assert dvclock._rwlock_is_torn(tmp_path)
    held_by(os.getpid())
    assert not dvclock._rwlock_is_torn(tmp_path)
