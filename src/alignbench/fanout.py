"""Per-pair stages fanned out on Dask: in-process, Dask's multiprocessing scheduler, or ``distributed``.

Which scheduler runs a stage is chosen by ``ALIGNBENCH_SCHEDULER``:

- unset or ``auto``: below :data:`LOCAL_CLUSTER_FROM` pairs, ``fork`` (one worker per core) on Linux
  when the calling process is single-threaded and has at least :data:`FORK_FROM` pairs, else
  in-process; from :data:`LOCAL_CLUSTER_FROM` pairs on, a ``LocalCluster`` with one single-threaded
  worker process per core (the engine is pure Python, so threads would share one GIL);
- ``serial``: in-process, always;
- ``fork`` (or ``fork:N``): Dask's local multiprocessing scheduler on the cores (or N) worker
  processes started by fork, whatever the pair count;
- ``local`` (or ``local:N``): a ``LocalCluster`` of the cores (or N workers) whatever the pair count;
- ``tcp://host:8786``: the scheduler of an existing cluster. Its workers must import this alignbench
  and see the repository at the same path (they read the pair files themselves).

Forked workers die with the stage (:func:`die_with_parent`), and a ``distributed`` run with no live
worker for :data:`WORKER_TIMEOUT_S` seconds (``ALIGNBENCH_WORKER_TIMEOUT`` to change it) fails with one
line instead of waiting forever.

Workers only compute and return; the caller writes every output in a fixed order afterwards, so the
bytes never depend on the worker count or on which worker finished first, and a failure on any pair
(the pair raising, or its worker killed) raises before anything is written.
"""

from __future__ import annotations

import gc
import logging
import os
import re
import signal
import sys
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from alignbench.errors import AlignbenchError

ENV = "ALIGNBENCH_SCHEDULER"
# Measured on 2 cores (docs/SCALE.md): a LocalCluster takes 2-4 s to start its worker processes, and
# each pair of the committed corpus aligns in ~0.1 s, so fewer pairs than this run faster in-process.
LOCAL_CLUSTER_FROM = 1_000
# Forked workers start in milliseconds (they inherit the imported engine instead of importing it), so
# they pay from a handful of pairs. On 2 cores, cold: floor 6.6 s of CPU in-process, 3.8 s for the
# busier of 2 forked workers (+0.2 s in the stage itself); generate 11.2 -> 5.2 + 0.5 s.
FORK_FROM = 16
# Contiguous runs of pairs per worker task: consecutive pairs share a base document, whose read tree
# and derived data (flat text, settled model) a worker keeps; more tasks than workers even out the load.
_TASKS_PER_WORKER = 8
# How long a distributed run waits with no live worker (none joined, or every one died) before it fails.
WORKER_TIMEOUT_S = 30.0
WORKER_TIMEOUT_ENV = "ALIGNBENCH_WORKER_TIMEOUT"
_POLL_S = 0.5
# prctl(2) option: the signal the kernel sends this process when its parent thread exits.
_PR_SET_PDEATHSIG = 1
T = TypeVar("T")
R = TypeVar("R")


def batch_gc() -> None:
    """Run the cyclic garbage collector 70x less often, for a stage process that runs one batch and exits.

    A stage builds hundreds of thousands of long-lived objects (label rows, block trees) and almost
    no cycles, so the default young-generation threshold (700) sends it into collections that free
    nothing: on 2 cores label_check went from 11.1 s to 7.3 s with peak memory unchanged (108 MB)."""
    gc.set_threshold(50_000, 20, 20)


def scheduler_setting(n_items: int) -> str:
    """The resolved setting: ``serial``, ``fork:N``, ``local:N`` or a scheduler address."""
    raw = os.environ.get(ENV, "").strip() or "auto"
    cores = usable_cores()
    if raw == "auto":
        if cores < 2:
            return "serial"
        if n_items >= LOCAL_CLUSTER_FROM:
            return f"local:{cores}"
        return f"fork:{cores}" if n_items >= FORK_FROM and _fork_is_safe() else "serial"
    if raw == "serial":
        return raw
    if "://" in raw:
        return _cluster_address(raw)
    for kind in ("local", "fork"):
        if raw == kind:
            return f"{kind}:{cores}"
        count = _WORKERS.fullmatch(raw[len(kind) + 1 :]) if raw.startswith(f"{kind}:") else None
        if count is not None and 1 <= int(raw[len(kind) + 1 :]) <= MAX_WORKERS:
            return raw
    raise AlignbenchError(
        f"{ENV}={raw!r} is not understood; use serial, auto, fork, fork:N, local, local:N "
        f"(N from 1 to {MAX_WORKERS}, ASCII digits) or tcp://host:port"
    )


