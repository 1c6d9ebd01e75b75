"""One line and exit 2, never a traceback (#33 item 6): one test per class of hostile input.

Each class crashed with a traceback (or silently misread) before: runaway integers, deep nesting,
an unbounded ``bootstrap_samples``, type-confused interchange files, scheduler addresses that only
looked parsed, unbounded reads of a device, YAML 1.1-only forms in params.yaml, a missing align key.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from alignbench.errors import AlignbenchError
from alignbench.yamlload import load_yaml
from review_fixtures_spoofed import LABELS, PAIR, fixture_repo

REPO = Path(__file__).resolve().parents[1]
PARAMS = (REPO / "params.yaml").read_text(encoding="utf-8")


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "alignbench.cli", *args], capture_output=True, text=True, timeout=120, env=env
    )


def _one_line(proc: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert proc.returncode == code, proc.stderr
    assert proc.stderr.startswith("alignbench: error: ")
    return proc.stderr


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return fixture_repo(tmp_path)


def _params(tmp_path: Path, old: str, new: str) -> Path:
    assert old in PARAMS
    path = tmp_path / "params.yaml"
    path.write_text(PARAMS.replace(old, new), encoding="utf-8")
    return path


# ----- runaway integers


def test_a_5000_digit_integer_in_params_yaml_is_one_line(repo: Path) -> None:
    (repo / "params.yaml").write_text(
        PARAMS.replace("bootstrap_seed: 20260905", "bootstrap_seed: " + "9" * 5000)
    )
    err = _one_line(_cli("review", PAIR, "--root", str(repo), "--out", str(repo / "r.html")))
    assert re.search(r"params\.yaml:\d+:\d+: an integer of 5000 digits", err)


def test_a_5000_digit_integer_in_a_labels_file_is_one_line(repo: Path) -> None:
    labels = repo / LABELS
    text = labels.read_text(encoding="utf-8").replace("pair: tiny-terms", "pair: " + "7" * 5000)
    labels.write_text(text, encoding="utf-8")
    err = _one_line(_cli("review", PAIR, "--root", str(repo), "--out", str(repo / "r.html")))
    assert "labels.yaml:2:7: an integer of 5000 digits" in err and err.count("\n") == 1
    check = _cli("label", "check", str(labels))  # label check lists problems, then fails (exit 1)
    assert check.returncode == 1 and "Traceback" not in check.stderr
    assert "labels.yaml:2:7: an integer of 5000 digits" in check.stderr


def test_integers_in_the_schemas_have_upper_bounds(tmp_path: Path) -> None:
    """A long integer within Python's limit still stops at the schema (a seed of 60 digits)."""
    with pytest.raises(AlignbenchError, match=r"bootstrap_seed: \d+ is greater than the maximum"):
        load_yaml(_params(tmp_path, "bootstrap_seed: 20260905", "bootstrap_seed: " + "9" * 60), "params")


# ----- deep nesting


def test_a_100000_deep_flow_sequence_in_yaml_is_one_line(tmp_path: Path) -> None:
    path = _params(tmp_path, "  plans: [", "  nested: " + "[" * 100_000 + "]" * 100_000 + "\n  plans: [")
    with pytest.raises(AlignbenchError, match="exceeded maximum nesting depth"):
        load_yaml(path, "params")


def test_a_100000_deep_json_array_in_a_span_file_is_one_line(repo: Path, tmp_path: Path) -> None:
    spans = tmp_path / "spans.jsonl"
    spans.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    err = _one_line(_cli("label", "import", PAIR, str(spans), "--root", str(repo)))
    assert "line 1 is not JSON" in err


def test_a_100000_deep_json_array_in_a_decisions_export_is_one_line(repo: Path, tmp_path: Path) -> None:
    export = tmp_path / "decisions.json"
    export.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    args = ["label", "compile", PAIR, "--from", str(export), "--as-reviewer", "human:x", "--root", str(repo)]
    assert "not a decisions export" in _one_line(_cli(*args))


# ----- unbounded allocation


def test_bootstrap_samples_has_an_upper_bound(tmp_path: Path) -> None:
    path = _params(tmp_path, "bootstrap_samples: 1000", "bootstrap_samples: 100000000")
    with pytest.raises(AlignbenchError, match="100000000 is greater than the maximum of 100000"):
        load_yaml(path, "params")


# ----- type-confused interchange files


