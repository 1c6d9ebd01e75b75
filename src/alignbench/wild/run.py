"""Read and align consecutive revisions of an imported history, and report what a reader or the engine
did wrong: crashes, words lost or invented (:mod:`alignbench.noloss`), exhausted comparison budgets.

Each pair runs in a worker (:func:`alignbench.fanout.map_pairs`), which catches any exception and
returns it as the pair's crash, so one bad revision is counted, not fatal, and the run always reports
the whole sample. Times are wall-clock seconds of read + align in the worker: development figures for
docs/WILD.md, never a test.
"""

from __future__ import annotations

import statistics
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench.alignment import align
from alignbench.fanout import map_pairs
from alignbench.noloss import account
from alignbench.readers import read
from alignbench.wild.history import Revision, consecutive_pairs, load_index


@dataclass(frozen=True)
class PairJob:
    root: str
    old: Revision
    new: Revision

    @property
    def name(self) -> str:
        return f"{self.old.document}#{self.old.number}->{self.new.number}"


def run_pair(job: PairJob) -> dict[str, Any]:
    """One pair's record; never raises for a problem of the documents themselves."""
    record: dict[str, Any] = {"pair": job.name, "document": job.new.document, "crash": None, "loss": []}
    started = time.perf_counter()
    try:
        trees = []
        for revision in (job.old, job.new):
            path = Path(job.root) / revision.file
            tree = read(path)
            check = account(path.read_text(encoding="utf-8"), tree)
            if not check.ok:
                record["loss"].append({"revision": revision.file, "detail": check.describe()})
            trees.append(tree)
        result = align(trees[0], trees[1])
        record["budget_exhausted"] = bool(result.budget_exhausted)
        record["blocks_old"] = len(trees[0])
        record["blocks_new"] = len(trees[1])
    except Exception as exc:  # the wild run counts crashes; it must see every one, of any type
        last = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{Path(last.filename).name}:{last.lineno}"
        record["crash"] = f"{type(exc).__name__} at {where}: {str(exc).strip()[:300]}"
    record["seconds"] = time.perf_counter() - started
    return record


def sample(pairs: list[Any], limit: int | None) -> list[Any]:
    """All pairs, or ``limit`` of them spread evenly over the list (so every document is visited in turn)."""
    if limit is None or limit >= len(pairs):
        return pairs
    if limit <= 0:
        return []
    step = len(pairs) / limit
    return [pairs[int(k * step)] for k in range(limit)]


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile by the nearest-rank rule (0.0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), -(-int(q * 100 * len(ordered)) // 100)))
    return ordered[rank - 1]


def run(root: Path, limit: int | None = None, setting: str | None = None) -> dict[str, Any]:
    """The report of a run over the import at ``root``."""
    revisions = load_index(root)
    pairs = consecutive_pairs(revisions)
    chosen = sample(pairs, limit)
    jobs = [PairJob(str(root), old, new) for old, new in chosen]
    records = map_pairs(run_pair, jobs, [j.name for j in jobs], "wild", setting)
    return summarise(records, len(pairs), len({r.document for r in revisions}), len(revisions))


def summarise(
    records: list[dict[str, Any]], pairs_total: int, documents: int, revisions: int
) -> dict[str, Any]:
    crashes = [r for r in records if r["crash"]]
    lost: dict[str, str] = {}
    for r in records:
        for loss in r["loss"]:
            lost.setdefault(loss["revision"], loss["detail"])
    blocks: dict[str, int] = {}
    for r in records:
        if r["crash"] is None:
            blocks[r["document"]] = r["blocks_new"]  # the newest revision in the sample
    per_document = sorted(blocks.values())
    seconds = [r["seconds"] for r in records]
    return {
        "documents": documents,
        "revisions": revisions,
        "pairs_total": pairs_total,
        "pairs_run": len(records),
        "crashes": len(crashes),
        "crash_list": [{"pair": r["pair"], "crash": r["crash"]} for r in crashes],
        "noloss_violations": len(lost),
        "noloss_list": [{"revision": k, "detail": lost[k]} for k in sorted(lost)],
        "budget_flags": sum(1 for r in records if r.get("budget_exhausted")),
        "blocks_per_document": {
            "documents": len(per_document),
            "min": per_document[0] if per_document else 0,
            "median": statistics.median(per_document) if per_document else 0,
            "max": per_document[-1] if per_document else 0,
            "by_document": dict(sorted(blocks.items())),
        },
        "seconds_per_pair": {
            "p50": round(percentile(seconds, 0.50), 4),
            "p99": round(percentile(seconds, 0.99), 4),
            "max": round(max(seconds), 4) if seconds else 0.0,
            "total": round(sum(seconds), 2),
        },
    }


def format_summary(report: dict[str, Any]) -> str:
    """The lines ``python -m alignbench.wild run`` prints."""
    b, s = report["blocks_per_document"], report["seconds_per_pair"]
    lines = [
        f"documents {report['documents']}, revisions {report['revisions']}, "
        f"pairs run {report['pairs_run']} of {report['pairs_total']}",
        f"crashes {report['crashes']}",
        f"no-loss violations {report['noloss_violations']} (revisions)",
        f"budget flags {report['budget_flags']}",
        f"blocks per document (newest revision run): min {b['min']}, median {b['median']}, max {b['max']} "
        f"over {b['documents']} documents",
        f"seconds per pair (read + align): p50 {s['p50']}, p99 {s['p99']}, max {s['max']}",
    ]
    lines += [f"crash: {c['pair']}: {c['crash']}" for c in report["crash_list"]]
    lines += [f"loss: {v['revision']}: {v['detail']}" for v in report["noloss_list"]]
    return "\n".join(lines)