# Parsed in full before Dask sees it: ``local:²`` passed ``str.isdigit`` and then crashed int(), and
# ``tcp://``, ``inproc://x`` or ``tls://...`` reached distributed, which failed with a traceback.
MAX_WORKERS = 256
_WORKERS = re.compile(r"[0-9]{1,3}", re.ASCII)
_HOST = r"\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?"
_TCP = re.compile(rf"tcp://({_HOST}):([0-9]{{1,5}})", re.ASCII)


def _cluster_address(raw: str) -> str:
    """``tcp://host:port``, checked; any other scheme is refused in one line, naming why."""
    scheme = raw.split("://", 1)[0]
    if scheme != "tcp":
        why = {
            "tls": "TLS needs certificates that alignbench does not configure",
            "inproc": "an in-process address names no cluster another process can reach",
        }.get(scheme, "only tcp:// is supported")
        raise AlignbenchError(
            f"{ENV}={raw!r}: the {scheme}:// scheme is not supported ({why}); use tcp://host:port"
        )
    match = _TCP.fullmatch(raw)
    if match is None or not 1 <= int(match.group(2)) <= 65535:
        raise AlignbenchError(
            f"{ENV}={raw!r} is not a scheduler address; write tcp://HOST:PORT (a host name or IP, a port "
            "from 1 to 65535), e.g. tcp://127.0.0.1:8786"
        )
    return raw


CGROUP_CPU_MAX = "/sys/fs/cgroup/cpu.max"


