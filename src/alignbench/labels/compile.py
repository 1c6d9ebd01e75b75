"""Compile a decision sheet into a complete, schema-valid ``labels.yaml``.

Everything a labeller should not type by hand is derived here: addresses from short ids, digests and
labels from the documents (through the readers), stable row ids, and ``same``/``renumber`` from the
two labels. Totality is enforced before anything is written, naming every block that is missing or
used twice by its short id and address.

Statuses follow the review protocol. With a draft (the engine-seeded file, or an earlier reviewed
file), a row equal to a draft row (same source, same test, same kind class: a move or not) keeps the
draft's verdict: ``confirmed`` if the draft row was ``proposed``, otherwise the draft row's own status;
it also keeps the draft's ``proposed_by``, so the record still says which engine pass found the row
the reviewer confirmed. A changed or added row is ``corrected`` and carries no ``proposed_by`` (no
pass proposed it). Without a draft (the blind pass) every row is ``confirmed``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from alignbench.blocks import is_renumber
from alignbench.errors import AlignbenchError
from alignbench.labels.documents import SIDES, Side
from alignbench.labels.io import SCHEMA_ID, row_id
from alignbench.labels.sheet import Catalogue, Decision, Sheet
from alignbench.labels.sign import machine_identity_reason

LABELLER_KINDS: tuple[str, ...] = ("human", "agent")
SECTION_OF = {
    "correspondence": "correspondences",
    "inserted": "inserted",
    "deleted": "deleted",
    "split": "splits",
    "merge": "merges",
    "unscored": "unscored",
}


@dataclass(frozen=True)
class PairBase:
    """What a label file says about its pair apart from the rows: documents (sha256 current) and origin."""

    pair: str
    tier: str
    documents: dict[str, dict[str, Any]]
    provenance: dict[str, Any]


def parse_by(value: str, env: dict[str, str] | None = None) -> dict[str, str]:
    """``KIND:ID`` -> ``{kind, id}``; only a human or an agent labels through a sheet."""
    import os

    kind, sep, ident = value.partition(":")
    if not sep or kind not in LABELLER_KINDS or not ident or any(ch.isspace() for ch in ident):
        raise AlignbenchError(
            f"--by {value!r}: expected KIND:ID with KIND human or agent and an id without spaces "
            "(e.g. agent:primary-reviewer); generator and engine never label through a sheet"
        )
    if kind == "human":
        reason = machine_identity_reason(ident, dict(os.environ) if env is None else env)
        if reason:
            raise AlignbenchError(
                f"--by {value!r}: refusing to record a human labeller: {reason}; use agent:ID"
            )
    return {"kind": kind, "id": ident}


def totality_problems(sheet: Sheet, catalogue: Catalogue) -> list[str]:
    """Every labelled block missing from the sheet or used more than once, named by short id and address."""
    problems: list[str] = []
    for side in SIDES:
        uses: Counter[str] = Counter()
        lines: dict[str, list[int]] = {}
        for decision in sheet.decisions:
            for address in getattr(decision, side):
                uses[address] += 1
                lines.setdefault(address, []).append(decision.line)
        blocks = catalogue.blocks[side]
        missing = [catalogue.describe(side, b.address) for b in blocks if uses[b.address] == 0]
        twice = [
            f"{catalogue.describe(side, b.address)} (lines {', '.join(map(str, lines[b.address]))})"
            for b in blocks
            if uses[b.address] > 1
        ]
        if missing:
            problems.append(f"{side}: {len(missing)} block(s) in no decision: {'; '.join(missing)}")
        if twice:
            problems.append(f"{side}: {len(twice)} block(s) in more than one decision: {'; '.join(twice)}")
    return problems


def _ordered(addresses: list[str], position: dict[str, int]) -> list[str]:
    return sorted(addresses, key=lambda a: position[a])


def decision_row(decision: Decision, sides: dict[str, Side], catalogue: Catalogue) -> dict[str, Any]:
    """The schema row of one decision, without status (set by :func:`_with_status`)."""
    src_pos, tst_pos = catalogue.position("source"), catalogue.position("test")
    source, test = _ordered(decision.source, src_pos), _ordered(decision.test, tst_pos)
    if decision.what == "correspondence":
        s, t = sides["source"].tree.find(source[0]), sides["test"].tree.find(test[0])
        kind = "move" if decision.move else ("renumber" if is_renumber(s.label, t.label) else "same")
        row = {
            "id": row_id("c", s.address, t.address),
            "source": s.address,
            "test": t.address,
            "kind": kind,
            "source_label": s.label,
            "test_label": t.label,
            "source_digest": s.digest,
            "test_digest": t.digest,
        }
    elif decision.what in ("inserted", "deleted"):
        side = "test" if decision.what == "inserted" else "source"
        block = sides[side].tree.find(test[0] if side == "test" else source[0])
        prefix = "i" if side == "test" else "d"
        row = {
            "id": row_id(
                prefix, block.address if side == "source" else None, block.address if side == "test" else None
            ),
            side: block.address,
            "label": block.label,
            "digest": block.digest,
        }
    elif decision.what == "unscored":
        row = {"source": source, "test": test, "reason": decision.reason}
    else:
        row = {"source": source, "test": test}
    if decision.note:
        row["note"] = decision.note
    return row


def apply_move_rule(rows: list[dict[str, Any]], sides: dict[str, Side]) -> None:
    """Set each correspondence row's kind by the move rule (``move``, else ``renumber``, else ``same``)."""
    from alignbench.labels.migrate import rule_kind
    from alignbench.moverule import classify_links

    moved = classify_links(
        sides["source"].tree, sides["test"].tree, [(r["source"], r["test"]) for r in rows]
    ).moved
    for row in rows:
        row["kind"] = rule_kind(row, (row["source"], row["test"]) in moved)


