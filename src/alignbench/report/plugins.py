"""The report's lines on third-party engines: what they are, how they ran, how many pairs failed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from alignbench.engines.registry import info


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def plugin_lines(names: Sequence[str], shown: Sequence[str], index: Mapping[str, Any] | None) -> list[str]:
    """One paragraph naming every selected third-party engine; empty when none is selected."""
    if not names:
        return []
    runs = (index or {}).get("engines") or {}
    lines = [
        "Third-party engines (plug-ins, docs/ENGINES.md) are run by the `plugins` stage in a subprocess, "
        "one pair at a time, under `params.yaml isolation:`; a pair that crashed, timed out or returned "
        "an invalid Alignment JSON is scored as all-missed and counted in `failed_pairs`.",
        "",
    ]
    for name in names:
        engine = info(name)
        caps = engine.capabilities
        run = runs.get(name) or {}
        failed = run.get("failed") or {}
        failures = ", ".join(f"{kind} {n}" for kind, n in failed.items()) or "none"
        status = "scored" if name in shown else "not shown (no current outputs: run `dvc repro plugins`)"
        lines.append(
            f"- `{name}` {engine.version} (package `{engine.distribution}`; claims moves: "
            f"{_yes(caps.moves)}, renumbers: {_yes(caps.renumbers)}, rows: {_yes(caps.rows)}): {status}; "
            f"failed pairs: {failures}."
        )
    return [*lines, ""]
