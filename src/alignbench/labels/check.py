"""Check one label file against its documents: schema, digests, totality, ids, kinds and signatures.

A label file is the evidence behind every number, so every check lists every problem it finds rather
than stopping at the first: a reviewer fixes a file in one pass. Nothing written in the label file is
trusted: digests and labels are re-derived from the committed documents through the readers.
Adjudications are checked against the ``agreement.json`` recorded next to the labels
(:mod:`alignbench.labels.adjudication`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alignbench.blocks import LABELLED_KINDS, is_renumber
from alignbench.errors import AlignbenchError
from alignbench.labels.adjudication import adjudication_problems
from alignbench.labels.documents import SIDES, Reader, Side, open_pair
from alignbench.labels.io import ROW_SECTIONS, load_labels, row_id
from alignbench.labels.noop import noop_problems
from alignbench.labels.ownership import ownership_problems
from alignbench.labels.sign import signature_problems
from alignbench.labels.summary import pair_figures

_ID_PREFIX = {"correspondences": "c", "inserted": "i", "deleted": "d"}


@dataclass
class PairCheck:
    """The outcome for one pair: every problem (empty when it passes) and its figures."""

    where: str
    problems: list[str] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


def reanchor_hint(pair: str) -> str:
    return f"run `alignbench label reanchor {pair}`"


def row_addresses(data: dict[str, Any], side: str) -> list[tuple[str, str]]:
    """``(json_path, address)`` for every address of ``side`` across the six row sections."""
    found: list[tuple[str, str]] = []
    for section in ROW_SECTIONS:
        for i, row in enumerate(data[section]):
            value = row.get(side)
            if isinstance(value, list):
                found.extend((f"$.{section}[{i}].{side}[{j}]", a) for j, a in enumerate(value))
            elif isinstance(value, str):
                found.append((f"$.{section}[{i}].{side}", value))
    return found


def totality_problems(data: dict[str, Any], sides: dict[str, Side]) -> list[str]:
    """Every labelled block of each side exactly once; every address names a labelled block."""
    problems: list[str] = []
    for side in SIDES:
        labelled = [b.address for b in sides[side].labelled()]
        labelled_set = set(labelled)
        used = row_addresses(data, side)
        counts = Counter(address for _, address in used)
        missing = [a for a in labelled if counts[a] == 0]
        position = {address: i for i, address in enumerate(labelled)}
        duplicated = sorted(
            {a for _, a in used if counts[a] > 1}, key=lambda a: (position.get(a, len(position)), a)
        )
        unknown = [f"{path} = {a}" for path, a in used if a not in labelled_set]
        if missing:
            problems.append(
                f"{side}: {len(missing)} labelled block(s) missing from every row section: "
                f"{', '.join(missing)}; add each to correspondences, inserted, deleted, splits, merges "
                "or unscored"
            )
        if duplicated:
            problems.append(
                f"{side}: {len(duplicated)} block(s) labelled more than once: {', '.join(duplicated)}; "
                "keep exactly one row per block"
            )
        if unknown:
            problems.append(
                f"{side}: {len(unknown)} address(es) name no labelled block of {sides[side].file}: "
                f"{'; '.join(unknown)}; fix the address or {reanchor_hint(data['pair'])}"
            )
    return problems


def digest_problems(data: dict[str, Any], sides: dict[str, Side]) -> list[str]:
    """Digests and labels written in rows must equal what the readers derive now."""
    stale: list[str] = []
    wrong_labels: list[str] = []
    for side in SIDES:
        tree = sides[side].tree
        for path, address, digest in _digest_anchors(data, side):
            block = tree.get(address)
            if block is None or block.kind not in LABELLED_KINDS:
                continue  # reported by totality as an unknown address
            if block.digest != digest:
                stale.append(f"{side} {address} ({path}: {digest} != {block.digest})")
        for i, row in enumerate(data["correspondences"]):
            block = tree.get(row[side])
            if (
                block is not None
                and block.digest == row[f"{side}_digest"]
                and block.label != row[f"{side}_label"]
            ):
                wrong_labels.append(
                    f"$.correspondences[{i}].{side}_label is {row[f'{side}_label']!r} "
                    f"but the block's label is {block.label!r}"
                )
    problems: list[str] = []
    for side in SIDES:
        if data[side]["sha256"] != sides[side].sha256:
            problems.append(
                f"$.{side}.sha256: {sides[side].file} changed since labelling (file sha256 is now "
                f"{sides[side].sha256}); {reanchor_hint(data['pair'])}"
            )
    if stale:
        problems.append(
            f"labels stale for {len(stale)} address(es): {'; '.join(stale)}; {reanchor_hint(data['pair'])}"
        )
    if wrong_labels:
        problems.append(
            f"{len(wrong_labels)} label field(s) disagree with the documents: {'; '.join(wrong_labels)}"
        )
    return problems


def _digest_anchors(data: dict[str, Any], side: str) -> list[tuple[str, str, str]]:
    anchors = [
        (f"$.correspondences[{i}]", r[side], r[f"{side}_digest"])
        for i, r in enumerate(data["correspondences"])
    ]
    single = "deleted" if side == "source" else "inserted"
    anchors.extend((f"$.{single}[{i}]", r[side], r["digest"]) for i, r in enumerate(data[single]))
    return anchors


def row_problems(data: dict[str, Any]) -> list[str]:
    """Row ids match their content, and a correspondence's kind agrees with its labels."""
    problems: list[str] = []
    for section, prefix in _ID_PREFIX.items():
        for i, row in enumerate(data[section]):
            if "id" in row:
                expected = row_id(prefix, row.get("source"), row.get("test"))
                if row["id"] != expected:
                    problems.append(
                        f"$.{section}[{i}].id: is {row['id']} but the row's addresses give {expected}"
                    )
    for i, row in enumerate(data["correspondences"]):
        renumbered = is_renumber(row["source_label"], row["test_label"])
        if row["kind"] == "same" and renumbered:
            problems.append(
                f"$.correspondences[{i}].kind: 'same' but the number changed "
                f"({row['source_label']!r} -> {row['test_label']!r}); use renumber (or move)"
            )
        if row["kind"] == "renumber" and not renumbered:
            problems.append(
                f"$.correspondences[{i}].kind: 'renumber' but the number did not change "
                f"({row['source_label']!r} -> {row['test_label']!r}): a renumber needs two different "
                "labels; use same (or move)"
            )
    seen: Counter[tuple[str, str]] = Counter((v["source"], v["test"]) for v in data["move_verdicts"])
    for key in sorted(k for k, n in seen.items() if n > 1):
        problems.append(f"$.move_verdicts: more than one verdict for {key[0]} -> {key[1]}; keep one")
    return problems


