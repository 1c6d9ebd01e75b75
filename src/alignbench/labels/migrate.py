"""Label migrations that follow from a rule, not from a labeller's judgement (issue #27).

Move flags are a function of the links and the move rule (:mod:`alignbench.moverule`), so when the
rule changes, every label file's flags are recomputed by one command, ``alignbench label
migrate-moves``, and nobody re-signs by hand. Signatures are carried, not re-made: each migration
appends a record to the file's ``migrations`` list naming the rule, the content digest before and
after, and every row it changed (``id``, old kind, new kind). ``label check`` undoes the recorded
migrations one by one and accepts a signature that matches the digest of the content as it was
signed: the signer attested the links, and the flags that changed are re-derived from those links by
the rule. Rows are never added, removed or re-linked by a migration.

Move verdicts are re-keyed in the same step: a verdict rules on a move (source and test address plus
both blocks' digests), not on an engine build, so it carries across builds until the blocks change.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from alignbench.blocks import is_renumber
from alignbench.labels.documents import Side
from alignbench.moverule import classify_links

MOVE_RULE_NAME = "move-rule/2: a move is a change of place in reading order (issue #27)"
MIGRATOR = {"kind": "engine", "id": "alignbench.labels.migrate"}


def rule_kind(row: dict[str, Any], moved: bool) -> str:
    """The kind a correspondence row must carry: ``move``, else ``renumber`` only for a changed number
    (``blocks.is_renumber``: both labels present and different), else ``same``."""
    if moved:
        return "move"
    return "renumber" if is_renumber(row["source_label"], row["test_label"]) else "same"


def rule_kinds(data: dict[str, Any], sides: dict[str, Side]) -> list[str]:
    """Each correspondence's kind under the move rule, in row order."""
    links = [(r["source"], r["test"]) for r in data["correspondences"]]
    reading = classify_links(sides["source"].tree, sides["test"].tree, links)
    return [rule_kind(r, (r["source"], r["test"]) in reading.moved) for r in data["correspondences"]]


def migrate_moves(
    data: dict[str, Any], sides: dict[str, Side]
) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """A copy of ``data`` whose correspondence kinds follow the move rule, with the migration recorded.

    Returns the new document and the changed rows (empty: nothing to do, ``data`` returned as is)."""
    from alignbench.labels.sign import content_digest

    kinds = rule_kinds(data, sides)
    changed = [
        {"id": row["id"], "from": row["kind"], "to": kind}
        for row, kind in zip(data["correspondences"], kinds, strict=True)
        if row["kind"] != kind
    ]
    if not changed:
        return data, []
    updated = copy.deepcopy(data)
    for row, kind in zip(updated["correspondences"], kinds, strict=True):
        row["kind"] = kind
    record = {
        "rule": MOVE_RULE_NAME,
        "by": dict(MIGRATOR),
        "from_digest": content_digest(data),
        "to_digest": content_digest(updated),
        "rows": changed,
    }
    updated["migrations"] = [*data.get("migrations", []), record]
    return updated, changed


def undo(data: dict[str, Any], record: dict[str, Any]) -> dict[str, Any] | None:
    """The content before one migration, or ``None`` when the record does not fit the rows."""
    by_id = {row.get("id"): row for row in data["correspondences"]}
    before = copy.deepcopy(data)
    before_rows = {row.get("id"): row for row in before["correspondences"]}
    for change in record["rows"]:
        row = by_id.get(change["id"])
        if row is None or row["kind"] != change["to"]:
            return None
        before_rows[change["id"]]["kind"] = change["from"]
    return before


def carried_digests(data: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Content digests a signature may match, newest first, and the problems of the migration chain.

    Each recorded migration must lead from its ``from_digest`` to its ``to_digest`` by exactly the row
    changes it lists, the last one to the current content; a chain that does not verify carries no
    signature."""
    from alignbench.labels.sign import content_digest

    digests = [content_digest(data)]
    problems: list[str] = []
    current = data
    for index in range(len(data.get("migrations", [])) - 1, -1, -1):
        record = data["migrations"][index]
        at = f"$.migrations[{index}]"
        if record["to_digest"] != content_digest(current):
            problems.append(f"{at}.to_digest: does not match the content after it; the file was edited since")
            break
        before = undo(current, record)
        if before is None:
            problems.append(f"{at}.rows: a listed row is missing or has another kind; the record was edited")
            break
        if content_digest(before) != record["from_digest"]:
            problems.append(f"{at}.from_digest: undoing the listed rows does not give it back")
            break
        digests.append(record["from_digest"])
        current = before
    return digests, problems


def rekey_verdicts(data: dict[str, Any], sides: dict[str, Side]) -> tuple[dict[str, Any], int, int]:
    """Verdict rows keyed by the move (addresses plus both blocks' digests), one per distinct move.

    Old rows carried an ``engine_version`` and were copied for every build. Copies of one move are
    merged; where they disagree the most frequent ruling wins (ties: the first in sorted order).
    Returns the new document, the row count before and after."""
    src, tst = sides["source"].tree, sides["test"].tree
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for verdict in data["move_verdicts"]:
        groups.setdefault((verdict["source"], verdict["test"]), []).append(verdict)
    rows: list[dict[str, Any]] = []
    for (source, test), copies in sorted(groups.items()):
        s_block, t_block = src.get(source), tst.get(test)
        if s_block is None or t_block is None:
            continue  # the blocks are gone: the ruling no longer applies to anything
        votes = Counter((v["verdict"], v["reason"], v["by"]["kind"], v["by"]["id"]) for v in copies)
        top = max(votes.values())
        verdict, reason, kind, who = sorted(k for k, n in votes.items() if n == top)[0]
        rows.append(
            {
                "source": source,
                "test": test,
                "source_digest": s_block.digest,
                "test_digest": t_block.digest,
                "verdict": verdict,
                "reason": reason,
                "by": {"kind": kind, "id": who},
            }
        )
    updated = dict(data)
    updated["move_verdicts"] = rows
    return updated, len(data["move_verdicts"]), len(rows)
