"""``python -m alignbench.bench``: read + align timings, each also as a ratio to a calibration loop.

Speed is measured here and never in tests. Every document is generated from a fixed seed, so two runs
time the same work. Absolute times depend on the machine and its load, so every figure is also printed
as a multiple of a fixed pure-Python loop (``calib``): the ratios travel between machines and are what
the targets are written in.

The loop is timed right before and right after every timed run, and each run is divided by the mean of
its own two loops; a figure is the median of those ratios. The shared machines this runs on switch
speed mid-run (the same loop takes 100 ms, then 205 ms, for seconds at a time), so one calibration at
the start could be taken in the other speed than the run it divides, and the ratio was off by up to 2x.
A run whose two loops differ by more than ``STEADY_DRIFT`` saw the machine change speed, so its ratio
says nothing: it is discarded and run again (up to ``MAX_ATTEMPTS`` times the repeats), and the line
says how many were.

The 2k and 20k runs of a backend alternate (:func:`timed_rounds`): loop, 2k, loop, 20k, loop. The
20k/2k figure is the median of each round's own quotient, two runs seconds apart, not the quotient of
two medians taken a minute apart, which put one host state over another (9.8x to 12.0x for the same
code in one afternoon).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench.alignment import AlignmentConfig, align
from alignbench.alignment.config import BACKENDS as SIMILARITY_BACKENDS
from alignbench.alignment.similarity import resolve_backend
from alignbench.workloads import (
    identical_paragraphs_pair,
    paragraph_pair,
    revised_pair,
    to_markdown,
    to_tree,
)

# The similarity backends of our aligner (AlignmentConfig.similarity), "auto" resolved to the fast one.
BACKENDS = tuple(b for b in SIMILARITY_BACKENDS if b != "auto")
FAST = resolve_backend("auto")
SMALL_SECTIONS = 222  # 1,998 clauses
LARGE_SECTIONS = 2_222  # 19,998 clauses
HUGE_SECTIONS, HUGE_PER_SECTION = 4_000, 50  # 200,000 clauses
GOAL_SMALL_CALIB = 0.5
GOAL_LARGE_RATIO = 11.0
GOAL_HUGE_RATIO = 12.0
GOAL_RSS_MB = 100.0
GOAL_PARAGRAPH_S = 2.0
GOAL_IDENTICAL_S = 5.0
GOAL_STARTUP_S = 0.15


def calibration_loop() -> int:
    """The fixed unit of work every figure is divided by: 1M iterations of a dict store and a multiply."""
    s = 0
    d: dict[int, int] = {}
    for i in range(1_000_000):
        s += i * i
        d[i & 1023] = s
    return len(d)


# Two calibration loops around a run that differ by more than this fraction of the faster one: the
# machine changed speed during the run (its two speeds are 2x apart), so the run is timed again.
STEADY_DRIFT = 0.2
MAX_ATTEMPTS = 4


@dataclass(frozen=True)
class Sample:
    """One timed run and the calibration loops right before and after it, in seconds."""

    before: float
    run: float
    after: float

    @property
    def ratio(self) -> float:
        return self.run / ((self.before + self.after) / 2)

    @property
    def steady(self) -> bool:
        return max(self.before, self.after) <= (1 + STEADY_DRIFT) * min(self.before, self.after)


@dataclass(frozen=True)
class Timing:
    seconds: float  # the median run
    calib: float  # the median of each run's ratio to the calibration loops timed around it
    last: object = None  # what the last run returned
    discarded: int = 0  # runs the machine changed speed during (see ``Sample.steady``)
    all_unsteady: bool = False  # no run was steady: the figure is the median of them all
    runs: str = "run(s)"  # what ``discarded`` counts: runs, or rounds of a 2k and a 20k run


def summarise(samples: Sequence[Sample], last: object = None) -> Timing:
    """The medians over the steady samples, or over all of them when none was steady (flagged)."""
    steady = [s for s in samples if s.steady]
    return _medians(
        steady or list(samples), last, discarded=len(samples) - len(steady), all_unsteady=not steady
    )


def _medians(samples: Sequence[Sample], last: object = None, **counts: Any) -> Timing:
    """The median run and the median calib ratio of ``samples``, with the counts ``Timing`` reports."""
    return Timing(
        statistics.median(s.run for s in samples), statistics.median(s.ratio for s in samples), last, **counts
    )


def timed(fn: Callable[[], object], repeats: int) -> Timing:
    """``fn`` run until ``repeats`` runs were steady (at most ``MAX_ATTEMPTS * repeats`` runs), each
    between two calibration loops (see the module docstring)."""
    samples: list[Sample] = []
    last: object = None
    steady = 0
    while steady < repeats and len(samples) < MAX_ATTEMPTS * repeats:
        # The last run's result is freed here, untimed: assigned the next one's, it was freed inside
        # that run's timing (12 ms of a 20,000-clause run, 0.4 ms of a 2,000-clause one).
        last = None
        before = _seconds(calibration_loop)
        start = time.perf_counter()
        last = fn()
        run = time.perf_counter() - start
        after = _seconds(calibration_loop)
        samples.append(Sample(before, run, after))
        steady += samples[-1].steady
    return summarise(samples, last)


def _seconds(fn: Callable[[], object]) -> float:
    """``fn``'s time, its result freed after the clock stops (freeing 20k clauses' trees takes 12 ms)."""
    start = time.perf_counter()
    result = fn()
    elapsed = time.perf_counter() - start
    del result
    return elapsed


@dataclass(frozen=True)
class Round:
    """A 2k run and a 20k run timed one after the other, three calibration loops around them (the
    middle one shared): each run is divided by its own two loops, as in :class:`Sample`."""

    small: Sample
    large: Sample

    @property
    def steady(self) -> bool:
        return self.small.steady and self.large.steady

    @property
    def scale(self) -> float:
        """The 20k run's calib ratio over the 2k run's."""
        return self.large.ratio / self.small.ratio


@dataclass(frozen=True)
class Scaling:
    small: Timing
    large: Timing
    scale: float  # the median of the counted rounds' ``Round.scale``


def summarise_rounds(rounds: Sequence[Round]) -> Scaling:
    """The medians over the steady rounds, or over all of them when none was steady (flagged)."""
    steady = [r for r in rounds if r.steady]
    used = steady or list(rounds)
    counts = {"discarded": len(rounds) - len(steady), "all_unsteady": not steady, "runs": "round(s)"}
    return Scaling(
        _medians([r.small for r in used], **counts),
        _medians([r.large for r in used], **counts),
        statistics.median(r.scale for r in used),
    )


def timed_rounds(small: Callable[[], object], large: Callable[[], object], repeats: int) -> Scaling:
    """Rounds of loop, ``small``, loop, ``large``, loop, until ``repeats`` rounds were steady (at most
    ``MAX_ATTEMPTS * repeats``). A run's result is freed after its timing. (A 2k run right after a 20k
    one is not slower: 0.461 against 0.458 calib after another 2k run, medians of 12.)"""
    rounds: list[Round] = []
    while sum(r.steady for r in rounds) < repeats and len(rounds) < MAX_ATTEMPTS * repeats:
        before = _seconds(calibration_loop)
        small_run = _seconds(small)
        middle = _seconds(calibration_loop)
        large_run = _seconds(large)
        after = _seconds(calibration_loop)
        rounds.append(Round(Sample(before, small_run, middle), Sample(middle, large_run, after)))
    return summarise_rounds(rounds)


def read_and_align(old_md: str, new_md: str, backend: str) -> object:
    """What ``alignbench compare`` does with two documents, reading them as a fresh process would: the
    reader's label caches are emptied first, so a repeat is not timed on lines it read the time before
    (the old document's lines still serve the new one's, as they do in one comparison)."""
    from alignbench.readers import read
    from alignbench.readers.label_grammar import clear_label_caches

    clear_label_caches()
    return align(
        read(old_md, format="markdown"), read(new_md, format="markdown"), AlignmentConfig(similarity=backend)
    )


def markdown_pair(n_sections: int, per_section: int = 9) -> tuple[str, str]:
    base, revised = revised_pair(n_sections, per_section)
    return to_markdown(base), to_markdown(revised)


def peak_rss_mb(n_sections: int, backend: str) -> float:
    """Peak RSS of a fresh interpreter that reads and aligns the pair: the whole process, imports too.

    The pair is generated here and handed over as two files, which the child reads as ``alignbench
    compare`` does: the figure is the cost of reading and aligning, not of generating the documents
    (their generator alone peaks about 20 MB above the imports)."""
    with tempfile.TemporaryDirectory() as tmp:
        old, new = markdown_pair(n_sections)
        paths = [Path(tmp, "old.md"), Path(tmp, "new.md")]
        for path, text in zip(paths, (old, new), strict=True):
            path.write_text(text, encoding="utf-8")
        del old, new
        out = subprocess.run(
            [sys.executable, "-m", "alignbench.bench", "--rss-child", str(paths[0]), str(paths[1]), backend],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    return float(json.loads(out)["peak_rss_mb"])


def own_peak_rss_kib() -> int:
    """This process's own peak RSS. On Linux that is ``VmHWM``: ``ru_maxrss`` of a spawned child
    starts at its parent's peak (the kernel carries it over at exec), so a child of a bench that had
    already aligned the 20k pair reported the parent's 100+ MB whatever the child itself used."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    import resource

    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)  # KiB on Linux


