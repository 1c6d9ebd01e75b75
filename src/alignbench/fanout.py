"""Per-pair stages fanned out over Dask ``distributed``: in-process, a local cluster, or an existing one.

Which scheduler runs a stage is chosen by ``ALIGNBENCH_SCHEDULER``:

- unset or ``auto``: in-process below :data:`LOCAL_CLUSTER_FROM` pairs, where starting worker
  processes costs more than it saves; above, a ``LocalCluster`` with one single-threaded worker
  process per core (the engine is pure Python, so threads would share one GIL);
- ``serial``: in-process, always;
- ``local`` (or ``local:N``): a ``LocalCluster`` of the cores (or N workers) whatever the pair count;
- ``tcp://host:8786``: the scheduler of an existing cluster. Its workers must import this alignbench
  and see the repository at the same path (they read the pair files themselves).

Workers only compute and return; the caller writes every output in a fixed order afterwards, so the
bytes never depend on the worker count or on which worker finished first, and a failure on any pair
(the pair raising, or its worker killed) raises before anything is written.
"""

from __future__ import annotations

import gc
import logging
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from alignbench.errors import AlignbenchError

ENV = "ALIGNBENCH_SCHEDULER"
# Measured on 2 cores (docs/SCALE.md): a LocalCluster takes 2-4 s to start its worker processes, and
# each pair of the committed corpus aligns in ~0.1 s, so fewer pairs than this run faster in-process.
LOCAL_CLUSTER_FROM = 1_000
T = TypeVar("T")
R = TypeVar("R")


def batch_gc() -> None:
    """Run the cyclic garbage collector 70x less often, for a stage process that runs one batch and exits.

    A stage builds hundreds of thousands of long-lived objects (label rows, block trees) and almost
    no cycles, so the default young-generation threshold (700) sends it into collections that free
    nothing: on 2 cores label_check went from 11.1 s to 7.3 s with peak memory unchanged (108 MB)."""
    gc.set_threshold(50_000, 20, 20)


def scheduler_setting(n_items: int) -> str:
    """The resolved setting: ``serial``, ``local:N`` or a scheduler address."""
    raw = os.environ.get(ENV, "").strip() or "auto"
    cores = os.cpu_count() or 1
    if raw == "auto":
        return "serial" if n_items < LOCAL_CLUSTER_FROM or cores < 2 else f"local:{cores}"
    if raw == "serial" or raw.startswith(("tcp://", "tls://", "inproc://", "ucx://")):
        return raw
    if raw == "local":
        return f"local:{cores}"
    if raw.startswith("local:") and raw[6:].isdigit() and int(raw[6:]) > 0:
        return raw
    raise AlignbenchError(
        f"{ENV}={raw!r} is not understood; use serial, auto, local, local:N or tcp://host:port"
    )


def _interactive() -> bool:
    return sys.stderr.isatty() and not os.environ.get("CI")


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


def _distributed(
    fn: Callable[[T], R], items: Sequence[T], names: Sequence[str], what: str, setting: str
) -> list[R]:
    from distributed import Client, LocalCluster, progress

    cluster: Any = None
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
                    out.append(future.result())
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
