"""Every property test draws through ``property_budget.examples``, so CI's full pass covers all of them.

A property with a literal count would draw the same number in ``make test`` and in CI's full pass, and
one without any count would draw Hypothesis's default in both: either way it would escape the budget
that keeps the developer loop under its target while CI searches as far as before.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import property_budget

TESTS = Path(__file__).parent


def _unbudgeted(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assigned = {
        target.id: ast.unparse(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        decorators = [ast.unparse(d) for d in node.decorator_list]
        if not any(d.startswith("given(") for d in decorators):
            continue
        texts = [*decorators, *(assigned.get(d, "") for d in decorators)]
        if any("mark.slow" in d for d in decorators):
            continue  # CI only, at its own literal count
        if not any("examples(" in t for t in texts):  # max_examples=examples(n), or _fuzz(examples(n))
            out.append(f"{path.name}::{node.name}")
    return out


def test_every_property_test_draws_through_the_budget() -> None:
    found = [name for path in sorted(TESTS.glob("test_*.py")) for name in _unbudgeted(path)]
    assert found == [], "use settings(max_examples=examples(n)) (tests/property_budget.py)"


def test_the_checker_sees_a_literal_count(tmp_path: Path) -> None:
    module = tmp_path / "test_x.py"
    module.write_text(
        "from hypothesis import given, settings\n"
        "S = settings(max_examples=examples(10))\n"
        "@settings(max_examples=50)\n@given(st.none())\ndef test_literal(x): pass\n"
        "@given(st.none())\ndef test_default(x): pass\n"
        "@S\n@given(st.none())\ndef test_named(x): pass\n"
        "@pytest.mark.slow\n@settings(max_examples=900)\n@given(st.none())\ndef test_slow(x): pass\n",
        encoding="utf-8",
    )
    assert _unbudgeted(module) == ["test_x.py::test_literal", "test_x.py::test_default"]


@pytest.mark.parametrize(
    ("budget", "full", "drawn"), [("half", 300, 150), ("half", 1, 1), ("full", 300, 300)]
)
def test_examples_halves_only_under_the_half_budget(
    monkeypatch: pytest.MonkeyPatch, budget: str, full: int, drawn: int
) -> None:
    monkeypatch.setattr(property_budget, "BUDGET", budget)
    assert property_budget.examples(full) == drawn
