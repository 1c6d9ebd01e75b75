"""No engine name is hard-coded outside its own plug-in module (issue 31).

Every string literal in the package and the stage scripts that equals a registered engine name is
found by parsing the source (so comments and prose inside longer strings do not count, but a dict
key, a comparison or a default does). A name may appear only in its own plug-in module (the module
its entry point names) or in the implementation that plug-in wraps; the only other literal is YAML's
own word ``null`` in the label writer and fast loader, which is no engine.
"""

from __future__ import annotations

import ast
from pathlib import Path

from alignbench.engines import registry

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "alignbench"

# Where each shipped engine's own implementation lives (the plug-in module wraps it).
IMPLEMENTATION: dict[str, tuple[str, ...]] = {
    "difflib": ("src/alignbench/alignment/", "src/alignbench/floor/engine.py"),  # a similarity backend
    "rapidfuzz": ("src/alignbench/alignment/",),
    "floor": ("src/alignbench/floor/",),
    "xmldiff": ("src/alignbench/peers/xmldiff_engine.py",),
    "docxodus": ("src/alignbench/peers/docxodus_engine.py",),
    # YAML's null, not the engine: how the label writer quotes it and the fast loader's typed tags
    "null": ("src/alignbench/labels/io.py", "src/alignbench/labels/fastload.py"),
}


def _plugin_module(name: str) -> str:
    point = registry._entry_points()[name]
    return "src/" + point.value.split(":")[0].replace(".", "/") + ".py"


def literal_names(path: Path, names: set[str]) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sorted(
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names
    )


def test_no_engine_name_is_hard_coded_outside_its_plugin() -> None:
    shipped = {n for n in registry.registered() if not registry.info(n).third_party}
    assert {"difflib", "rapidfuzz", "floor", "oracle", "null", "xmldiff", "docxodus"} <= shipped
    files = sorted([*PACKAGE.rglob("*.py"), *(ROOT / "stages").glob("*.py")])
    offences = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        for line, name in literal_names(path, shipped):
            allowed = (_plugin_module(name), *IMPLEMENTATION.get(name, ()))
            if not any(rel == a or (a.endswith("/") and rel.startswith(a)) for a in allowed):
                offences.append(f"{rel}:{line}: {name!r}")
    assert offences == [], "engine names hard-coded outside their plug-in:\n" + "\n".join(offences)


def test_the_scan_finds_a_name_in_code_and_not_in_prose(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        'X = {"floor": 1}\nif y == "xmldiff":\n    pass\n# "oracle"\nZ = "the floor is low"\n',
        encoding="utf-8",
    )
    assert literal_names(source, {"floor", "xmldiff", "oracle"}) == [(1, "floor"), (2, "xmldiff")]


def test_every_stage_script_names_no_engine() -> None:
    """The stages run whatever dvc.yaml names; none of them knows an engine."""
    for path in sorted((ROOT / "stages").glob("*.py")):
        assert literal_names(path, set(registry.registered())) == [], path.name