def _rss_child(old_path: str, new_path: str, backend: str) -> int:
    from alignbench.readers import read_document

    align(read_document(old_path), read_document(new_path), AlignmentConfig(similarity=backend))
    print(json.dumps({"peak_rss_mb": round(own_peak_rss_kib() / 1024, 1)}))
    return 0


def huge_report(large: Timing) -> None:
    """200,000 clauses in 4,000 sections (labels up to ``4000.50``), against the 20k read + align time.

    The markdown is read when the reader accepts it; a reader that refuses it (its size limit) is
    reported, and the trees it would have built (:func:`to_tree`) are aligned instead, so the engine's
    own scaling is still measured."""
    from alignbench.errors import AlignbenchError
    from alignbench.readers import read

    backend = FAST
    base, revised = revised_pair(HUGE_SECTIONS, HUGE_PER_SECTION)
    old_md, new_md = to_markdown(base), to_markdown(revised)
    config = AlignmentConfig(similarity=backend)

    def read_then_align() -> tuple[object, object]:
        old = read(old_md, format="markdown")
        return old, align(old, read(new_md, format="markdown"), config)

    try:
        huge, how = timed(read_then_align, 1), "read+align"
    except AlignbenchError as exc:
        print(f"read       {backend:9} 200k clauses: not read ({exc}); aligning the labelled trees instead")
        trees = to_tree(base), to_tree(revised)
        huge, how = timed(lambda: (trees[0], align(*trees, config)), 1), "align     "
    old, result = huge.last  # type: ignore[misc]
    labelled = sum(1 for b in old.blocks() if b.label and "." in b.label)  # type: ignore[attr-defined]
    ratio = huge.calib / large.calib
    flagged = result.budget_exhausted  # type: ignore[attr-defined]
    print(
        f"{how} {backend:9} 200k clauses in 4,000 sections: {_figure(huge)}, {ratio:.1f}x the 20k pair, "
        f"{labelled:,} clause labels {'read' if how == 'read+align' else 'in the trees'}, "
        f"{len(result.pairs):,} pairs, "  # type: ignore[attr-defined]
        f"budget_exhausted={str(flagged).lower()} "
        f"(goal <= {GOAL_HUGE_RATIO:.0f}x, no flag: {_verdict(ratio <= GOAL_HUGE_RATIO and not flagged)})"
    )


