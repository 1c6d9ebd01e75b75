"""``alignbench evaluate ENGINE``: one engine through the benchmark beside ours and the floor, one command.

The corpus is a checkout (``--corpus DIR``, default the current directory when it holds ``corpus/``)
or the corpus bundle, a data artefact (``--corpus FILE.tar.gz``, :mod:`alignbench.engines.bundle`).
Everything runs in a scratch copy of the repository layout (the corpus linked, never written): the
reference and subject engines in-process, the evaluated engine isolated when it is third-party
(:mod:`alignbench.engines.isolation`). The same scorer as the pipeline's counts every pair; a pair the
engine failed on is all-missed and counted. Outputs: ``OUT/pairs/<tier>/<pair>.json`` (the engine's
output and its counts), ``OUT/summary.json`` and ``OUT/summary.html`` (self-contained).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench.atomic import dump_json, write_text
from alignbench.engines.registry import Roster, info, selection
from alignbench.engines.roles import CALIBRATION, PEER, REFERENCE, SUBJECT
from alignbench.errors import AlignbenchError
from alignbench.tiers import TIER_DIRS, TIERS

SUMMARY_SCHEMA = "alignbench/evaluation/v1"
METRICS: tuple[str, ...] = ("f1", "precision", "recall", "move_precision", "move_recall", "renumber_recall")
CORPUS_DIRS: dict[str, tuple[str, ...]] = {
    "real": ("corpus/labels/real", "corpus/real"),
    "synthetic": ("corpus/synthetic",),
}


@dataclass
class Evaluation:
    engine: str
    tiers: tuple[str, ...]
    roster: Roster
    summary: dict[str, Any]
    failed: dict[str, str]  # tier/pair -> reason
    out: Path


def corpus_root(corpus: str | None) -> tuple[Path, Path | None]:
    """(root, temporary directory to remove or None) of ``--corpus``."""
    if corpus is None:
        corpus = os.environ.get("ALIGNBENCH_CORPUS") or "."
        if corpus == "." and not Path("corpus").is_dir():
            raise AlignbenchError(
                "no corpus here: run in a checkout of alignbench, or pass --corpus BUNDLE.tar.gz "
                "(the corpus data artefact, docs/ENGINES.md)"
            )
    path = Path(corpus)
    if path.is_dir():
        if not (path / "params.yaml").is_file() or not (path / "corpus").is_dir():
            raise AlignbenchError(
                f"{path}: not a corpus (no params.yaml and corpus/); pass a checkout or a bundle"
            )
        return path.resolve(), None
    from alignbench.engines.bundle import unpack

    unpacked = unpack(path)
    return unpacked, unpacked


def _workspace(root: Path, tiers: Sequence[str]) -> Path:
    """A scratch repository: params.yaml copied, the chosen tiers' corpus directories linked."""
    work = Path(tempfile.mkdtemp(prefix="alignbench-evaluate-"))
    shutil.copy(root / "params.yaml", work / "params.yaml")
    for tier in tiers:
        for rel in CORPUS_DIRS[tier]:
            if (root / rel).is_dir():
                (work / rel).parent.mkdir(parents=True, exist_ok=True)
                (work / rel).symlink_to(root / rel, target_is_directory=True)
    return work


def evaluation_roster(engine: str, params: dict[str, Any]) -> Roster:
    """The selected reference, subjects and calibration rows, and ``engine``."""
    shown = [n for n in selection(params) if info(n).role in (REFERENCE, SUBJECT, CALIBRATION)]
    if engine not in shown:
        shown.append(engine)
    order = {REFERENCE: 0, SUBJECT: 1, CALIBRATION: 2, PEER: 3}
    return Roster(tuple(sorted(shown, key=lambda n: order[info(n).role])))


def evaluate(engine: str, tier: str, corpus: str | None, out: Path) -> Evaluation:
    from alignbench.engines.isolation import run_isolated
    from alignbench.engines.run import read_all_params, run_engine
    from alignbench.score.aggregate import summarise
    from alignbench.score.collect import score_all
    from alignbench.score.settings import score_settings

    info(engine)  # an unknown engine fails before any work
    tiers = TIERS if tier == "all" else (tier,)
    root, unpacked = corpus_root(corpus)
    work = _workspace(root, tiers)
    try:
        params = read_all_params(work)
        roster = evaluation_roster(engine, params)
        failed: dict[str, str] = {}
        for name in roster.headline:
            run_engine(work, name)
        if info(engine).role == PEER:
            run = run_isolated(work, engine, params)
            failed = {where: f["reason"] for where, f in run.failed.items()}
        pairs = score_all(work, None, roster)
        if not pairs:
            raise AlignbenchError(f"{root}: no labelled pairs in tier(s) {', '.join(tiers)}")
        summary = summarise(pairs, score_settings(params.get("score")), None, roster)
        summary["tiers"] = {t: summary["tiers"][t] for t in tiers if t in summary["tiers"]}
        _write_pairs(work, engine, pairs, out, failed)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if unpacked is not None:
            shutil.rmtree(unpacked, ignore_errors=True)
    evaluation = Evaluation(engine, tiers, roster, summary, failed, out)
    write_text(out / "summary.json", dump_json(summary_record(evaluation)))
    write_text(out / "summary.html", render_html(evaluation))
    return evaluation


