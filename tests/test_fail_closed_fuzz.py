"""The hostile probe's input classes, fuzzed (issue 33, `make test-slow`): whatever a span file, a
decisions export, params.yaml or ALIGNBENCH_SCHEDULER holds, the command ends in one line and exit 2,
or succeeds; it never raises anything but the project's one error.

Each example mutates one field of a valid input into a value drawn from the shapes the probe used:
runaway integers, deep nesting, the wrong type, control and invisible characters, empty values.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alignbench.cli import main
from alignbench.errors import AlignbenchError
from review_fixtures_spoofed import FIXTURES, PAIR

REPO = Path(__file__).resolve().parents[1]
SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.just(10**4200),  # a runaway integer (the probe used 5,000 digits; Python prints at most 4,300)
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=20),
    st.sampled_from(["\u202e", "\u200b", "\x1b[31m", "", "/section[1]", "human:x", "0x1F", "1:30", "01000"]),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
# Deep nesting, as deep as json.dumps can write here (the 100,000-deep cases have unit tests).
_deep = st.integers(min_value=100, max_value=400).map(lambda n: json.loads("[" * n + "]" * n))


def _fresh(tmp: Path) -> Path:
    root = tmp / "repo"
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(FIXTURES / "corpus", root / "corpus")
    return root


def _exits_cleanly(argv: list[str]) -> int:
    code = main(argv)  # anything but AlignbenchError (exit 2) escapes here and fails the example
    assert code in (0, 1, 2), code
    return code


@pytest.fixture(scope="module")
def spans(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    tmp = tmp_path_factory.mktemp("spans")
    root = _fresh(tmp)
    out = tmp / "spans.jsonl"
    assert main(["label", "export", PAIR, "--format", "spans", "--root", str(root), "--out", str(out)]) == 0
    return [json.loads(line) for line in out.read_text(encoding="utf-8").split("\n") if line]


@pytest.mark.slow
@SETTINGS
@given(data=st.data(), value=st.one_of(_values, _deep))
def test_any_mutated_span_record_imports_or_fails_in_one_line(spans, tmp_path: Path, data, value) -> None:
    records = [dict(r) for r in spans]
    index = data.draw(st.integers(0, len(records) - 1))
    key = data.draw(st.sampled_from(sorted(records[index])))
    records[index][key] = value
    root = _fresh(tmp_path)
    path = tmp_path / "mutated.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    _exits_cleanly(["label", "import", PAIR, str(path), "--root", str(root)])


@pytest.mark.slow
@SETTINGS
@given(
    key=st.sampled_from(["pair", "draft", "documents", "cold_moves", "decisions", "digest", "format"]),
    value=_values,
)
def test_any_mutated_decisions_export_compiles_or_fails_in_one_line(tmp_path: Path, key: str, value) -> None:
    from alignbench.labels.io import load_labels
    from alignbench.review.decisions import DECISIONS_FORMAT, payload_digest
    from alignbench.review.page import draft_decisions, file_sha256, page_data

    root = _fresh(tmp_path)
    labels = Path("corpus/labels/real") / PAIR / "labels.yaml"
    documents = page_data(root, PAIR)["documents"]
    payload = {
        "format": DECISIONS_FORMAT,
        "pair": PAIR,
        "draft": {"file": str(labels), "sha256": file_sha256(root / labels)},
        "documents": {s: {k: documents[s][k] for k in ("file", "sha256")} for s in ("source", "test")},
        "cold_moves": [],
        "bulk_actions": [],
        "decisions": [
            {**{k: d[k] for k in ("what", "source", "test", "move", "note", "reason")}, "decided": True}
            for d in draft_decisions(load_labels(root / labels))
        ],
    }
    payload[key] = value
    payload["digest"] = payload_digest(payload) if key != "digest" else value
    path = tmp_path / "decisions.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    _exits_cleanly(
        ["label", "compile", PAIR, "--from", str(path), "--as-reviewer", "human:x", "--root", str(root)]
    )


_PARAMS = (REPO / "params.yaml").read_text(encoding="utf-8")
_PARAM_LINES = [
    i for i, line in enumerate(_PARAMS.splitlines()) if ": " in line and not line.lstrip().startswith("#")
]
_yaml_scalars = st.one_of(
    st.sampled_from(["01000", "1:30", "1_000", "0b101", "yes", "off", "~", "[]", "{}", ".inf", "1e3", "-0"]),
    st.integers(min_value=-(10**80), max_value=10**80).map(str),
    st.just("9" * 5000),
    st.just("[" * 3000 + "]" * 3000),
    st.text(alphabet="abc01:[]{}-.,'\" ", max_size=12),
)


@pytest.mark.slow
@SETTINGS
@given(line=st.sampled_from(_PARAM_LINES), value=_yaml_scalars)
def test_any_mutated_params_yaml_loads_or_fails_in_one_line(tmp_path: Path, line: int, value: str) -> None:
    from alignbench.yamlload import load_yaml

    lines = _PARAMS.splitlines()
    key = lines[line].split(": ", 1)[0]
    lines[line] = f"{key}: {value}"
    path = tmp_path / "params.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    try:
        load_yaml(path, "params")
    except AlignbenchError as exc:
        assert "\n" not in str(exc).strip() or str(exc).startswith(str(path)), str(exc)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    value=st.one_of(
        st.text(max_size=30), st.sampled_from(["tcp://", "inproc://x", "tls://h:1", "local:²", "fork:0"])
    )
)
def test_any_scheduler_value_is_understood_or_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    from alignbench.fanout import scheduler_setting

    if "\x00" in value:
        return  # an environment variable cannot hold NUL
    monkeypatch.setenv("ALIGNBENCH_SCHEDULER", value)
    try:
        scheduler_setting(10)
    except AlignbenchError as exc:
        assert "\n" not in str(exc), str(exc)