def startup_command() -> list[str]:
    """What a reviewer types, ``alignbench compare --help``: the console script of this interpreter's
    environment, or ``python -m alignbench.cli`` where none is installed (a source checkout)."""
    script = Path(sys.executable).with_name("alignbench")
    head = [str(script)] if script.is_file() else [sys.executable, "-m", "alignbench.cli"]
    return [*head, "compare", "--help"]


def startup_report(repeats: int) -> None:
    """A fresh process up to the compare parser's help: the imports a command pays before any work."""
    command = startup_command()
    t_start = timed(lambda: subprocess.run(command, check=True, capture_output=True), repeats)
    print(
        f"start-up   alignbench compare --help: {_figure(t_start)} "
        f"(goal <= {GOAL_STARTUP_S} s: {_verdict(t_start.seconds <= GOAL_STARTUP_S)})"
    )


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def _figure(timing: Timing) -> str:
    figure = f"{timing.seconds * 1000:,.1f} ms = {timing.calib:.2f} calib"
    if timing.all_unsteady:
        return f"{figure} [no steady run: the machine changed speed during every one]"
    if timing.discarded:
        return f"{figure} [{timing.discarded} {timing.runs} re-run: the machine changed speed during them]"
    return figure


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m alignbench.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="steady runs per 2k and 20k figure (median)")
    parser.add_argument("--skip-huge", action="store_true", help="skip the 200,000-clause document")
    parser.add_argument("--rss-child", nargs=3, metavar=("OLD", "NEW", "BACKEND"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rss_child:
        return _rss_child(*args.rss_child)
    repeats = max(1, args.repeats)
    calib = timed(calibration_loop, repeats)
    print(
        f"alignbench bench (median of {repeats} steady runs); calib = {calib.seconds * 1000:.1f} ms "
        "(1M-iteration loop), timed before and after every run"
    )

    small = markdown_pair(SMALL_SECTIONS)
    large = markdown_pair(LARGE_SECTIONS)
    large_times: dict[str, Timing] = {}
    for backend in BACKENDS:
        scaling = timed_rounds(
            lambda b=backend: read_and_align(*small, b), lambda b=backend: read_and_align(*large, b), repeats
        )
        t_small, t_large, ratio = scaling.small, scaling.large, scaling.scale
        large_times[backend] = t_large
        print(
            f"read+align {backend:9}  2k clauses: {_figure(t_small)} "
            f"(goal <= {GOAL_SMALL_CALIB} calib: {_verdict(t_small.calib <= GOAL_SMALL_CALIB)})"
        )
        print(
            f"read+align {backend:9} 20k clauses: {_figure(t_large)}, {ratio:.1f}x the 2k pair beside it "
            f"(goal <= {GOAL_LARGE_RATIO:.0f}x: {_verdict(ratio <= GOAL_LARGE_RATIO)})"
        )

    rss = peak_rss_mb(LARGE_SECTIONS, FAST)
    print(
        f"peak RSS   {FAST} 20k clauses: {rss:.1f} MB "
        f"(goal <= {GOAL_RSS_MB:.0f} MB: {_verdict(rss <= GOAL_RSS_MB)})"
    )

    if not args.skip_huge:
        huge_report(large_times[FAST])

    paragraph = paragraph_pair(1_000_000)
    for backend in BACKENDS:
        t_para = timed(lambda b=backend: align(*paragraph, AlignmentConfig(similarity=b)), 1)
        result = t_para.last
        print(
            f"align      {backend:9} one 1 MB paragraph: {_figure(t_para)}, "
            f"matched_by={result.pairs[-1].matched_by if len(result.pairs) > 1 else 'none'}, "  # type: ignore[attr-defined]
            f"budget_exhausted={str(result.budget_exhausted).lower()} "  # type: ignore[attr-defined]
            f"(goal <= {GOAL_PARAGRAPH_S:.0f} s: {_verdict(t_para.seconds <= GOAL_PARAGRAPH_S)})"
        )

    same = identical_paragraphs_pair(10_000)
    for backend in BACKENDS:
        t_same = timed(lambda b=backend: align(*same, AlignmentConfig(similarity=b)), 1)
        result = t_same.last
        print(
            f"align      {backend:9} 10,000 identical paragraphs: {_figure(t_same)}, "
            f"budget_exhausted={str(result.budget_exhausted).lower()}, "  # type: ignore[attr-defined]
            f"comparisons={result.comparisons:,} "  # type: ignore[attr-defined]
            f"(goal < {GOAL_IDENTICAL_S:.0f} s: {_verdict(t_same.seconds < GOAL_IDENTICAL_S)})"
        )

    from alignbench.bench_formats import formats_report

    formats_report(timed, _figure, _verdict, repeats)
    startup_report(max(repeats, 7))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
