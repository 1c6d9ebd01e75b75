"""Load and validate ``corpus/plans/synthetic.yaml``: documents, named plans and the pairs to build.

Every mistake is one :class:`AlignbenchError` naming the file and the field, so a typo in a plan
never surfaces as a traceback halfway through generation.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench.atomic import load_yaml
from alignbench.errors import AlignbenchError
from alignbench.generate.catalog import OPERATORS, STYLES

_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


@dataclass(frozen=True)
class SourceDocument:
    id: str
    file: str  # repo-relative
    origin: str
    licence: str
    attribution: str
    normalisations: tuple[str, ...]


@dataclass(frozen=True)
class Step:
    op: str
    style: str
    count: int


@dataclass(frozen=True)
class Plan:
    id: str
    description: str
    steps: tuple[Step, ...]
    variants: tuple[str, ...]  # explicit names, so a pair's seed never depends on a count
    # Operators that must find a target in a document for the plan to apply to it (its feature).
    requires: tuple[str, ...] = ()
    # A declared control: its pairs may change no label row, or even no byte (never counted as no-ops).
    control: bool = False


@dataclass(frozen=True)
class PairSpec:
    pair: str
    document: SourceDocument
    plan: Plan
    variant: str | None
    automatic: bool = False  # listed through ``documents: all``: kept only if the document has the feature

    @property
    def seed_plan_id(self) -> str:
        return self.plan.id if self.variant is None else f"{self.plan.id}/{self.variant}"


@dataclass(frozen=True)
class PlanFile:
    documents: dict[str, SourceDocument]
    plans: dict[str, Plan]
    pairs: tuple[PairSpec, ...]


def _mapping(value: Any, where: str, required: tuple[str, ...], optional: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise AlignbenchError(f"{where}: expected a mapping")
    unknown = sorted(set(value) - set(required) - set(optional))
    if unknown:
        raise AlignbenchError(
            f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(required + optional)}"
        )
    missing = [k for k in required if k not in value]
    if missing:
        raise AlignbenchError(f"{where}: missing key(s) {', '.join(missing)}")
    return value


def _ident(value: Any, where: str) -> str:
    if not isinstance(value, str) or not _ID.match(value):
        raise AlignbenchError(f"{where}: {value!r} is not an id (lower-case letters, digits, '.', '_', '-')")
    return value


def _document(raw: Any, where: str, root: Path) -> SourceDocument:
    data = _mapping(raw, where, ("id", "file"), ("origin", "licence", "attribution", "manifest"))
    doc_id = _ident(data["id"], f"{where}.id")
    file = str(data["file"])
    if file.startswith("/") or ".." in Path(file).parts:
        raise AlignbenchError(f"{where}.file: {file!r} must be a repo-relative path inside the repository")
    if not (root / file).is_file():
        raise AlignbenchError(f"{where}.file: {file} does not exist; fix the path or run the prepare stage")
    normalisations: tuple[str, ...] = ()
    if "manifest" in data:
        manifest_path = root / str(data["manifest"])
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise AlignbenchError(f"{where}.manifest: cannot read {data['manifest']} ({exc})") from None
        # the manifest describes both sides; the base document is one of them
        side = manifest.get(Path(file).stem) if Path(file).stem in ("source", "test") else None
        entry = side if isinstance(side, dict) else manifest
        origin = str(entry.get("url") or manifest.get("origin") or data.get("origin", ""))
        licence = str(entry.get("licence") or manifest.get("licence", ""))
        attribution = str(entry.get("attribution") or manifest.get("attribution", ""))
        normalisations = tuple(
            str(n) for n in entry.get("normalisations", manifest.get("normalisations", []))
        )
    else:
        origin = str(data.get("origin", ""))
        licence = str(data.get("licence", ""))
        attribution = str(data.get("attribution", ""))
    for key, value in (("origin", origin), ("licence", licence), ("attribution", attribution)):
        if not value:
            raise AlignbenchError(f"{where}: no {key} (give it here or through a manifest with one)")
    return SourceDocument(doc_id, file, origin, licence, attribution, normalisations)


def _step(raw: Any, where: str) -> Step:
    data = _mapping(raw, where, ("op",), ("style", "count"))
    op = data["op"]
    if op not in OPERATORS:
        raise AlignbenchError(f"{where}.op: unknown operator {op!r}; use one of {', '.join(OPERATORS)}")
    style = data.get("style", STYLES[op][0])
    if style not in STYLES[op]:
        raise AlignbenchError(
            f"{where}.style: {op} has no style {style!r}; use one of {', '.join(STYLES[op])}"
        )
    count = data.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 50:
        raise AlignbenchError(f"{where}.count: expected a whole number from 1 to 50, got {count!r}")
    return Step(op, style, count)


def _plan(raw: Any, where: str) -> Plan:
    data = _mapping(raw, where, ("id", "steps"), ("description", "variants", "requires", "control"))
    plan_id = _ident(data["id"], f"{where}.id")
    if not isinstance(data["steps"], list) or not data["steps"]:
        raise AlignbenchError(f"{where}.steps: expected a non-empty list of operator steps")
    steps = tuple(_step(s, f"{where}.steps[{i}]") for i, s in enumerate(data["steps"]))
    variants_raw = data.get("variants", [])
    if not isinstance(variants_raw, list):
        raise AlignbenchError(f"{where}.variants: expected a list of names")
    variants = tuple(_ident(v, f"{where}.variants[{i}]") for i, v in enumerate(variants_raw))
    if len(set(variants)) != len(variants):
        raise AlignbenchError(f"{where}.variants: names must be unique")
    requires = data.get("requires", [])
    if not isinstance(requires, list) or any(r not in OPERATORS for r in requires):
        raise AlignbenchError(
            f"{where}.requires: expected a list of operator names from {', '.join(OPERATORS)}"
        )
    control = data.get("control", False)
    if not isinstance(control, bool):
        raise AlignbenchError(f"{where}.control: expected true or false, got {control!r}")
    return Plan(plan_id, str(data.get("description", "")), steps, variants, tuple(requires), control)


def load_plans(path: str | Path, root: str | Path = ".") -> PlanFile:
    """Parse and validate the plans file; document paths are resolved against ``root``."""
    path = Path(path)
    base = Path(root)
    data = _mapping(load_yaml(path, "plans"), str(path), ("documents", "plans", "pairs"), ())
    documents: dict[str, SourceDocument] = {}
    for i, raw in enumerate(_list(data["documents"], f"{path}: documents")):
        doc = _document(raw, f"{path}: documents[{i}]", base)
        if doc.id in documents:
            raise AlignbenchError(f"{path}: documents[{i}].id: duplicate id {doc.id!r}")
        documents[doc.id] = doc
    plans: dict[str, Plan] = {}
    for i, raw in enumerate(_list(data["plans"], f"{path}: plans")):
        plan = _plan(raw, f"{path}: plans[{i}]")
        if plan.id in plans:
            raise AlignbenchError(f"{path}: plans[{i}].id: duplicate id {plan.id!r}")
        plans[plan.id] = plan
    pairs: list[PairSpec] = []
    seen: set[str] = set()
    for i, raw in enumerate(_list(data["pairs"], f"{path}: pairs")):
        where = f"{path}: pairs[{i}]"
        group = _mapping(raw, where, ("plan", "documents"), ())
        plan = plans.get(group["plan"])
        if plan is None:
            raise AlignbenchError(f"{where}.plan: unknown plan {group['plan']!r}; define it under plans")
        automatic = group["documents"] == "all"
        listed = sorted(documents) if automatic else _list(group["documents"], f"{where}.documents")
        for k, doc_id in enumerate(listed):
            document = documents.get(doc_id)
            if document is None:
                raise AlignbenchError(f"{where}.documents[{k}]: unknown document {doc_id!r}")
            for variant in plan.variants or (None,):
                pair_id = f"{doc_id}--{plan.id}" + (f"-{variant}" if variant else "")
                if pair_id in seen:
                    raise AlignbenchError(f"{where}.documents[{k}]: pair {pair_id} is listed twice")
                seen.add(pair_id)
                pairs.append(PairSpec(pair_id, document, plan, variant, automatic))
    return PlanFile(documents, plans, tuple(sorted(pairs, key=lambda p: p.pair)))


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise AlignbenchError(f"{where}: expected a list")
    return value
