"""The one strict YAML loader: duplicate keys, anchors, tags and merge keys refused, positions right,
every file kind validated against its schema with unknown keys as errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from alignbench.errors import AlignbenchError
from alignbench.labels.io import load_labels
from alignbench.runs import read_params
from alignbench.yamlload import SCHEMA_KINDS, load_schema, load_yaml

REPO = Path(__file__).resolve().parents[1]
LABELS = REPO / "tests/score_fixtures/labels.yaml"
COMMITTED = {
    "params": "params.yaml",
    "pairs": "corpus/pairs.yaml",
    "sources": "corpus/sources.yaml",
    "plans": "corpus/plans/synthetic.yaml",
    "profiles": "src/alignbench/readers/profiles.yaml",
    "blind-subset": "corpus/labels/real/blind-subset.yaml",
}


def _write(tmp_path: Path, text: str, name: str = "file.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _error(path: Path, kind: str | None = None) -> str:
    with pytest.raises(AlignbenchError) as info:
        load_yaml(path, kind)
    return str(info.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a: 1\nb: 2\na: 3\n", ":3:1: duplicate key 'a' in one mapping; keep exactly one"),
        ("rows:\n- {status: confirmed, status: proposed}\n", ":2:23: duplicate key 'status'"),
        ("a: &x 1\nb: 2\n", ":1:4: YAML anchors/aliases are not allowed"),
        ("a: !!str 1\n", ":1:4: YAML tag 'tag:yaml.org,2002:str' is not allowed"),
        ("a: !custom x\n", ":1:4: YAML tag '!custom' is not allowed"),
        ("base: {x: 1}\nb:\n  <<: {x: 2}\n", ":3:3: merge keys ('<<') are not allowed"),
        ("a: 1\n? [x, y]\n: 2\n", ":2:3: a mapping key must be a plain scalar"),
    ],
)
def test_strict_constructs_are_refused_at_their_position(tmp_path, text, expected):
    path = _write(tmp_path, text)
    message = _error(path)
    assert message.startswith(f"{path}:")
    assert expected in message
    assert message.count(str(path)) == 1


def test_a_duplicate_status_in_a_label_row_is_refused_not_last_wins(tmp_path):
    text = LABELS.read_text(encoding="utf-8")
    row_line = next(i for i, line in enumerate(text.splitlines(), 1) if "status: confirmed}" in line)
    path = _write(
        tmp_path, text.replace("status: confirmed}", "status: confirmed, status: proposed}", 1), "labels.yaml"
    )
    with pytest.raises(AlignbenchError) as info:
        load_labels(path)
    assert f"{path}:{row_line}:" in str(info.value)
    assert "duplicate key 'status'" in str(info.value)


def test_read_params_refuses_a_duplicate_key(tmp_path):
    text = (REPO / "params.yaml").read_text(encoding="utf-8")
    _write(
        tmp_path, text.replace("  confidence: 0.95", "  confidence: 0.95\n  confidence: 0.5"), "params.yaml"
    )
    with pytest.raises(AlignbenchError, match=r"params\.yaml:\d+:3: duplicate key 'confidence'"):
        read_params(tmp_path, "score")


@pytest.mark.parametrize(
    ("text", "line", "column", "what"),
    [
        ("a: 1\nb: {x: 1, y: 2\nc: 3\nd: 4\n", 2, 4, "this flow mapping is not closed"),
        ("a: 1\nb: [1, 2\nc: 3\n", 2, 4, "this flow sequence is not closed"),
        ("a: 'abc\nb: 2\nc: 3\n", 1, 4, "this quoted scalar is not closed"),
        ("a: 1\nb: c: d\ne: 1\n", 2, 5, "mapping values are not allowed"),
        ("a:\n  b: 1\n c: 2\n", 3, 2, "did not find expected key"),
    ],
)
def test_the_first_syntax_error_line_is_the_one_to_fix(tmp_path, text, line, column, what):
    path = _write(tmp_path, text)
    message = _error(path)
    assert message.startswith(f"{path}:{line}:{column}: malformed YAML")
    assert what in message
    assert message.count(str(path)) == 1


def test_an_unclosed_label_row_is_reported_on_its_own_line(tmp_path):
    lines = LABELS.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("- {") and line.endswith("}"))
    lines[index] = lines[index][:-1]
    path = _write(tmp_path, "\n".join(lines) + "\n", "labels.yaml")
    with pytest.raises(AlignbenchError) as info:
        load_labels(path)
    assert str(info.value).startswith(f"{path}:{index + 1}:")


def test_every_kind_has_a_schema_and_every_committed_file_passes_it():
    assert {*COMMITTED, "labels"} == set(SCHEMA_KINDS)
    for kind in SCHEMA_KINDS:
        assert load_schema(kind)["$schema"].endswith("2020-12/schema")
    for kind, relative in COMMITTED.items():
        load_yaml(REPO / relative, kind)


@pytest.mark.parametrize(
    ("kind", "old", "new", "expected"),
    [
        (
            "params",
            "  confidence: 0.95",
            "  confidence: 0.95\n  confidnce: 0.9",
            "unknown key(s) 'confidnce'",
        ),
        ("params", "generate:", "typo: 1\ngenerate:", "$: unknown key(s) 'typo'"),
        ("params", "  move_min_tokens: 8", "  move_min_tokens: -1", "$.align.move_min_tokens: -1 is less"),
        (
            "params",
            "  passes: [exact, label, structural, fuzzy, move, positional, sequence]",
            "  passes: [label, structural, fuzzy, move, positional, sequence]",
            "$.align.passes: must list 'exact'; it is mandatory",
        ),
        (
            "pairs",
            "format: markdown, profile: markdown}",
            "format: markdown, profile: markdown, x: 1}",
            "'x'",
        ),
        ("sources", "  family:", "  famly: x\n  family:", "unknown key(s) 'famly'"),
        ("plans", "\ndocuments:", "\nextra: []\ndocuments:", "unknown key(s) 'extra'"),
        (
            "profiles",
            "  word_label_needs_terminator: true",
            "  word_label_needs_terminator: yes please",
            "$.contract.word_label_needs_terminator: 'yes please' is not of type 'boolean'",
        ),
        ("blind-subset", "\ndrawn:", "\nrule: 1\ndrawn:", "unknown key(s) 'rule'"),
    ],
)
def test_each_kind_refuses_unknown_keys_and_bad_values(tmp_path, kind, old, new, expected):
    text = (REPO / COMMITTED[kind]).read_text(encoding="utf-8")
    assert old in text, old
    path = _write(tmp_path, text.replace(old, new, 1), Path(COMMITTED[kind]).name)
    message = _error(path, kind)
    assert "schema problem(s)" in message and expected in message
    assert f"{path}:" in message.splitlines()[1]  # each problem carries file:line:column


def test_the_loaders_of_each_kind_use_the_schema(tmp_path):
    from alignbench.corpus.pairs import load_pairs
    from alignbench.corpus.sources import load_sources
    from alignbench.generate.plans import load_plans

    for relative in ("corpus/pairs.yaml", "corpus/sources.yaml", "corpus/plans/synthetic.yaml"):
        target = tmp_path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / relative, target)
    for relative, load in (
        ("corpus/pairs.yaml", lambda: load_pairs(tmp_path)),
        ("corpus/sources.yaml", lambda: load_sources(tmp_path)),
        ("corpus/plans/synthetic.yaml", lambda: load_plans(tmp_path / "corpus/plans/synthetic.yaml", REPO)),
    ):
        path = tmp_path / relative
        path.write_text(path.read_text(encoding="utf-8") + "unexpected: 1\n", encoding="utf-8")
        with pytest.raises(AlignbenchError, match="unknown key\\(s\\) 'unexpected'"):
            load()
