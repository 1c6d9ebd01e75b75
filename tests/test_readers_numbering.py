"""A unit stream's numbering (every label candidate's style and every decimal label as written), which
the sequence check asks each label about, is the same whichever way the stream is walked."""

from __future__ import annotations

from pathlib import Path

import pytest

from alignbench import bench
from alignbench.readers import markdown, plaintext
from alignbench.readers.drops import DropLog
from alignbench.readers.label_grammar import LabelMatch, Style, continues_a_sequence
from alignbench.readers.profiles import get_profile
from alignbench.readers.units import Unit, numbering_of

ROOT = Path(__file__).resolve().parents[1]


def _walked(units: list[Unit]) -> tuple[set[tuple[str, int]], set[str]]:
    """The numbering as the builder's definition states it, one unit at a time."""
    seen: set[tuple[str, int]] = set()
    numbers: set[str] = set()
    for unit in units:
        label = unit[2]  # a unit may be a plain tuple of Unit's fields (units.Unit): read by position
        if label is not None:
            seen.update((style.key, style.ordinal) for style in label.candidates)
            if label.kind == "decimal":
                numbers.add(label.label)
    return seen, numbers


def _documents() -> list[Path]:
    real = sorted((ROOT / "corpus" / "real").rglob("*.md")) + sorted(
        (ROOT / "corpus" / "real").rglob("*.txt")
    )
    return real[:: max(1, len(real) // 40)]


@pytest.mark.parametrize("path", _documents(), ids=lambda p: p.parent.name + "/" + p.name)
def test_numbering_equals_a_walk_over_each_unit(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    reader = markdown.read_units if path.suffix == ".md" else plaintext.read_units
    profile = get_profile("markdown" if path.suffix == ".md" else "contract")
    units = reader(text, profile, DropLog(), str(path))
    assert numbering_of(units) == _walked(units)


def test_numbering_of_the_bench_pair_holds_every_clause_number() -> None:
    old, _ = bench.markdown_pair(3)
    units = markdown.read_units(old, get_profile("markdown"), DropLog())
    seen, numbers = numbering_of(units)
    assert (seen, numbers) == _walked(units)
    assert {"1", "1.1", "1.9", "3", "3.9"} <= numbers
    assert ("decimal:2", 9) in seen and ("decimal:1", 3) in seen


def test_a_stream_without_labels_has_no_numbering() -> None:
    units = [Unit("paragraph", text="Plain words."), Unit("heading", text="Title", rank=1)]
    assert numbering_of(units) == (set(), set())


def test_the_sequence_check_answers_alike_for_sets_and_frozensets() -> None:
    label = LabelMatch("3.2", "decimal", (Style("decimal:2", 2),), "Text.", decimal_depth=2, text="3.2 Text.")
    for numbers in ({"3"}, {"3.1"}, {"3.3"}, {"4"}):
        seen: set[tuple[str, int]] = set()
        assert continues_a_sequence(label, seen, numbers) == continues_a_sequence(
            label, frozenset(seen), frozenset(numbers)
        )
    assert continues_a_sequence(label, set(), {"4"}) == ()
    assert continues_a_sequence(label, set(), {"3"}) == label.candidates
