"""Build the synthetic tier: every planned pair's documents and labels, written atomically.

``build_tier`` is pure (bytes in memory); ``write_tier`` replaces the output directory's pairs;
``check_tier`` rebuilds into a temporary directory and compares byte for byte with what is committed.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from alignbench.atomic import load_yaml, prune, write_many
from alignbench.blocks import BlockTree
from alignbench.errors import AlignbenchError
from alignbench.generate import GENERATOR_NAME, GENERATOR_VERSION
from alignbench.generate.catalog import OPERATORS
from alignbench.generate.features import missing_features
from alignbench.generate.holdout import holdout_halves, read_holdout_seed
from alignbench.generate.model import Document, addresses
from alignbench.generate.operators import Record
from alignbench.generate.plans import PairSpec, PlanFile, SourceDocument, load_plans
from alignbench.generate.roundtrip import FORMAT, PROFILE, settle, verify
from alignbench.generate.seeds import pair_seed
from alignbench.generate.truth import Side, build_rows
from alignbench.labels.io import dump_labels
from alignbench.readers import read
from alignbench.stagecache import remember_tree

PLANS_FILE = "corpus/plans/synthetic.yaml"
OUT_DIR = "corpus/synthetic"
EXT = ".md"
ATTEMPTS = 6  # draws per operator application before the step is given up as rolled back
SUMMARY_COLUMNS = (
    "pairs",
    "links",
    "moves",
    "section_moves",
    "crossing",
    "renumbers",
    "inserts",
    "deletes",
    "splits",
    "merges",
)


@dataclass
class PairResult:
    pair: str
    plan: str
    files: dict[str, bytes]
    records: list[Record]
    rolled_back: int
    counts: dict[str, int] = field(default_factory=dict)


def _load_base(document: SourceDocument, root: Path, cache: dict[str, Document]) -> Document:
    if document.id not in cache:
        tree = read(root / document.file)
        cache[document.id] = settle(tree, document.file)
    return cache[document.id].clone()


def apply_plan(doc: Document, spec: PairSpec, rng: Random) -> tuple[Document, list[Record], int]:
    """Apply the plan's steps in order; an operator the reader does not confirm is rolled back."""
    records: list[Record] = []
    rolled_back = 0
    for step in spec.plan.steps:
        for _ in range(step.count):
            for _attempt in range(ATTEMPTS):
                trial = doc.clone()
                record = OPERATORS[step.op](trial, rng, step.style)
                if record is None:
                    break  # nothing in this document for the operator to act on
                if verify(trial) is None:
                    rolled_back += 1
                    continue
                doc = trial
                records.append(record)
                break
    return doc, records, rolled_back


def _side(doc: Document, what: str) -> tuple[str, Side]:
    text, side, _ = _side_and_tree(doc, what)
    return text, side


def _side_and_tree(doc: Document, what: str) -> tuple[str, Side, BlockTree]:
    verified = verify(doc)
    if verified is None:
        raise AlignbenchError(
            f"{what}: the rendering does not read back as intended; this is a generator bug"
        )
    text, tree = verified
    return text, Side(doc, addresses(doc, tree), tree), tree