def usable_cores() -> int:
    """The cores this process may run on: its CPU affinity where the OS reports one (a ``taskset`` or
    a cpuset often allows fewer than ``os.cpu_count()`` shows), else the CPU count, and never more than
    a cgroup v2 CPU quota grants (``docker --cpus=2`` on a 64-core host: 2)."""
    try:
        cores = len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        quota, period = Path(CGROUP_CPU_MAX).read_text().split()[:2]
        if quota != "max" and int(period) > 0:
            cores = min(cores, max(1, -(-int(quota) // int(period))))
    except (OSError, ValueError):
        pass  # no cgroup v2 quota here
    return cores


def _fork_is_safe() -> bool:
    """Forking copies only the calling thread: a lock another thread holds (logging, I/O) would stay
    locked in the child forever. Only a single-threaded process on Linux forks by default (macOS
    system libraries are not fork-safe, Windows cannot fork)."""
    import threading

    return sys.platform.startswith("linux") and threading.active_count() == 1


def _interactive() -> bool:
    return sys.stderr.isatty() and not os.environ.get("CI")


def die_with_parent(parent: int) -> None:
    """Make this forked worker die when ``parent`` (the stage process) does, however the stage ends.

    A SIGKILLed stage runs no cleanup, and its forked workers would go on computing for nobody (one ran
    for 19 minutes). On Linux the kernel sends SIGKILL on the parent's death (``PR_SET_PDEATHSIG``);
    elsewhere, or if prctl is unavailable, a daemon thread polls the parent pid. A parent that died
    before either was set up is seen at once (the worker was re-parented)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
        if armed:
            if os.getppid() != parent:
                os._exit(1)
            return
    _watch_parent(parent)


def _watch_parent(parent: int) -> None:
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="alignbench-parent-watch", daemon=True).start()


def worker_timeout() -> float:
    """Seconds a distributed run may go without a live worker (``ALIGNBENCH_WORKER_TIMEOUT``)."""
    raw = os.environ.get(WORKER_TIMEOUT_ENV, "").strip()
    if not raw:
        return WORKER_TIMEOUT_S
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 < value <= 86_400:
        raise AlignbenchError(
            f"{WORKER_TIMEOUT_ENV}={raw!r} is not a number of seconds between 0 and 86400; "
            f"unset it for the default {WORKER_TIMEOUT_S:g}"
        )
    return value


def _failed(what: str, name: str, exc: BaseException) -> AlignbenchError:
    detail = str(exc).strip() or type(exc).__name__
    return AlignbenchError(
        f"{what}: pair {name} failed ({type(exc).__name__}: {detail}); nothing was written"
    )


def map_pairs(
    fn: Callable[[T], R], items: Sequence[T], names: Sequence[str], what: str, setting: str | None = None
) -> list[R]:
    """``[fn(item) for item in items]``, in that order, on the scheduler ``ALIGNBENCH_SCHEDULER`` picks.

    ``names`` name the items in errors and ``what`` names the stage. ``fn`` must be picklable (a
    module-level function or a frozen dataclass instance) when the items go to worker processes."""
    setting = setting or scheduler_setting(len(items))
    if setting == "serial" or not items:
        return _serial(fn, items, names, what)
    if setting.startswith("fork:"):
        return _forked(fn, items, names, what, int(setting[5:]))
    return _distributed(fn, items, names, what, setting)


def _serial(fn: Callable[[T], R], items: Sequence[T], names: Sequence[str], what: str) -> list[R]:
    out: list[R] = []
    bar: Any = None
    if _interactive() and len(items) > 1:
        from tqdm import tqdm

        bar = tqdm(total=len(items), desc=what, unit="pair", leave=False)
    try:
        for item, name in zip(items, names, strict=True):
            try:
                out.append(fn(item))
            except AlignbenchError:
                raise
            except Exception as exc:
                raise _failed(what, name, exc) from exc
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return out


# What the forked workers run, set just before they fork: they inherit it (no pickling of the callable
# or the items), and only each task's bounds travel to them.
_inherited: tuple[Callable[[Any], Any], Sequence[Any], Any] | None = None


def _run_task(task: int, start: int, stop: int) -> tuple[list[Any], tuple[int, str, str, Any] | None]:
    """Items ``start:stop`` in order, in a forked worker; stops at the first failing item and returns its
    index, exception type and message (and the exception itself when it is an AlignbenchError, which
    pickles; an arbitrary exception may not)."""
    assert _inherited is not None
    fn, items, running = _inherited
    out: list[Any] = []
    for index in range(start, stop):
        running[task] = index
        try:
            out.append(fn(items[index]))
        except Exception as exc:
            kept = exc if isinstance(exc, AlignbenchError) else None
            return out, (index, type(exc).__name__, str(exc).strip() or type(exc).__name__, kept)
    running[task] = stop
    return out, None


def _forked(
    fn: Callable[[T], R], items: Sequence[T], names: Sequence[str], what: str, workers: int
) -> list[R]:
    """``[fn(item) for item in items]`` on Dask's local multiprocessing scheduler with ``workers``
    processes started by fork (``multiprocessing.context: fork``).

    Forked workers inherit the parent's modules, so they start in milliseconds, where a
    ``LocalCluster``'s workers take 1.5-2 s to import the engine, more than a stage of a few hundred
    pairs takes in all. The callable and the items are inherited too (set just before the fork), so
    only each task's bounds are pickled. Each task is a contiguous run of items, so a worker keeps what
    consecutive pairs share. Every task runs to its end or to its first failing item; a pair that
    raises is named (the first in item order, whatever finished first); a worker that dies names the
    pair it was running (with the pairs the other workers were running then, as Dask's pool cannot
    tell which process died)."""
    global _inherited
    import multiprocessing
    from concurrent.futures.process import BrokenProcessPool

    import dask
    from dask.multiprocessing import get as multiprocessing_get

    size = max(1, -(-len(items) // (workers * _TASKS_PER_WORKER)))
    bounds = [(start, min(start + size, len(items))) for start in range(0, len(items), size)]
    running = multiprocessing.get_context("fork").RawArray("q", [-1] * len(bounds))  # per task: its item
    for stream in (sys.stdout, sys.stderr):
        stream.flush()  # a child would flush a copy of anything still buffered
    graph = {("pairs", task): (_run_task, task, start, stop) for task, (start, stop) in enumerate(bounds)}
    progress = _Progress(what, len(items)) if _interactive() else None
    _inherited = (fn, items, running)
    hash_seed = os.environ.get("PYTHONHASHSEED")  # Dask sets it for spawned workers; ours are forked
    try:
        with dask.config.set({"multiprocessing.context": "fork"}), progress or nullcontext():
            results = multiprocessing_get(
                graph,
                list(graph),
                num_workers=min(workers, len(bounds)),
                chunksize=1,
                optimize_graph=False,
                initializer=partial(die_with_parent, os.getpid()),
            )
    except BrokenProcessPool:
        raise _worker_died(what, names, bounds, running) from None
    finally:
        _inherited = None
        if hash_seed is None:
            os.environ.pop("PYTHONHASHSEED", None)
        else:  # Dask replaces a seed of "0" too
            os.environ["PYTHONHASHSEED"] = hash_seed
        if progress is not None:
            progress.close()
    out: list[R] = []
    for values, failure in results:  # in task order, so the first failure in item order is named
        if failure is not None:
            index, kind, detail, kept = failure
            if kept is not None:
                raise kept
            raise AlignbenchError(
                f"{what}: pair {names[index]} failed ({kind}: {detail}); nothing was written"
            )
        out.extend(values)
    return out


class _Progress:
    """Per-pair progress on a terminal: a tqdm bar made at the first finished task, after the workers
    are forked (tqdm starts a monitor thread, and a fork copies only the forking thread)."""

    def __init__(self, what: str, total: int) -> None:
        from dask.callbacks import Callback

        self.what, self.total, self.bar = what, total, None
        self._callback = Callback(posttask=self._posttask)

    def _posttask(self, key: Any, result: Any, dsk: Any, state: Any, worker_id: Any) -> None:
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=self.total, desc=self.what, unit="pair", leave=False)
        self.bar.update(len(result[0]))

    def __enter__(self) -> None:
        self._callback.__enter__()

    def __exit__(self, *exc: object) -> None:
        self._callback.__exit__(*exc)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _worker_died(
    what: str, names: Sequence[str], bounds: list[tuple[int, int]], running: Any
) -> AlignbenchError:
    suspects = [names[running[t]] for t, (start, stop) in enumerate(bounds) if start <= running[t] < stop]
    shown = " or ".join(suspects) or "(none had started)"
    return AlignbenchError(
        f"{what}: pair {shown} failed (BrokenProcessPool: its worker process died); nothing was written"
    )


def _distributed(
    fn: Callable[[T], R], items: Sequence[T], names: Sequence[str], what: str, setting: str
) -> list[R]:
    from distributed import Client, LocalCluster, progress

    cluster: Any = None
    timeout = worker_timeout()
    if setting.startswith("local:"):
        cluster = LocalCluster(
            n_workers=int(setting[6:]),
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,  # shutdown heartbeats log spurious ERRORs
        )
        address: Any = cluster
    else:
        address = setting
    try:
        with Client(address, timeout="30s") as client:
            futures = client.map(fn, list(items), pure=False)
            if _interactive():
                progress(futures)
            out: list[R] = []
            for name, future in zip(names, futures, strict=True):
                try:
                    out.append(_result(client, future, futures, what, setting, timeout))
                except AlignbenchError:
                    client.cancel(futures)
                    raise  # already names the file and what to do
                except Exception as exc:
                    client.cancel(futures)
                    raise _failed(what, name, exc) from exc
            return out
    except OSError as exc:
        raise AlignbenchError(
            f"{what}: cannot reach the Dask scheduler at {setting} ({exc}); start it, or set {ENV}=serial"
        ) from None
    finally:
        if cluster is not None:
            cluster.close()


def _result(client: Any, future: Any, futures: list[Any], what: str, setting: str, timeout: float) -> Any:
    """``future.result()``, but a cluster left with no live worker for ``timeout`` seconds (none ever
    joined, or all died) is an error: the scheduler would otherwise keep the tasks waiting forever."""
    import time

    since: float | None = None
    while True:
        try:
            return future.result(timeout=_POLL_S)
        except TimeoutError:
            if future.done():  # finished, its result still on the way (or its own TimeoutError)
                return future.result()
        if client.nthreads():
            since = None
            continue
        now = time.monotonic()
        since = now if since is None else since
        if now - since >= timeout:
            client.cancel(futures)
            raise AlignbenchError(
                f"{what}: the Dask scheduler at {setting} has had no live worker for {timeout:g} s; "
                f"start `dask worker {setting} --nthreads 1`, or set {ENV}=serial; nothing was written"
            )
