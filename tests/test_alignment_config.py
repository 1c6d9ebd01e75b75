"""AlignmentConfig: defaults, params.yaml, validation messages that name the key, engine_version."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from alignbench import __version__
from alignbench.alignment import PASS_NAMES, AlignmentConfig, engine_version
from alignbench.alignment.similarity import resolve_backend
from alignbench.atomic import load_yaml
from alignbench.errors import AlignbenchError

PARAMS = Path(__file__).resolve().parents[1] / "params.yaml"


def test_defaults_are_seed_001_amended():
    c = AlignmentConfig()
    assert c.passes == PASS_NAMES
    assert PASS_NAMES == ("exact", "label", "structural", "fuzzy", "move", "positional", "sequence")
    assert (c.fuzzy_min_similarity, c.label_min_similarity, c.positional_min_similarity) == (0.6, 0.5, 0.35)
    # Issue #29: label evidence weighed against text, and the sequence pass (never below a flat diff).
    assert (c.label_text_margin, c.sequence_min_similarity, c.section_body_min_similarity) == (0.2, 0.3, 0.2)
    assert (c.move_min_similarity, c.move_tie_margin, c.move_min_tokens) == (0.8, 0.1, 8)
    assert set(c.move_kinds) == {"paragraph", "list_item", "heading"}
    assert (c.fuzzy_window, c.table_fuzzy, c.max_comparisons, c.similarity) == (25, True, 2_000_000, "auto")


def test_params_yaml_align_section_builds_the_default_config():
    config = AlignmentConfig.from_params(load_yaml(PARAMS)["align"], similarity="difflib")
    assert config == AlignmentConfig(similarity="difflib")


def test_to_dict_round_trips_and_passes_keep_the_fixed_order():
    c = AlignmentConfig(passes=["positional", "structural", "exact"], similarity="rapidfuzz")
    assert c.passes == ("exact", "structural", "positional")
    assert AlignmentConfig.from_dict(c.to_dict()) == c
    assert list(c.to_dict()) == [
        "passes", "fuzzy_min_similarity", "label_min_similarity", "label_text_margin",
        "positional_min_similarity", "sequence_min_similarity", "section_body_min_similarity",
        "move_min_similarity", "move_tie_margin",
        "move_loose_min_similarity", "move_loose_min_containment",
        "move_min_tokens", "move_kinds", "fuzzy_window",
        "table_fuzzy", "max_comparisons", "similarity",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("params", "key"),
    [
        ({"fuzzy_treshold": 0.5}, "align.fuzzy_treshold"),
        ({"passes": ["exact", "structural", "positional", "semantic"]}, "align.passes"),
        ({"passes": ["exact", "label", "positional"]}, "align.passes"),
        ({"passes": ["exact", "structural", "positional", "exact"]}, "align.passes"),
        ({"passes": "exact"}, "align.passes"),
        ({"fuzzy_min_similarity": 1.5}, "align.fuzzy_min_similarity"),
        ({"label_min_similarity": -0.1}, "align.label_min_similarity"),
        ({"move_tie_margin": "0.1"}, "align.move_tie_margin"),
        ({"positional_min_similarity": True}, "align.positional_min_similarity"),
        ({"sequence_min_similarity": 1.2}, "align.sequence_min_similarity"),
        ({"label_text_margin": -0.5}, "align.label_text_margin"),
        ({"move_min_tokens": -1}, "align.move_min_tokens"),
        ({"fuzzy_window": 2.5}, "align.fuzzy_window"),
        ({"max_comparisons": None}, "align.max_comparisons"),
        ({"move_kinds": ["paragraph", "section"]}, "align.move_kinds"),
        ({"move_kinds": ["row"]}, "align.move_kinds"),
        ({"table_fuzzy": "no"}, "align.table_fuzzy"),
        ({"similarity": "difflib"}, "align.similarity"),
    ],
)
def test_bad_params_raise_a_value_error_naming_the_key(params, key):
    with pytest.raises(ValueError, match=re.escape(key)) as info:
        AlignmentConfig.from_params(params)
    assert isinstance(info.value, AlignbenchError)  # so the CLI prints one line
    assert "\n" not in str(info.value)


def test_the_constructor_validates_too():
    with pytest.raises(ValueError, match=r"align\.passes"):
        AlignmentConfig(passes=("exact", "positional"))
    with pytest.raises(ValueError, match=r"align\.similarity"):
        AlignmentConfig(similarity="levenshtein")


def test_engine_version_hashes_the_config_with_the_backend_resolved():
    version = engine_version(AlignmentConfig(similarity="difflib"))
    assert re.fullmatch(re.escape(__version__) + r"\+[0-9a-f]{12}\.[0-9a-f]{12}", version)
    assert version != engine_version(AlignmentConfig(similarity="rapidfuzz"))
    assert version != engine_version(AlignmentConfig(similarity="difflib", fuzzy_min_similarity=0.65))
    resolved = resolve_backend("auto")
    assert engine_version(AlignmentConfig()) == engine_version(AlignmentConfig(similarity=resolved))
    # the same effective config, however it was spelled, is the same engine
    kinds = ["heading", "list_item", "paragraph"]
    reordered = AlignmentConfig(passes=list(reversed(PASS_NAMES)), move_kinds=kinds)
    assert engine_version(reordered) == engine_version(AlignmentConfig())


def test_engine_version_changes_with_the_engine_source(tmp_path, monkeypatch):
    """A behaviour change in alignment/*.py must make old move verdicts stale (issue #14)."""
    import shutil

    import alignbench.alignment as alignment_package

    before = alignment_package.source_digest()
    copy = tmp_path / "alignment"
    shutil.copytree(Path(alignment_package.__file__).parent, copy)
    (copy / "moves.py").write_text((copy / "moves.py").read_text(encoding="utf-8") + "\n# changed\n")
    monkeypatch.setattr(alignment_package, "__file__", str(copy / "__init__.py"))
    alignment_package.source_digest.cache_clear()
    try:
        after = alignment_package.source_digest()
    finally:
        monkeypatch.undo()
        alignment_package.source_digest.cache_clear()
    assert before != after
    assert engine_version().endswith("." + before)
