"""A long PDF's pages read in two processes: PDFium's page loading is most of a PDF read, and it is
not thread-safe, so the second core is reached by a fork.

The open document is forked with the process; the child reads the second half of the pages and sends
its lines back through a pipe, the parent reads the first half, and the two halves are joined in
page order, so the lines are exactly those of a read in one process (``tests/test_pdf_reader.py``).
The fork happens only where it is safe and pays: a document of at least ``FORK_FROM_PAGES`` pages,
on Linux (elsewhere a fork without an exec is not safe for every system library), on a machine with
two cores or more, in a process with no other thread (forking a threaded process
can deadlock) that is not itself a worker of a process pool (the pipeline's fan-out already uses
the cores), and not when ``ALIGNBENCH_PDF_PROCESSES=1``. If the child fails, its half is read again
in the parent: the result never depends on the fork.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import sys
import threading
from collections.abc import Callable
from typing import Any

from alignbench.readers.pdf.textlayer import PdfLine

# Below this many pages a fork (a few milliseconds) saves less than it costs.
FORK_FROM_PAGES = 24
PROCESSES_VARIABLE = "ALIGNBENCH_PDF_PROCESSES"

ReadPages = Callable[[Any, range], list[PdfLine]]


def may_fork(pages: int) -> bool:
    """Whether a document of ``pages`` pages is read in two processes here (see the module doc)."""
    return (
        pages >= FORK_FROM_PAGES
        and sys.platform == "linux"
        and hasattr(os, "fork")
        and (os.cpu_count() or 1) >= 2
        and os.environ.get(PROCESSES_VARIABLE, "2") != "1"
        and threading.active_count() == 1
        and multiprocessing.parent_process() is None
    )


def read_forked(document: Any, pages: int, read_pages: ReadPages) -> list[PdfLine]:
    """The lines of every page: the second half read by a forked child, the first by this process."""
    half = pages // 2
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's coverage is not collected
        status = 1
        try:
            os.close(read_end)
            payload = pickle.dumps(read_pages(document, range(half, pages)), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(payload)
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    try:
        first = read_pages(document, range(half))
    finally:
        with os.fdopen(read_end, "rb") as pipe:
            payload = pipe.read()
        _, status = os.waitpid(child, 0)
    if status != 0:
        return first + read_pages(document, range(half, pages))
    return first + pickle.loads(payload)
