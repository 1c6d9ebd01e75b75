"""``python -m alignbench.dvclock repro|check|restore``: an interrupted ``dvc repro`` never wedges.

DVC rewrites ``dvc.lock`` in place (truncate, then write): a kill at the wrong moment leaves it empty or
cut mid-entry, and every later ``dvc status`` and ``dvc repro`` then fails (``'./dvc.lock' validation
failed``) or reports false modifications. We cannot change DVC, so the project's entry point guards it:

- ``repro [ARGS]`` (what ``make repro`` runs) copies a valid ``dvc.lock`` to :data:`BACKUP` and leaves
  a marker (:data:`MARKER`) before running ``dvc repro ARGS``. When the run dies (killed by a signal,
  or it leaves a torn lock) the copy is put back. If the guard itself was killed, the next ``repro``
  finds the marker and puts the copy back before running: a lock that looks whole may still have
  lost its tail. Stages that finished in the dead run simply run again.
- ``check`` says in one line whether ``dvc.lock`` is whole and, if it is not, how to recover.
- ``restore`` puts the kept copy back.

Exit status: ``dvc repro``'s own for ``repro``; 0 or 2 for ``check`` and ``restore``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from alignbench.atomic import write_bytes

LOCK = "dvc.lock"
# DVC's record of the stages running now (pids of live processes; dead ones it drops itself). It is
# written in place too, and a kill can leave it empty: every later run then fails ("JSON structure
# is corrupted") until it is removed. ``.dvc/tmp/lock`` is the flock DVC holds while it runs.
RWLOCK = ".dvc/tmp/rwlock"
REPO_LOCK = ".dvc/tmp/lock"
BACKUP = ".dvc/tmp/alignbench-dvc.lock.valid"
MARKER = ".dvc/tmp/alignbench-repro.running"
RECOVER = "run `make repro` (it restores the copy kept before the last run), or `git checkout -- dvc.lock`"
_MD5 = re.compile(r"[0-9a-f]{32}(\.dir)?")


def lock_problem(data: bytes) -> str | None:
    """Why these bytes are not a whole ``dvc.lock`` (schema 2.0) as DVC writes it, or ``None``.

    DVC writes every line whole and ends the file with a newline; each stage entry has its command and
    every dependency and output has a path and a complete md5. A cut anywhere but exactly between two
    entries breaks one of these; a cut exactly there is what the marker (see the module) is for."""
    if not data.strip():
        return "it is empty"
    if not data.endswith(b"\n"):
        return "it ends mid-line (cut while DVC was writing it)"
    try:
        lock = yaml.load(data, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return f"it is not valid YAML{f' (line {mark.line + 1})' if mark else ''}"
    if not isinstance(lock, dict) or lock.get("schema") != "2.0" or not isinstance(lock.get("stages"), dict):
        return "it is not a schema 2.0 lock with a 'stages' mapping"
    for name, stage in lock["stages"].items():
        problem = _stage_problem(stage)
        if problem:
            return f"stage {name}: {problem}"
    return None


def _stage_problem(stage: Any) -> str | None:
    if not isinstance(stage, dict) or not isinstance(stage.get("cmd"), str):
        return "the entry has no command"
    for section in ("deps", "outs"):
        entries = stage.get(section, [])
        if not isinstance(entries, list):
            return f"'{section}' is not a list"
        for entry in entries:
            if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
                return f"a '{section}' entry has no path"
            if not _MD5.fullmatch(str(entry.get("md5", ""))) or not isinstance(entry.get("size"), int):
                return f"'{section}' entry {entry['path']} is incomplete"
    if "params" in stage and not isinstance(stage["params"], dict):
        return "'params' is not a mapping"
    return None


def check(root: Path) -> str | None:
    """The one-line complaint about ``root/dvc.lock``, or ``None`` when it is whole (or absent)."""
    try:
        data = (root / LOCK).read_bytes()
    except FileNotFoundError:
        return None
    problem = lock_problem(data)
    return f"{LOCK} is torn: {problem}; {RECOVER}" if problem else None


def _backup_is_valid(root: Path) -> bool:
    try:
        return lock_problem((root / BACKUP).read_bytes()) is None
    except FileNotFoundError:
        return False


def _keep(root: Path) -> None:
    """Copy a whole ``dvc.lock`` to the backup (atomically); a torn one is never kept."""
    try:
        data = (root / LOCK).read_bytes()
    except FileNotFoundError:
        return
    if lock_problem(data) is None:
        write_bytes(root / BACKUP, data)


def restore(root: Path) -> bool:
    """Put the kept copy back over ``dvc.lock``; ``False`` when there is no whole copy."""
    if not _backup_is_valid(root):
        return False
    write_bytes(root / LOCK, (root / BACKUP).read_bytes())
    return True


def _pid_alive(pid: int) -> bool:
    """Whether ``pid`` runs: a zombie (killed, not yet reaped, as when its parent died with it and the
    container's init does not reap) holds nothing and counts as gone."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return True
    return stat.rpartition(")")[2].split()[:1] != ["Z"]


def _rwlock_is_torn(root: Path) -> bool:
    """A ``.dvc/tmp/rwlock`` that is cut short, or whole but held only by processes that are gone: a
    dvc killed during a stage leaves its write lock behind, and every later run refuses to start."""
    try:
        data = (root / RWLOCK).read_bytes()
    except FileNotFoundError:
        return False
    try:
        table = json.loads(data)
    except ValueError:
        return True
    if not isinstance(table, dict):
        return True
    holders: list[Any] = []
    for kind in ("read", "write"):
        for entry in (table.get(kind) or {}).values():
            holders.extend(entry if isinstance(entry, list) else [entry])
    pids = [h.get("pid") for h in holders if isinstance(h, dict)]
    return bool(pids) and not any(isinstance(pid, int) and _pid_alive(pid) for pid in pids)


def _dvc_is_idle(root: Path) -> bool:
    """Whether no DVC process holds this repository's lock now (DVC takes it with flock)."""
    import fcntl

    try:
        handle = open(root / REPO_LOCK, "rb")  # noqa: SIM115 - held only for the probe below
    except FileNotFoundError:
        return True
    with handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    return True


def _clear_torn_rwlock(root: Path) -> bool:
    """Remove a torn ``.dvc/tmp/rwlock`` when no DVC runs here; ``False`` when one does."""
    if not _rwlock_is_torn(root):
        return True
    if not _dvc_is_idle(root):
        return False
    (root / RWLOCK).unlink(missing_ok=True)
    _say(f"removed the torn {RWLOCK} a killed dvc left (cut short, or held by processes that are gone)")
    return True


def _say(line: str) -> None:
    print(f"dvclock: {line}", file=sys.stderr, flush=True)


# How long a run waits for a dvc process already running here (one a killed guard left behind, say).
IDLE_WAIT_SECONDS = 300.0


def _wait_until_idle(root: Path, seconds: float = IDLE_WAIT_SECONDS) -> bool:
    """Wait while a dvc process holds this repository's lock: a guard killed alone leaves its dvc
    running, and restoring the lock or starting another run under it would undo or race its work."""
    import time

    deadline = time.monotonic() + seconds
    said = False
    while not _dvc_is_idle(root):
        if time.monotonic() > deadline:
            return False
        if not said:
            _say("a dvc process is still running here (one a killed run left?); waiting for it to end")
            said = True
        time.sleep(0.5)
    return True


def _recover_before_run(root: Path) -> int | None:
    """Undo what a dead earlier run left; an exit status when the run must not start."""
    if not _wait_until_idle(root):
        _say(f"a dvc process has held this repository for {IDLE_WAIT_SECONDS:.0f} s; stop it, then re-run")
        return 2
    marker = root / MARKER
    if marker.is_file():
        text = marker.read_text(encoding="utf-8", errors="replace").strip()
        if text.isdigit() and int(text) != os.getpid() and _pid_alive(int(text)):
            _say(f"another guarded dvc repro (pid {text}) is running; wait for it or stop it first")
            return 2
        if restore(root):
            _say(f"the previous dvc repro did not finish; restored {LOCK} from before it")
        marker.unlink()
    if not _clear_torn_rwlock(root):
        _say(f"{RWLOCK} is torn and a dvc process is running here; wait for it to end, then re-run")
        return 2
    problem = check(root)
    if problem:
        if restore(root):
            _say(f"{LOCK} was torn; restored the copy kept before the last run")
        else:
            _say(f"{problem} (no kept copy exists here)")
            return 2
    return None


def repro(root: Path, args: Sequence[str]) -> int:
    """``dvc repro ARGS`` with ``dvc.lock`` kept and restored around it; dvc's exit status."""
    refused = _recover_before_run(root)
    if refused is not None:
        return refused
    _keep(root)
    marker = root / MARKER
    write_bytes(marker, f"{os.getpid()}\n".encode())
    dvc = shutil.which(
        "dvc", path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    )
    try:
        status = subprocess.run([dvc or "dvc", "repro", *args], cwd=root).returncode
    except KeyboardInterrupt:
        status = -2
    torn = check(root)
    if status < 0:
        _clear_torn_rwlock(root)
    if status < 0 or torn:
        if restore(root):
            _say(f"dvc repro did not finish; restored {LOCK} from before it (re-run `make repro`)")
        elif torn:
            _say(torn)
    elif status == 0:
        _keep(root)
    marker.unlink(missing_ok=True)
    return status if status >= 0 else 128 - status


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    root = Path.cwd()
    command = args.pop(0) if args else ""
    if command == "repro":
        return repro(root, args)
    if command == "check" and not args:
        problem = check(root) or (
            f"{RWLOCK} is torn (a killed dvc left it); run `make repro`, which removes it"
            if _rwlock_is_torn(root)
            else None
        )
        if problem:
            print(problem, file=sys.stderr)
            return 2
        print(f"{LOCK}: whole" if (root / LOCK).is_file() else f"{LOCK}: absent (dvc repro will write it)")
        return 0
    if command == "restore" and not args:
        if restore(root):
            print(f"{LOCK}: restored the copy kept before the last guarded run")
            return 0
        print(f"{LOCK}: no kept copy here; run `git checkout -- {LOCK}`", file=sys.stderr)
        return 2
    print("usage: python -m alignbench.dvclock repro [DVC REPRO ARGS] | check | restore", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