def check_data(
    data: dict[str, Any], sides: dict[str, Side], signatures: list[str] | None = None
) -> list[str]:
    """Every problem of an already schema-valid label document against its two documents.

    ``signatures`` are the signature problems when the caller has them already (each costs a full
    canonical dump of the file)."""
    return [
        *digest_problems(data, sides),
        *totality_problems(data, sides),
        *row_problems(data),
        *(signature_problems(data) if signatures is None else signatures),
        *noop_problems(data, sides),
        *move_rule_problems(data, sides),
    ]


def move_rule_problems(data: dict[str, Any], sides: dict[str, Side]) -> list[str]:
    """Every correspondence whose move flag is not what the move rule derives from the links.

    Move flags are a function of the links (alignbench.moverule), so a flag that disagrees is either
    a stale file or a hand edit; ``label migrate-moves`` recomputes them and records the change."""
    from alignbench.labels.migrate import rule_kinds

    problems: list[str] = []
    for i, (row, kind) in enumerate(zip(data["correspondences"], rule_kinds(data, sides), strict=True)):
        if (row["kind"] == "move") != (kind == "move"):
            problems.append(
                f"$.correspondences[{i}].kind: is {row['kind']!r} but the move rule gives {kind!r} "
                f"({row['source']} -> {row['test']}); run `alignbench label migrate-moves {data['pair']}`"
            )
    return problems


def check_file(
    path: str | Path,
    root: str | Path = ".",
    reader: Reader | None = None,
    expect: tuple[str, str] | None = None,
) -> PairCheck:
    """Check one ``labels.yaml``; ``expect`` is the (tier, pair) its location implies.

    Never raises for a problem in the file: problems are collected so a stage can list all of them.
    """
    where = str(path)
    result = PairCheck(where=where)
    try:
        data = load_labels(path, Path(root))
        sides = open_pair(data, Path(root), reader)
    except AlignbenchError as exc:
        result.problems.append(str(exc))
        return result
    result.data = data
    if expect is not None:
        for key, value in zip(("tier", "pair"), expect, strict=True):
            if data[key] != value:
                result.problems.append(
                    f"$.{key}: is {data[key]!r} but the file lives at {key} {value!r}; fix it"
                )
        result.problems.extend(ownership_problems(data, expect[0], expect[1], Path(path), Path(root)))
    signatures = signature_problems(data)
    result.problems.extend(check_data(data, sides, signatures))
    result.problems.extend(adjudication_problems(data, Path(path)))
    result.figures = pair_figures(data, signed_valid=not signatures)
    return result


def format_problems(result: PairCheck) -> str:
    """One message: the file, then each problem on its own indented line."""
    lines = [f"{result.where}: {len(result.problems)} problem(s)"]
    lines.extend(f"  {result.where}: {p}" for p in result.problems)
    return "\n".join(lines)


def verdict_for(
    labels: Mapping[str, Any], source: str, test: str, source_digest: str, test_digest: str
) -> str | None:
    """The reviewer's verdict on an engine move, or ``None`` (unreviewed).

    A verdict rules on the move itself: both addresses and both blocks' digests. It carries across
    engine builds, and stops applying as soon as either block changes (the move is unreviewed again).
    """
    key = (source, test, source_digest, test_digest)
    for verdict in labels["move_verdicts"]:
        if (verdict["source"], verdict["test"], verdict["source_digest"], verdict["test_digest"]) == key:
            return verdict["verdict"]
    return None
