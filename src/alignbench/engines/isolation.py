"""Run a third-party engine in a subprocess, one pair at a time, under a time and a memory limit.

The worker (:mod:`alignbench.engines.worker`) loads the engine by name, reads each pair itself and
answers one JSON line per request. A pair whose worker crashes, exceeds ``isolation.time_limit_seconds``
(the worker is killed and a fresh one started for the next pair), raises, or answers something that
is not a valid Alignment JSON (``schemas/alignment.json``) is written as a ``failed`` record: the
scorer counts it as all-missed (intent to treat) and the report counts it. Nothing an engine does
fails the pipeline; the reason names the pair and, for invalid output, the field.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from alignbench.atomic import dump_json, prune, write_texts
from alignbench.engines.registry import info
from alignbench.errors import AlignbenchError
from alignbench.tiers import TierPair, discover

FAILURE_KINDS: tuple[str, ...] = ("crash", "timeout", "invalid")


@dataclass(frozen=True)
class Limits:
    time_limit_seconds: float
    memory_limit_mb: int


@dataclass
class IsolatedRun:
    """What one engine's isolated run wrote and which pairs failed (``tier/pair`` -> reason)."""

    written: list[Path] = field(default_factory=list)
    failed: dict[str, dict[str, str]] = field(default_factory=dict)


def read_limits(params: Mapping[str, Any]) -> Limits:
    section = params.get("isolation")
    if not isinstance(section, Mapping):
        raise AlignbenchError("params.yaml: missing the 'isolation:' section; restore it from git")
    seconds, megabytes = section.get("time_limit_seconds"), section.get("memory_limit_mb")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds > 0:
        raise AlignbenchError(
            f"params.yaml isolation.time_limit_seconds: expected a number > 0, got {seconds!r}"
        )
    if isinstance(megabytes, bool) or not isinstance(megabytes, int) or megabytes < 64:
        raise AlignbenchError(
            f"params.yaml isolation.memory_limit_mb: expected a whole number >= 64, got {megabytes!r}"
        )
    return Limits(float(seconds), megabytes)


def validation_error(output: Any, where: str) -> str | None:
    """The schema problems of an engine's answer (the first three, by field) as
    ``where: field $.x[i].y: message; field ...``, or None when it is a valid Alignment JSON."""
    from alignbench.yamlload import describe_error, json_path

    errors = sorted(
        _alignment_validator().iter_errors(output),
        key=lambda e: (json_path(e.absolute_path), str(e.validator), e.message),
    )
    if not errors:
        return None
    shown = "; ".join(f"field {describe_error(e)}" for e in errors[:3])
    more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
    return f"{where}: {shown}{more}"


@functools.cache
def _alignment_validator() -> Any:
    """The validator of ``schemas/alignment.json`` (the Alignment JSON the scorer reads)."""
    import jsonschema

    text = resources.files("alignbench.schemas").joinpath("alignment.json").read_text(encoding="utf-8")
    return jsonschema.Draft202012Validator(json.loads(text))


class Worker:
    """One engine subprocess; restarted after a crash or a timeout."""

    def __init__(self, name: str, root: Path, limits: Limits, params: Mapping[str, Any]) -> None:
        self.name, self.root, self.limits, self.params = name, root, limits, dict(params)
        self.process: subprocess.Popen[bytes] | None = None
        self.buffer = b""

    def _start(self) -> subprocess.Popen[bytes]:
        command = [
            sys.executable,
            "-m",
            "alignbench.engines.worker",
            self.name,
            str(self.limits.memory_limit_mb),
        ]
        self.buffer = b""
        return subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=self.root,
            start_new_session=True,  # its own process group: a timeout kills whatever it started
        )

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
        self.process = None

    def ask(self, tier_pair: TierPair) -> tuple[str, Any]:
        """``("ok", output)`` or ``(failure kind, reason)`` for one pair."""
        if self.process is None:
            self.process = self._start()
        labels = tier_pair.labels_path
        request = {
            "tier": tier_pair.tier,
            "pair": tier_pair.pair,
            "labels": str(labels.relative_to(self.root) if labels.is_absolute() else labels),
            "params": self.params,
        }
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(json.dumps(request).encode("utf-8") + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            self.stop()
            return "crash", "the engine process exited before the pair was sent"
        line = self._read_line(time.monotonic() + self.limits.time_limit_seconds)
        if line is None:
            code = self.process.poll() if self.process else None
            if code is None:
                self.stop()
                return "timeout", f"no answer within {self.limits.time_limit_seconds:g} s (killed)"
            self.stop()
            return "crash", f"the engine process exited with status {code}"
        try:
            answer = json.loads(line)
        except ValueError as exc:
            return "invalid", f"the answer is not JSON ({exc})"
        if not isinstance(answer, dict) or ("output" not in answer and "error" not in answer):
            return "invalid", "the answer has neither 'output' nor 'error'"
        if "error" in answer:
            return "crash", str(answer["error"])
        return "ok", answer["output"]

    def _read_line(self, deadline: float) -> bytes | None:
        assert self.process is not None and self.process.stdout is not None
        fd = self.process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    return None
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    return None
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line


def run_isolated(
    root: Path, name: str, params: Mapping[str, Any] | None = None, tiers: tuple[str, ...] | None = None
) -> IsolatedRun:
    """Every pair (of ``tiers``, default all) through engine ``name`` in a subprocess; writes
    ``<output_dir>/<tier>/<pair>.json`` and drops files no pair made."""
    from alignbench.engines.registry import engine_params
    from alignbench.engines.run import document_hashes, read_all_params
    from alignbench.runs import load_pair

    all_params = read_all_params(root) if params is None else params
    limits = read_limits(all_params)
    engine_info = info(name)
    out_dir = root / engine_info.output_dir
    header = {"name": name, "version": engine_info.version, "distribution": engine_info.distribution}
    worker = Worker(name, root, limits, engine_params(name, all_params))
    run = IsolatedRun()
    files: list[tuple[Path, str]] = []
    try:
        pairs = discover(root) if tiers is None else discover(root, tiers)
        for tier_pair in pairs:
            where = f"{tier_pair.tier}/{tier_pair.pair}"
            loaded = load_pair(root, tier_pair, header_only=True)
            record: dict[str, Any] = {"documents": document_hashes(root, loaded.labels), "engine": header}
            status, value = worker.ask(tier_pair)
            if status == "ok":
                problem = validation_error(value, f"{where}: {name}")
                if problem is None:
                    record.update(
                        {k: v for k, v in value.items() if k not in ("engine", "documents", "failed")}
                    )
                else:
                    status, value = "invalid", problem
            if status != "ok":
                reason = value if status == "invalid" else f"{where}: {name}: {value}"
                record["failed"] = {"kind": status, "reason": reason}
                run.failed[where] = {"kind": status, "reason": reason}
                print(f"engines: {name}: {status}: {reason}", file=sys.stderr)
            target = out_dir / tier_pair.tier / f"{tier_pair.pair}.json"
            files.append((target, dump_json(record)))
            run.written.append(target)
    finally:
        worker.stop()
    write_texts(files)
    prune(out_dir, run.written)
    return run
