"""The cyclic garbage collector paused while a large structure without reference cycles is built.

Reading a document, aligning two and loading a cached tree each make tens of thousands of small
objects (blocks, tuples, lists) and no reference cycle. Left running, the collector re-traversed every
block made so far at each burst of them: a 20,000-clause document read half as slow again per clause
as a 2,000-clause one. Paused, it still counts those objects as young, and the first allocation after
it resumes sent it through all of them at once: two collections of 20 ms in each read and align of a
20,000-clause pair (2.5 ms at 2,000), which collected nothing.

So before resuming, every object is moved to the oldest generation without being traversed
(``gc.freeze()`` then ``gc.unfreeze()``: two list splices, and the young count set to zero). That
generation is the one these objects reach after two collections anyway; cyclic garbage the caller made
before still goes at the next full collection. A caller that froze objects itself (a server before it
forks, or this project's test run) is left alone: unfreezing would hand its objects back to the
collector. Nor is anything moved when fewer young objects wait than would set off a collection.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_collector() -> Iterator[None]:
    """The collector off for the block, back on after (even on an error) if it was on before, with
    what the block made already counted as old (see the module docstring). A caller that paused it
    itself keeps it paused, and its counts."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            # Only when a collection is due (``gc.get_freeze_count`` walks every frozen object: a
            # process that froze a million pays for that walk, but only where a collection of at
            # least as many young objects is spared).
            if gc.get_count()[0] >= gc.get_threshold()[0] and gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()
