"""DVC stage `report`: write REPORT.md from the score stage's outputs, the label check figures, the
blind pass (corpus/labels/real), the outside set (results/outside.json) and the reader changes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from alignbench.atomic import write_text
from alignbench.engines.registry import selected
from alignbench.errors import AlignbenchError
from alignbench.fanout import batch_gc
from alignbench.labels.blind_summary import blind_pass_summary
from alignbench.labels.hardest import load_hardest
from alignbench.provenance import verify_score_outputs
from alignbench.report import render_report
from alignbench.report.reader_changes import load_reader_changes

ROOT = Path(__file__).resolve().parent.parent
TABLES = ("per_pass", "per_plan", "per_family", "backend_delta", "leaderboard")


def _read(path: Path, stage: str = "score") -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise AlignbenchError(f"{path.relative_to(ROOT)} is missing; run `dvc repro {stage}` first") from None


def _plugin_index() -> dict | None:
    """results/engines/index.json, the plugins stage's record of the third-party runs, if any."""
    path = ROOT / "results" / "engines" / "index.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def main() -> int:
    batch_gc()
    try:
        verify_score_outputs(ROOT)  # tables, latest.json and plots from one score run at these params
        latest = json.loads(_read(ROOT / "results" / "latest.json"))
        tables = {name: _read(ROOT / "results" / "tables" / f"{name}.csv") for name in TABLES}
        labels_path = ROOT / "results" / "labels.json"
        labels_json = json.loads(labels_path.read_text(encoding="utf-8")) if labels_path.is_file() else None
        text = render_report(
            latest,
            tables,
            labels_json,
            blind=blind_pass_summary(ROOT),
            hardest=load_hardest(ROOT),
            outside=json.loads(_read(ROOT / "results" / "outside.json", "outside")),
            reader_changes=load_reader_changes(ROOT),
            selected_peers=selected(ROOT),
            plugin_index=_plugin_index(),
        )
        write_text(ROOT / "REPORT.md", text)
    except (AlignbenchError, json.JSONDecodeError) as exc:
        print(f"report: error: {exc}", file=sys.stderr)
        return 2  # an input is missing or unreadable (docs/CONTRACTS.md, exit codes)
    print("report: REPORT.md written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
