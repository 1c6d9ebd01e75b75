"""Seed a draft ``labels.yaml`` from the engine, plus the two worksheets a labeller works from.

Seeding from the engine biases labels toward the engine, so the bias is made visible and limited:
every row is ``status: proposed`` and the labeller kind is ``engine``; moves are never seeded. A pair
the engine reports as moved is written as ``same``/``renumber`` by its labels alone, its pass is
withheld (``proposed_by`` is omitted for rows the engine flagged as moved or found with the move
pass), and the worksheet marks it ``?`` just as it marks positional and low-similarity rows, so
the labeller cannot tell a move flag from a weak match. Move-ness is decided cold from
``move_worksheet.md``, which carries no engine output at all.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from alignbench.atomic import load_yaml, write_text
from alignbench.blocks import LABELLED_KINDS, Block
from alignbench.errors import AlignbenchError
from alignbench.labels.documents import SIDES, Reader, Side, open_pair
from alignbench.labels.io import SCHEMA_ID, dump_labels, row_id
from alignbench.labels.move_rule import MOVE_RULE

REAL_DOCUMENTS = "corpus/real"
REAL_LABELS = "corpus/labels/real"
CLAUSE_KINDS: tuple[str, ...] = ("heading", "paragraph", "list_item")
_WITHHELD_PASSES: tuple[str, ...] = ("move",)
_EXCERPT = 80


def _excerpt(block: Block, width: int = _EXCERPT) -> str:
    text = block.normalised_text.replace("\x1f", " / ")
    text = text if len(text) <= width else text[: width - 1] + "…"
    return text.replace("|", "\\|")


def _label(block: Block) -> str:
    return "" if block.label is None else block.label.replace("|", "\\|")


def _unpaired(side: Side, used: set[str], name: str) -> list[dict[str, Any]]:
    """Proposed deleted (source) or inserted (test) rows for the labelled blocks the engine left unpaired."""

    def row(block: Block) -> dict[str, Any]:
        ident = row_id("d", block.address, None) if name == "source" else row_id("i", None, block.address)
        return {
            "id": ident,
            name: block.address,
            "label": block.label,
            "digest": block.digest,
            "status": "proposed",
        }

    return [row(b) for b in side.labelled() if b.address not in used]


def seed_labels(
    pair: str,
    tier: str,
    documents: dict[str, dict[str, Any]],
    provenance: dict[str, Any],
    sides: dict[str, Side],
    alignment: dict[str, Any],
) -> dict[str, Any]:
    """The draft label document: every labelled block of both sides, every row ``proposed``."""
    source_tree, test_tree = sides["source"].tree, sides["test"].tree
    correspondences: list[dict[str, Any]] = []
    used_source: set[str] = set()
    used_test: set[str] = set()
    for p in alignment["pairs"]:
        src, tst = source_tree.get(p["source"]), test_tree.get(p["test"])
        if src is None or tst is None or src.kind not in LABELLED_KINDS or tst.kind not in LABELLED_KINDS:
            continue  # the root, containers, and pairs that mix a container with a labelled block
        row: dict[str, Any] = {
            "id": row_id("c", src.address, tst.address),
            "source": src.address,
            "test": tst.address,
            "kind": "same" if src.label == tst.label else "renumber",
            "source_label": src.label,
            "test_label": tst.label,
            "source_digest": src.digest,
            "test_digest": tst.digest,
            "status": "proposed",
        }
        if not (p["moved"] or p["matched_by"] in _WITHHELD_PASSES):
            row["proposed_by"] = p["matched_by"]
        correspondences.append(row)
        used_source.add(src.address)
        used_test.add(tst.address)
    from alignbench.labels.compile import apply_move_rule

    apply_move_rule(correspondences, sides)  # flags follow the links (issue #27)
    deleted = _unpaired(sides["source"], used_source, "source")
    inserted = _unpaired(sides["test"], used_test, "test")
    version = alignment["engine"]["version"]
    return {
        "schema": SCHEMA_ID,
        "pair": pair,
        "tier": tier,
        "source": documents["source"],
        "test": documents["test"],
        "provenance": provenance,
        "correspondences": correspondences,
        "inserted": inserted,
        "deleted": deleted,
        "splits": [],
        "merges": [],
        "unscored": [],
        "review": {
            "labelled_by": {"kind": "engine", "id": f"alignbench.alignment/{version}"},
            "reviewed_by": [],
            "signatures": [],
            "adjudications": [],
        },
        "move_verdicts": [],
    }


def _doubtful(pair: dict[str, Any], min_similarity: float) -> bool:
    return (
        bool(pair["moved"])
        or pair["matched_by"] in ("positional", "sequence", "move")
        or pair["confidence"] < min_similarity
    )


def render_worksheet(data: dict[str, Any], sides: dict[str, Side], alignment: dict[str, Any]) -> str:
    """Source blocks in order: address, label, first 80 characters, counterpart, ``?`` if doubtful."""
    min_similarity = float(alignment["config"].get("fuzzy_min_similarity", 0.0))
    doubtful = {p["source"] for p in alignment["pairs"] if _doubtful(p, min_similarity)}
    counterpart = {r["source"]: r for r in data["correspondences"]}
    test_tree = sides["test"].tree
    lines = [
        f"# Worksheet for {data['pair']}",
        "",
        "Every row of labels.yaml is `proposed`. Check each source block against its proposed counterpart, "
        "fix the row if it is wrong (`status: corrected`) or accept it (`status: confirmed`). `?` marks "
        "rows to look at twice. Decide moves separately, from move_worksheet.md.",
        "",
        "| ? | source | label | text | proposed counterpart |",
        "|---|---|---|---|---|",
    ]
    for block in sides["source"].labelled():
        row = counterpart.get(block.address)
        if row is None:
            target = "deleted"
        else:
            tst = test_tree.find(row["test"])
            target = f"{row['test']} {_label(tst)}".strip()
        mark = "?" if block.address in doubtful else ""
        lines.append(f"| {mark} | {block.address} | {_label(block)} | {_excerpt(block)} | {target} |")
    lines += ["", "## Test blocks proposed as inserted", "", "| test | label | text |", "|---|---|---|"]
    for row in data["inserted"]:
        block = test_tree.find(row["test"])
        lines.append(f"| {block.address} | {_label(block)} | {_excerpt(block)} |")
    return "\n".join(lines) + "\n"


def render_move_worksheet(data: dict[str, Any], sides: dict[str, Side]) -> str:
    """The two clause lists side by side, in document order, with no engine output."""
    src = [b for b in sides["source"].tree.blocks() if b.kind in CLAUSE_KINDS]
    tst = [b for b in sides["test"].tree.blocks() if b.kind in CLAUSE_KINDS]
    lines = [
        f"# Move worksheet for {data['pair']}",
        "",
        "The clauses of both versions in document order, with no engine output. For each source clause "
        "decide where it went. A correspondence whose parents do not correspond, or that crosses its "
        "siblings, is `kind: move` in labels.yaml (only at the topmost block of a moved subtree).",
        "",
        "```text",
        MOVE_RULE.rstrip(),
        "```",
        "",
        "| # | source | label | text | test | label | text |",
        "|---:|---|---|---|---|---|---|",
    ]
    for i in range(max(len(src), len(tst))):
        left = (src[i].address, _label(src[i]), _excerpt(src[i], 60)) if i < len(src) else ("", "", "")
        right = (tst[i].address, _label(tst[i]), _excerpt(tst[i], 60)) if i < len(tst) else ("", "", "")
        lines.append(f"| {i + 1} | {' | '.join(left)} | {' | '.join(right)} |")
    return "\n".join(lines) + "\n"


def real_pair_documents(root: Path, pair: str) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """The document entries and provenance of a real pair, from its ``manifest.json`` alone."""
    pair_dir = root / REAL_DOCUMENTS / pair
    manifest_path = pair_dir / "manifest.json"
    if not manifest_path.is_file():
        raise AlignbenchError(
            f"{REAL_DOCUMENTS}/{pair}/manifest.json: not found; run the prepare stage or check the pair name"
        )
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        documents = {
            side: {
                "file": f"{REAL_DOCUMENTS}/{pair}/{side}.{manifest['extension']}",
                "format": manifest["format"],
                "profile": manifest["profile"],
                "sha256": manifest[f"{side}_sha256"],
            }
            for side in SIDES
        }
        provenance = {
            "kind": "hand",
            "origin": manifest["origin"],
            "licence": manifest["licence"],
            "attribution": manifest["attribution"],
            "prepared_by": manifest["prepared_by"],
            "normalisations": list(manifest["normalisations"]),
        }
    except (ValueError, KeyError, TypeError) as exc:
        raise AlignbenchError(
            f"{REAL_DOCUMENTS}/{pair}/manifest.json: unreadable or missing field {exc}; re-run prepare"
        ) from None
    return documents, provenance


def init_pair(
    root: Path, pair: str, force: bool = False, backend: str = "auto", reader: Reader | None = None
) -> list[Path]:
    """Write ``labels.yaml``, ``worksheet.md`` and ``move_worksheet.md`` for a real pair; return the paths."""
    from alignbench.alignment import AlignmentConfig, align

    out_dir = root / REAL_LABELS / pair
    labels_path = out_dir / "labels.yaml"
    if labels_path.exists() and not force:
        raise AlignbenchError(
            f"{REAL_LABELS}/{pair}/labels.yaml already exists; it may hold hand labels, so it is not "
            "overwritten (pass --force to replace it)"
        )
    documents, provenance = real_pair_documents(root, pair)
    sides = open_pair({"source": documents["source"], "test": documents["test"]}, root, reader)
    for side in SIDES:
        documents[side]["sha256"] = sides[side].sha256
    params = load_yaml(root / "params.yaml", "params") if (root / "params.yaml").is_file() else {}
    config = AlignmentConfig.from_params((params or {}).get("align"), similarity=backend)
    alignment = align(sides["source"].tree, sides["test"].tree, config).to_dict()
    data = seed_labels(pair, "real", documents, provenance, sides, alignment)
    outputs = {
        labels_path: dump_labels(data),
        out_dir / "worksheet.md": render_worksheet(data, sides, alignment),
        out_dir / "move_worksheet.md": render_move_worksheet(data, sides),
    }
    for path, text in outputs.items():
        write_text(path, text)
    return list(outputs)
