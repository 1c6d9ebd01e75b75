"""Every package module a stage script imports is a declared dependency of its stage in dvc.yaml.

DVC re-runs a stage only when a declared dependency changes: a module the script imports but the stage
does not declare can change the stage's behaviour without `dvc repro` noticing (``fanout.py`` went
undeclared for a whole round). The check is on the script's own imports, which every stage makes
explicit; what those modules import in turn is declared by hand alongside.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
STAGES = yaml.safe_load((ROOT / "dvc.yaml").read_text(encoding="utf-8"))["stages"]


def _script(stage: dict) -> Path:
    return ROOT / stage["cmd"].split()[1]


def imported_package_modules(source: str) -> list[str]:
    """``alignbench`` modules named by the import statements anywhere in ``source``, sorted."""
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "alignbench":
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names if alias.name.split(".")[0] == "alignbench")
    return sorted(dict.fromkeys(names))


def module_path(module: str) -> str:
    """The repository path of a package module: its file, or its package's ``__init__.py``."""
    base = Path("src", *module.split("."))
    package = base / "__init__.py"
    return (package if (ROOT / package).is_file() else base.with_suffix(".py")).as_posix()


def covered(path: str, deps: list[str]) -> bool:
    return any(path == dep or path.startswith(dep.rstrip("/") + "/") for dep in deps)


@pytest.mark.parametrize("name", sorted(STAGES))
def test_every_module_a_stage_script_imports_is_declared(name: str) -> None:
    stage = STAGES[name]
    deps = stage["deps"]
    source = _script(stage).read_text(encoding="utf-8")
    missing = [
        module_path(module)
        for module in imported_package_modules(source)
        if not covered(module_path(module), deps)
    ]
    assert not missing, f"dvc.yaml stage {name!r}: add {missing} to its deps"


@pytest.mark.parametrize("name", sorted(STAGES))
def test_no_dependency_is_listed_twice(name: str) -> None:
    deps = STAGES[name]["deps"]
    assert sorted(d for d in dict.fromkeys(deps) if deps.count(d) > 1) == []


def test_the_check_sees_nested_and_plain_imports() -> None:
    source = "import os\nimport alignbench.runs\ndef f():\n    from alignbench.fanout import batch_gc\n"
    assert imported_package_modules(source) == ["alignbench.fanout", "alignbench.runs"]
    assert module_path("alignbench.readers") == "src/alignbench/readers/__init__.py"
    assert module_path("alignbench.fanout") == "src/alignbench/fanout.py"
    assert covered("src/alignbench/readers/markdown.py", ["src/alignbench/readers"])
    assert not covered("src/alignbench/readers_x.py", ["src/alignbench/readers"])