def build_pair(spec: PairSpec, root: Path, cache: dict[str, Document], holdout: str = "dev") -> PairResult:
    base = _load_base(spec.document, root, cache)
    seed = pair_seed(spec.document.id, spec.seed_plan_id)
    test_doc, records, rolled_back = apply_plan(base.clone(), spec, Random(seed))
    source_text, source_side, source_tree = _side_and_tree(base, f"{spec.pair} source")
    test_text, test_side, test_tree = _side_and_tree(test_doc, f"{spec.pair} test")
    rows = build_rows(source_side, test_side)
    # Each tree read back is the one every later stage reads from the written file: share it, now that
    # building the rows has filled in the block digests label_check re-derives.
    for text, tree in ((source_text, source_tree), (test_text, test_tree)):
        remember_tree(root, text.encode("utf-8"), FORMAT, PROFILE, tree)
    source_bytes, test_bytes = source_text.encode("utf-8"), test_text.encode("utf-8")
    if source_bytes == test_bytes and not spec.plan.control:
        raise AlignbenchError(
            f"{PLANS_FILE}: pair {spec.pair}: plan {spec.plan.id!r} changed no byte of {spec.document.id} "
            "(a no-op pair pads every score); give the plan a `requires:` feature the document lacks, "
            "drop the document from the plan's pairs, or declare the plan `control: true`"
        )
    pair_dir = f"{OUT_DIR}/{spec.pair}"
    labels: dict[str, Any] = {
        "schema": "alignbench/labels/v1",
        "pair": spec.pair,
        "tier": "synthetic",
        "source": _doc_entry(f"{pair_dir}/source{EXT}", source_bytes),
        "test": _doc_entry(f"{pair_dir}/test{EXT}", test_bytes),
        "provenance": {
            "kind": "synthetic",
            "origin": spec.document.origin,
            "licence": spec.document.licence,
            # CC BY asks that changes be indicated: this document is a mutated re-rendering
            "attribution": f"{spec.document.attribution} Changed: re-rendered as Markdown and mutated by "
            f"{GENERATOR_NAME} {GENERATOR_VERSION} (plan {spec.seed_plan_id}).",
            "prepared_by": "stages/generate.py",
            "normalisations": [*spec.document.normalisations, "generate_render_markdown"],
            "generator": GENERATOR_NAME,
            "version": GENERATOR_VERSION,
            "seed": seed,
            "plan": spec.seed_plan_id,
            "base_document": spec.document.file,
            "holdout": holdout,
            **({"control": True} if spec.plan.control else {}),
        },
        **rows,
        "unscored": [],
        "review": {
            "labelled_by": {"kind": "generator", "id": f"{GENERATOR_NAME}/{GENERATOR_VERSION}"},
            "reviewed_by": [],
            "signatures": [],
            "adjudications": [],
        },
        "move_verdicts": [],
    }
    files = {
        f"source{EXT}": source_bytes,
        f"test{EXT}": test_bytes,
        "labels.yaml": dump_labels(labels).encode("utf-8"),
    }
    return PairResult(spec.pair, spec.plan.id, files, records, rolled_back, count_rows(labels))


def _doc_entry(file: str, data: bytes) -> dict[str, str]:
    return {"file": file, "format": FORMAT, "profile": PROFILE, "sha256": hashlib.sha256(data).hexdigest()}


def count_rows(labels: dict[str, Any]) -> dict[str, int]:
    """The summary figures, read off the label rows themselves."""
    corr = labels["correspondences"]
    return {
        "pairs": 1,
        "links": len(corr),
        "moves": sum(1 for r in corr if r["kind"] == "move"),
        "section_moves": sum(1 for r in corr if r.get("note", "").startswith("section move")),
        "crossing": sum(1 for r in corr if r.get("note", "").startswith("crossing")),
        "renumbers": sum(1 for r in corr if r["source_label"] != r["test_label"]),
        "inserts": len(labels["inserted"]),
        "deletes": len(labels["deleted"]),
        "splits": len(labels["splits"]),
        "merges": len(labels["merges"]),
    }


def enabled_pairs(plan_file: PlanFile, enabled: list[str] | None) -> list[PairSpec]:
    if not enabled:
        return list(plan_file.pairs)
    unknown = [p for p in enabled if p not in plan_file.plans]
    if unknown:
        raise AlignbenchError(
            f"params.yaml generate.plans: unknown plan(s) {', '.join(unknown)}; "
            f"defined in {PLANS_FILE}: {', '.join(sorted(plan_file.plans))}"
        )
    return [p for p in plan_file.pairs if p.plan.id in enabled]


