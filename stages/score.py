"""DVC stage `score`: metrics, tables and plots from the committed engine and floor outputs.

Expects exactly the pairs label_check passed (``results/labels.json``), each with every engine's
output. Exit 0 ok, 1 checks failed (incomplete inputs), 2 input error (bad params, unreadable files).
"""

from __future__ import annotations

import sys
from pathlib import Path

from alignbench.atomic import sweep_temporaries
from alignbench.errors import AlignbenchError, exit_code
from alignbench.fanout import batch_gc
from alignbench.provenance import verify_corpus, verify_engine_outputs, verify_label_record
from alignbench.runs import read_params
from alignbench.score.completeness import expectation, label_record, require_complete
from alignbench.score.settings import score_settings
from alignbench.score.write import gate_lines, score_repository

ROOT = Path(__file__).resolve().parent.parent
# Where score writes; a kill between write and rename leaves temporaries here that a re-run sweeps.
OUTPUTS: tuple[str, ...] = (
    "results/metrics.json",
    "results/latest.json",
    "results/tables",
    "results/plots",
    "results/headline",
)


def _what_is_left(root: Path) -> str:
    """The truth about the outputs after a failure: DVC deletes them first, a direct run does not."""
    present = [name for name in OUTPUTS[:2] if (root / name).is_file()]
    if not present:
        return "no score output exists (none was written)"
    return f"{' and '.join(present)} were not updated: they are from an earlier run"


def main(root: Path = ROOT) -> int:
    batch_gc()
    for output in OUTPUTS:
        for leftover in sweep_temporaries(root / output):
            print(f"score: removed {leftover.name}, left by an interrupted earlier run", file=sys.stderr)
    try:
        print(f"score: {expectation(root)}")
        require_complete(root)
        score_settings(read_params(root, "score"))  # bad score params are named before any input is read
        read = verify_corpus(root)  # every input directory exactly as its stage wrote it, at these params
        verify_label_record(root, label_record(root), read)
        verify_engine_outputs(root)
        latest = score_repository(root)
    except AlignbenchError as exc:
        print(f"score: error: {exc}; {_what_is_left(root)}", file=sys.stderr)
        return exit_code(exc)
    for line in gate_lines(latest):
        print(f"score: gate {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
