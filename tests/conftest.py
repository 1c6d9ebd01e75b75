"""Process-wide settings for the test run (each xdist worker is one such process).

- The cyclic garbage collector runs as in a stage process (``alignbench.fanout.batch_gc``): importing
  and assertion-rewriting ~90 test modules, then hypothesis, build hundreds of thousands of
  long-lived objects and few cycles, so the default young-generation threshold (700) keeps
  traversing them for nothing. After collection everything alive is frozen out of the collector's
  reach (``gc.freeze``): the modules, their ASTs and the collected items stay alive to the end anyway.
- Hypothesis's Unicode tables are seeded from ``tests/hypothesis_unicode`` when its storage
  directory lacks them (a fresh clone, CI). Hypothesis computes them on first use of ``st.text()``
  by encoding every code point: ~3 s per worker, every CI run, since ``.hypothesis/`` is not
  committed. The seeds are Hypothesis's own tables for one Unicode version; another Python's version
  finds none for it and Hypothesis computes its tables as before. ``test_hypothesis_seed.py`` checks
  the seeds against the standard library.
- Hypothesis runs no third-party plugins (``HYPOTHESIS_NO_PLUGINS``): the only one installed is trio's
  (a dependency of selenium), which seeds trio's scheduler, which no test runs; loading it scanned
  every installed distribution's entry points and imported trio, ~0.4 s of each worker's collection.
- One headless Chromium per process (``shared_chromium``) serves every browser test module, and under
  ``-n auto`` one worker runs every browser test (``pytest_xdist_make_scheduler``), so one starts.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from alignbench.fanout import batch_gc

HYPOTHESIS_SEEDS = Path(__file__).parent / "hypothesis_unicode"

batch_gc()  # here rather than in a hook: collection is where most long-lived objects are made
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")  # read when hypothesis is first imported, after this


def seed_hypothesis_unicode_tables() -> list[Path]:
    """Copy the seeds for this Python's Unicode version into Hypothesis's storage; returns those copied."""
    if "hypothesis" not in sys.modules:  # no collected module uses it: nothing to seed
        return []
    try:
        from hypothesis.internal.charmap import charmap_file
    except ImportError:  # a Hypothesis without that layout computes its tables itself
        return []
    copied = []
    for seed in sorted((HYPOTHESIS_SEEDS / unicodedata.unidata_version).glob("*.json.gz")):
        target = charmap_file(seed.name.removesuffix(".json.gz"))
        if target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")
        partial.write_bytes(seed.read_bytes())
        os.replace(partial, target)  # two workers may seed at once: each rename is whole
        copied.append(target)
    return copied


@pytest.fixture(scope="session")
def shared_chromium() -> Iterator[Any]:
    """One headless Chromium per test process for every browser test module (``browser_support``)."""
    from browser_support import start_chromium

    driver = start_chromium()
    try:
        yield driver
    finally:
        driver.quit()


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session: pytest.Session) -> None:
    """The second xdist worker imports the test modules last to first before collecting.

    Every worker imports (so assertion-rewrites and compiles) every test module, ~2 s each on a cold
    checkout. Where bytecode is written (CI: a fresh clone), pytest caches each rewritten module
    under tests/__pycache__, and a worker finding the cache skips the rewrite; gw0 collects first to
    last, gw1 pre-imports last to first, so each rewrites about half and loads the other half. Only
    for a whole-suite run (the testpaths): a run of a few modules would import all of them.
    """
    if (
        os.environ.get("PYTEST_XDIST_WORKER") != "gw1"
        or sys.dont_write_bytecode
        or session.config.args_source is not pytest.Config.ArgsSource.TESTPATHS
    ):
        return
    for path in sorted(Path(__file__).parent.glob("test_*.py"), reverse=True):
        try:
            importlib.import_module(path.stem)  # collection finds it in sys.modules and reuses it
        except (Exception, pytest.skip.Exception, pytest.fail.Exception):
            sys.modules.pop(path.stem, None)  # collection imports it again and reports the outcome


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    seed_hypothesis_unicode_tables()
    gc.collect()
    gc.freeze()


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """xdist's ``load`` distribution (``-n auto``), but the browser modules' tests (``*_browser.py``)
    form one unit that one worker runs: one Chromium starts per run (~1 s CPU and ~2 s of that
    worker's wall time) where each worker started its own. Every other test still goes, one at a time,
    to whichever worker is free. (``--dist loadgroup`` and ``xdist_group`` marks would say this, but
    with pytest 9.2's structured node ids xdist 3.8 drops the groups silently: pytest-xdist#1386.)"""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class OneBrowserWorker(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "browser tests" if nodeid.split("::", 1)[0].endswith("_browser.py") else nodeid

    return OneBrowserWorker(config, log)