def _spans(repo: Path, tmp_path: Path) -> list[dict]:
    from alignbench.cli import main

    out = tmp_path / "spans.jsonl"
    assert main(["label", "export", PAIR, "--format", "spans", "--root", str(repo), "--out", str(out)]) == 0
    return [json.loads(line) for line in out.read_text(encoding="utf-8").split("\n") if line]


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("address", ["/section[1]"], "address must be a string or null"),
        ("review", "confirmed", "review must be {state, reviewer_ids}"),
        (
            "review",
            {"state": "confirmed", "reviewer_ids": 5},
            "review.reviewer_ids must be a list of strings",
        ),
        ("text", None, "text must be a string"),
        ("start", "0", "start must be an integer"),
        ("creator", ["human", "x"], "creator must be {kind, id}"),
        ("relationship_id", {"a": 1}, "relationship_id must be a string or an integer"),
    ],
)
def test_a_type_confused_span_record_is_one_line(repo: Path, tmp_path: Path, key, value, message) -> None:
    records = _spans(repo, tmp_path)
    records[1][key] = value
    path = tmp_path / "confused.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    err = _one_line(_cli("label", "import", PAIR, str(path), "--root", str(repo)))
    assert f"line 2: {message}" in err


def _export(repo: Path, change) -> dict:
    """A decisions export for the fixture's draft, mutated by ``change``, with a valid digest again
    (anyone can recompute it: it proves integrity, not authorship)."""
    from alignbench.labels.io import load_labels
    from alignbench.review.decisions import DECISIONS_FORMAT, payload_digest
    from alignbench.review.page import draft_decisions, file_sha256, page_data

    documents = page_data(repo, PAIR)["documents"]
    decisions = draft_decisions(load_labels(repo / LABELS))
    payload = {
        "format": DECISIONS_FORMAT,
        "pair": PAIR,
        "draft": {"file": str(LABELS), "sha256": file_sha256(repo / LABELS)},
        "documents": {s: {k: documents[s][k] for k in ("file", "sha256")} for s in ("source", "test")},
        "cold_moves": [],
        "bulk_actions": [],
        "decisions": [
            {**{k: d[k] for k in ("what", "source", "test", "move", "note", "reason")}, "decided": True}
            for d in decisions
        ],
    }
    change(payload)
    payload["digest"] = payload_digest(payload)
    return payload


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: p.update(draft="abc"), "draft must be {file, sha256}"),
        (lambda p: p.update(documents=["source", "test"]), "documents must map source and test"),
        (lambda p: p.update(decisions={"0": {}}), "decisions and cold_moves must be lists"),
        (lambda p: p.update(pair=["tiny-terms"]), "pair and digest must be strings"),
        (lambda p: p["decisions"][0].update(note=5), "note and reason must be strings or null"),
        (
            lambda p: p["decisions"][0].update(source="/section[1]"),
            "source and test must be lists of addresses",
        ),
    ],
)
def test_a_type_confused_decisions_export_is_one_line(repo: Path, tmp_path: Path, change, message) -> None:
    path = tmp_path / "decisions.json"
    path.write_text(json.dumps(_export(repo, change)), encoding="utf-8")
    args = ["label", "compile", PAIR, "--from", str(path), "--as-reviewer", "human:x", "--root", str(repo)]
    assert message in _one_line(_cli(*args))


# ----- scheduler addresses


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("tcp://", "is not a scheduler address"),
        ("tcp://host", "is not a scheduler address"),
        ("tcp://host:99999", "is not a scheduler address"),
        ("tcp://ho st:8786", "is not a scheduler address"),
        ("inproc://x", "the inproc:// scheme is not supported"),
        ("tls://10.0.0.1:8786", "the tls:// scheme is not supported"),
        ("ucx://10.0.0.1:8786", "the ucx:// scheme is not supported"),
        ("local:²", "is not understood"),
        ("fork:0", "is not understood"),
        ("fork:99999", "is not understood"),
        ("local:-1", "is not understood"),
    ],
)
def test_a_bad_scheduler_value_is_one_line(monkeypatch, value: str, message: str) -> None:
    from alignbench.fanout import ENV, scheduler_setting

    monkeypatch.setenv(ENV, value)
    with pytest.raises(AlignbenchError, match=re.escape(message)):
        scheduler_setting(100)


@pytest.mark.parametrize(
    "value", ["tcp://127.0.0.1:8786", "tcp://[::1]:8786", "tcp://sched-1.example:1", "fork:2"]
)
def test_good_scheduler_values_pass(monkeypatch, value: str) -> None:
    from alignbench.fanout import ENV, scheduler_setting

    monkeypatch.setenv(ENV, value)
    assert scheduler_setting(100) == value