def generate_params(root: Path) -> dict[str, Any]:
    """The ``generate:`` section of params.yaml, as the tier's manifest records it."""
    params = load_yaml(root / "params.yaml", "params")
    section = params.get("generate") if isinstance(params, dict) else None
    if not isinstance(section, dict):
        raise AlignbenchError(f"{root / 'params.yaml'}: missing the 'generate:' section; restore it from git")
    return section


def read_enabled_plans(root: Path) -> list[str] | None:
    section = generate_params(root)
    if not isinstance(section.get("plans", []), list):
        raise AlignbenchError(f"{root / 'params.yaml'}: generate.plans must be a list of plan ids")
    plans = section.get("plans") or []
    return [str(p) for p in plans] or None


def _missing(spec: PairSpec, root: Path, cache: dict[str, Document]) -> list[str]:
    """The probe's verdict, shared through the stage cache: label_check asks exactly what generate did."""
    from alignbench.stagecache import cached

    try:
        raw = (root / spec.document.file).read_bytes()
    except OSError:
        raw = b""  # _load_base reports the missing file
    key = "\0".join([spec.document.file, *spec.plan.requires]).encode() + b"\0\0" + raw
    return cached(
        root,
        "features",
        key,
        lambda: missing_features(_load_base(spec.document, root, cache), spec.plan.requires),
        list,
    )


def _unfeatured(spec: PairSpec, missing: list[str]) -> str:
    return (
        f"{PLANS_FILE}: plan {spec.plan.id!r} is listed for {spec.document.id}, which has nothing "
        f"for {', '.join(missing)} to act on; remove it from that plan's documents (or use `all`)"
    )


def featured_pairs(specs: list[PairSpec], root: Path, cache: dict[str, Document]) -> list[PairSpec]:
    """Drop automatic pairs whose document lacks the plan's feature; a listed one lacking it is an error."""
    kept = []
    verdicts: dict[tuple[str, str], list[str]] = {}
    for spec in specs:
        key = (spec.document.id, spec.plan.id)
        if key not in verdicts:
            verdicts[key] = _missing(spec, root, cache)
        missing = verdicts[key]
        if not missing:
            kept.append(spec)
        elif not spec.automatic:
            raise AlignbenchError(_unfeatured(spec, missing))
    return kept


@dataclass
class PairBuilder:
    """One planned pair's outcome, for :func:`alignbench.fanout.map_pairs`: ``("built", PairResult)``,
    ``("skipped", None)`` (an automatic pair whose document lacks the plan's feature),
    ``("unfeatured", message or error)`` (a listed one lacking it, or a probe that failed) or
    ``("failed", AlignbenchError)`` (the build failed).

    Outcomes instead of raising, so :func:`build_tier` reports exactly what the sequential build did:
    a feature problem anywhere before any build problem. A worker keeps the settled base documents and
    feature verdicts of the pairs it built (consecutive pairs share their document)."""

    root: Path
    halves: dict[str, str]
    bases: dict[str, Document] = field(default_factory=dict)
    verdicts: dict[tuple[str, str], list[str]] = field(default_factory=dict)

    def __call__(self, spec: PairSpec) -> tuple[str, Any]:
        key = (spec.document.id, spec.plan.id)
        if key not in self.verdicts:
            try:
                self.verdicts[key] = _missing(spec, self.root, self.bases)
            except AlignbenchError as exc:  # the probe could not read the document: a feature problem
                return "unfeatured", exc
        missing = self.verdicts[key]
        if missing:
            return ("skipped", None) if spec.automatic else ("unfeatured", _unfeatured(spec, missing))
        try:
            return "built", build_pair(spec, self.root, self.bases, self.halves[spec.document.id])
        except AlignbenchError as exc:
            return "failed", exc