def _expand(decision: Decision) -> list[Decision]:
    """``S5 S6 = -`` is two deletions, ``- = T4 T5`` two insertions: one row per block."""
    if decision.what == "deleted":
        return [Decision(decision.line, "deleted", [a], [], note=decision.note) for a in decision.source]
    if decision.what == "inserted":
        return [Decision(decision.line, "inserted", [], [a], note=decision.note) for a in decision.test]
    return [decision]


def row_key(section: str, row: dict[str, Any]) -> tuple[Any, ...]:
    """What makes two rows 'the same decision': addresses and, for a link, whether it is a move."""
    if section == "correspondences":
        return (row["source"], row["test"], row["kind"] == "move")
    if section == "inserted":
        return (row["test"],)
    if section == "deleted":
        return (row["source"],)
    key = (tuple(sorted(row["source"])), tuple(sorted(row["test"])))
    return (*key, row["reason"]) if section == "unscored" else key


def _with_status(
    section: str, row: dict[str, Any], draft_rows: dict[tuple[Any, ...], dict[str, Any]] | None
) -> dict[str, Any]:
    if draft_rows is None:
        return {**row, "status": "confirmed"}
    earlier = draft_rows.get(row_key(section, row))
    if earlier is None:
        return {**row, "status": "corrected"}
    status = earlier.get("status", "proposed")
    kept = {**row, "status": "confirmed" if status == "proposed" else status}
    if "proposed_by" in earlier and section != "unscored":
        kept["proposed_by"] = earlier["proposed_by"]
    return kept


def row_sort_key(section: str, row: dict[str, Any], catalogue: Catalogue) -> tuple[Any, ...]:
    src, tst = catalogue.position("source"), catalogue.position("test")
    if section == "correspondences":
        return (src[row["source"]], tst[row["test"]])
    if section == "inserted":
        return (tst[row["test"]],)
    if section == "deleted":
        return (src[row["source"]],)
    first_src = min((src[a] for a in row["source"]), default=len(src))
    first_tst = min((tst[a] for a in row["test"]), default=len(tst))
    return (first_src, first_tst)


def compile_labels(
    sheet: Sheet,
    base: PairBase,
    sides: dict[str, Side],
    by: dict[str, str],
    draft: dict[str, Any] | None = None,
    where: str = "sheet",
) -> dict[str, Any]:
    """The complete label document for ``sheet`` (review lists empty; the caller merges kept ones)."""
    catalogue = Catalogue.from_sides(sides)
    problems = totality_problems(sheet, catalogue)
    if problems:
        listed = "\n".join(f"  {where}: {p}" for p in problems)
        raise AlignbenchError(
            f"{where}: the decisions are not total (every labelled block exactly once); fix each:\n{listed}"
        )
    if draft is not None and draft["pair"] != base.pair:
        raise AlignbenchError(
            f"--draft labels pair {draft['pair']!r}, not {base.pair!r}; pass the draft of this pair"
        )
    if draft is not None:
        for side in SIDES:
            if draft[side]["sha256"] != base.documents[side]["sha256"]:
                raise AlignbenchError(
                    f"--draft was made for another version of {draft[side]['file']} (sha256 "
                    f"{draft[side]['sha256']}, now {base.documents[side]['sha256']}); "
                    f"run `alignbench label reanchor {base.pair}` on it first"
                )
    draft_rows: dict[str, dict[tuple[Any, ...], dict[str, Any]]] | None = None
    if draft is not None:
        draft_rows = {s: {row_key(s, row): row for row in draft[s]} for s in SECTION_OF.values()}
    built: list[tuple[str, dict[str, Any]]] = []
    for decision in sheet.decisions:
        for single in _expand(decision):
            built.append((SECTION_OF[single.what], decision_row(single, sides, catalogue)))
    # Move flags are a function of the links (issue #27): the rule decides them, not the sheet's flags.
    apply_move_rule([row for section, row in built if section == "correspondences"], sides)
    sections: dict[str, list[dict[str, Any]]] = {s: [] for s in SECTION_OF.values()}
    for section, row in built:
        scoped = None if draft_rows is None else draft_rows[section]
        sections[section].append(_with_status(section, row, scoped))
    for section, rows in sections.items():
        rows.sort(key=lambda r, s=section: row_sort_key(s, r, catalogue))
    return {
        "schema": SCHEMA_ID,
        "pair": base.pair,
        "tier": base.tier,
        "source": base.documents["source"],
        "test": base.documents["test"],
        "provenance": base.provenance,
        **sections,
        "review": {"labelled_by": by, "reviewed_by": [], "signatures": [], "adjudications": []},
        "move_verdicts": [],
    }