def test_a_bad_scheduler_value_stops_a_stage_with_one_line(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "ALIGNBENCH_SCHEDULER": "local:²"}
    proc = subprocess.run(
        [sys.executable, str(REPO / "stages" / "engines.py"), "floor"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=REPO,
    )
    assert "Traceback" not in proc.stderr and proc.returncode == 2, proc.stderr[-2000:]
    assert "ALIGNBENCH_SCHEDULER='local:²' is not understood" in proc.stderr


# ----- capped reads


def test_label_import_from_dev_zero_is_refused_after_a_capped_read(repo: Path) -> None:
    err = _one_line(_cli("label", "import", PAIR, "/dev/zero", "--root", str(repo)))
    assert "/dev/zero: more than 64 MB" in err


def test_label_compile_from_dev_zero_is_refused_after_a_capped_read(repo: Path) -> None:
    args = ["label", "compile", PAIR, "--from", "/dev/zero", "--as-reviewer", "human:x", "--root", str(repo)]
    assert "/dev/zero: more than 64 MB" in _one_line(_cli(*args))


def test_label_compile_of_a_sheet_named_dev_zero_is_refused_after_a_capped_read(repo: Path) -> None:
    args = ["label", "compile", PAIR, "/dev/zero", "--by", "human:x", "--root", str(repo)]
    assert "/dev/zero: more than 64 MB" in _one_line(_cli(*args))


def test_yaml_reads_are_capped(tmp_path: Path, monkeypatch) -> None:
    import alignbench.yamlload as yamlload

    monkeypatch.setattr(yamlload, "MAX_YAML_BYTES", 1024)
    path = tmp_path / "big.yaml"
    path.write_text("a: " + "x" * 2000 + "\n", encoding="utf-8")
    with pytest.raises(AlignbenchError, match=r"big\.yaml: more than 0 MB; no YAML file"):
        load_yaml(path)


def test_the_cap_applies_to_regular_files_too(tmp_path: Path, monkeypatch) -> None:
    import alignbench.inputs as inputs

    path = tmp_path / "big.jsonl"
    path.write_bytes(b"x" * 2048)
    monkeypatch.setattr(inputs, "MAX_BYTES", 1024)
    with pytest.raises(AlignbenchError, match="more than"):
        inputs.read_text_capped(path, "JSONL file", limit=inputs.MAX_BYTES)
    assert inputs.read_text_capped(path, "JSONL file", limit=4096) == "x" * 2048


# ----- params.yaml: YAML 1.1-only forms, missing align keys, plans: []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("max_comparisons: 2000000", "max_comparisons: 01000"),  # octal 512 in YAML 1.1
        ("fuzzy_window: 25", "fuzzy_window: 1:30"),  # base 60: 90 in YAML 1.1
        ("max_comparisons: 2000000", "max_comparisons: 2_000_000"),
        ("table_fuzzy: true", "table_fuzzy: yes"),  # a bool in YAML 1.1, a string in 1.2
    ],
)
def test_yaml_11_only_forms_in_params_yaml_are_refused(tmp_path: Path, old: str, new: str) -> None:
    value = new.split(": ", 1)[1]
    with pytest.raises(AlignbenchError, match=re.escape(repr(value))):
        load_yaml(_params(tmp_path, old, new), "params")


def test_the_same_values_quoted_or_plain_decimal_are_read(tmp_path: Path) -> None:
    data = load_yaml(_params(tmp_path, "fuzzy_window: 25", "fuzzy_window: 90"), "params")
    assert data["align"]["fuzzy_window"] == 90
    assert (
        load_yaml(_params(tmp_path, "confidence: 0.95", "confidence: 0.950"), "params")["score"]["confidence"]
        == 0.95
    )


@pytest.mark.parametrize("key", ["move_loose_min_similarity: 0.50", "fuzzy_window: 25", "table_fuzzy: true"])
def test_a_missing_align_key_is_an_error_not_a_default(tmp_path: Path, key: str) -> None:
    name = key.split(":")[0]
    with pytest.raises(AlignbenchError, match=rf"\$\.align: '{name}' is a required property; add it"):
        load_yaml(_params(tmp_path, f"  {key}\n", ""), "params")


def test_an_empty_plans_list_means_every_plan_and_is_documented() -> None:
    """``plans: []`` is kept (documented) rather than refused: the fixtures' repo uses it."""
    from alignbench.generate.stage import read_enabled_plans

    assert read_enabled_plans(REPO / "tests" / "labels_fixtures" / "repo") is None  # None: every plan
    contracts = (REPO / "docs" / "CONTRACTS.md").read_text(encoding="utf-8")
    assert "`generate.plans: []` builds every plan" in contracts