def _write_pairs(work: Path, engine: str, pairs: Sequence[Any], out: Path, failed: dict[str, str]) -> None:
    from alignbench.engines.registry import output_path
    from alignbench.score.ratios import headline, rounded

    for p in pairs:
        where = f"{p.tier}/{p.pair}"
        counts = p.counts[engine]["all"]
        source = output_path(work, engine, p.tier, p.pair)
        record = {
            "tier": p.tier,
            "pair": p.pair,
            "engine": engine,
            "failed": failed.get(where) or p.failed.get(engine),
            "counts": counts.to_dict(),
            "headline": {k: rounded(v) for k, v in headline(counts).items()},
            "output": __import__("json").loads(source.read_text(encoding="utf-8"))
            if source.is_file()
            else None,
        }
        write_text(out / "pairs" / p.tier / f"{p.pair}.json", dump_json(record))


def headline_rows(evaluation: Evaluation, tier: str) -> list[dict[str, Any]]:
    """One row per engine: name, display name, each metric's value and interval, failed pairs."""
    data = evaluation.summary["tiers"][tier]
    rows = []
    for name in data["engines"]:
        block = data["engines"][name]["all"]
        rows.append(
            {
                "engine": name,
                "display": info(name).display_name,
                "evaluated": name == evaluation.engine,
                "failed": data.get("failed_pairs", {}).get(name, 0),
                "metrics": {m: {"value": block["headline"][m], "ci": block["ci"].get(m)} for m in METRICS},
            }
        )
    return rows


def _cell(metric: dict[str, Any]) -> str:
    from alignbench.score.ratios import fmt

    value, ci = metric["value"], metric["ci"]
    return fmt(value) if ci is None else f"{fmt(value)} [{fmt(ci[0])}, {fmt(ci[1])}]"


def _split_cell(metric: dict[str, Any]) -> tuple[str, str]:
    """(value, interval) as text for the HTML page, the interval empty where there is none."""
    from alignbench.score.ratios import fmt

    ci = metric["ci"]
    return fmt(metric["value"]), "" if ci is None else f"[{fmt(ci[0])}, {fmt(ci[1])}]"


def text_table(evaluation: Evaluation) -> str:
    """The headline per tier as plain text: every engine's metrics with 95% bootstrap intervals."""
    lines: list[str] = []
    for tier in evaluation.summary["tiers"]:
        data = evaluation.summary["tiers"][tier]
        lines.append(f"{tier}: {len(data['pairs'])} pairs (all labelled blocks; 95% bootstrap intervals)")
        header = ["engine", *METRICS, "failed pairs"]
        body = [
            [
                ("* " if r["evaluated"] else "  ") + r["display"],
                *(_cell(r["metrics"][m]) for m in METRICS),
                str(r["failed"]),
            ]
            for r in headline_rows(evaluation, tier)
        ]
        widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
        for row in [header, *body]:
            lines.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip())
        lines.append("")
    if evaluation.failed:
        lines.append(f"{evaluation.engine}: {len(evaluation.failed)} pair(s) failed, scored as all-missed:")
        lines += [f"  {where}: {reason}" for where, reason in sorted(evaluation.failed.items())]
    return "\n".join(lines)


def summary_record(evaluation: Evaluation) -> dict[str, Any]:
    engine = info(evaluation.engine)
    return {
        "schema": SUMMARY_SCHEMA,
        "engine": {
            "name": engine.name,
            "version": engine.version,
            "distribution": engine.distribution,
            "capabilities": engine.capabilities.to_dict(),
        },
        "tiers": {tier: headline_rows(evaluation, tier) for tier in evaluation.summary["tiers"]},
        "failed_pairs": dict(sorted(evaluation.failed.items())),
        "score_params": evaluation.summary["score_params"],
    }


def render_html(evaluation: Evaluation) -> str:
    """The self-contained summary page (inline CSS, no script, no request)."""
    import jinja2

    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("alignbench.engines", "templates"),
        autoescape=True,
        keep_trailing_newline=True,
    )
    record = summary_record(evaluation)
    tiers = {
        tier: [dict(row, cells=[_split_cell(row["metrics"][m]) for m in METRICS]) for row in rows]
        for tier, rows in record["tiers"].items()
    }
    pairs = {tier: len(evaluation.summary["tiers"][tier]["pairs"]) for tier in tiers}
    return environment.get_template("summary.html.j2").render(
        record=record, tiers=tiers, pairs=pairs, metrics=METRICS, tier_dirs=TIER_DIRS
    )