def build_tier(root: str | Path = ".", enabled: list[str] | None = None) -> list[PairResult]:
    """Every enabled pair's files in memory, built on the stage's scheduler (:mod:`alignbench.fanout`)."""
    from alignbench.fanout import map_pairs

    base = Path(root)
    plan_file = load_plans(base / PLANS_FILE, base)
    halves = holdout_halves(plan_file.documents, read_holdout_seed(base))
    specs = enabled_pairs(plan_file, enabled)
    return built_results(
        map_pairs(PairBuilder(base, halves), specs, [spec.pair for spec in specs], "generate")
    )


def built_results(outcomes: list[tuple[str, Any]]) -> list[PairResult]:
    """The built pairs in plan order, or the error the sequential build raised first: any feature
    problem (it probed every pair before building one), then the first failed build."""
    for wanted in ("unfeatured", "failed"):
        for kind, value in outcomes:
            if kind == wanted:
                raise value if isinstance(value, AlignbenchError) else AlignbenchError(value)
    return [value for kind, value in outcomes if kind == "built"]


def write_tier(results: list[PairResult], out_dir: str | Path, params: Mapping[str, Any] | None) -> None:
    """Write every pair atomically; remove whatever else the directory holds (pairs no longer planned);
    then the tier's manifest, made from ``params`` (the ``generate:`` section), last."""
    from alignbench import manifest

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = [
        (out / result.pair / name, result.files[name]) for result in results for name in sorted(result.files)
    ]
    manifest.invalidate(out)  # a run killed from here on leaves no MANIFEST.json
    write_many(files)  # one flush to disk for the tier's ~850 files; files already current are left alone
    prune(out, [path for path, _ in files])
    manifest.write(out, "generate", params, None, [path for path, _ in files])


def summary_table(results: list[PairResult]) -> str:
    """Per-plan totals of the label rows, then the grand total, as a fixed-width table."""
    plans = sorted({r.plan for r in results})
    rows: list[tuple[str, dict[str, int]]] = []
    for plan in plans:
        totals = dict.fromkeys(SUMMARY_COLUMNS, 0)
        for result in results:
            if result.plan == plan:
                for key in SUMMARY_COLUMNS:
                    totals[key] += result.counts[key]
        rows.append((plan, totals))
    grand = {key: sum(t[key] for _, t in rows) for key in SUMMARY_COLUMNS}
    rows.append(("TOTAL", grand))
    width = max([len("plan"), *(len(name) for name, _ in rows)])
    header = "plan".ljust(width) + "".join(f" {c:>13}" for c in SUMMARY_COLUMNS)
    lines = [header, "-" * len(header)]
    for name, totals in rows:
        lines.append(name.ljust(width) + "".join(f" {totals[c]:>13}" for c in SUMMARY_COLUMNS))
    rolled = sum(r.rolled_back for r in results)
    lines.append(f"operator applications rolled back after re-reading: {rolled}")
    return "\n".join(lines)


def tree_files(directory: Path) -> dict[str, bytes]:
    if not directory.is_dir():
        return {}
    return {
        p.relative_to(directory).as_posix(): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def check_tier(root: str | Path = ".", enabled: list[str] | None = None) -> list[str]:
    """Rebuild into a temporary directory; the differences from the committed tier (empty when equal)."""
    base = Path(root)
    results = build_tier(base, enabled)
    with tempfile.TemporaryDirectory(prefix="alignbench-generate-") as tmp:
        write_tier(results, tmp, generate_params(base))
        fresh = tree_files(Path(tmp))
    committed = tree_files(base / OUT_DIR)
    problems = []
    for name in sorted(set(fresh) | set(committed)):
        if name not in committed:
            problems.append(f"{OUT_DIR}/{name}: missing from the committed tier")
        elif name not in fresh:
            problems.append(f"{OUT_DIR}/{name}: committed but no longer generated")
        elif fresh[name] != committed[name]:
            problems.append(f"{OUT_DIR}/{name}: differs from a fresh generation")
    return problems
