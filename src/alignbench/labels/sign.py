"""Signatures: a reviewer's stamp over a digest of the label content, so any later edit shows.

The content digest is sha256 of the canonical dump with ``review.signatures`` and ``move_verdicts``
emptied: everything a labeller or reviewer attests, so their signatures can coexist. Move verdicts are
left out because they are later, separately attributed rulings (each carries its own ``by``) on a
particular engine version's moves: ruling on a new engine's moves must not unsign the labels.
Signatures made before this rule covered the verdicts too; they were migrated once, each after checking
that it matched the old digest (commit "Signatures cover the labels, not the move verdicts").

Identity rule (who may sign as ``human``): ``--kind human`` is refused when the id starts with
``agent:``, ``engine:`` or ``generator:``, or when any variable in :data:`AGENT_ENV_MARKERS` is set to a
non-empty value in the environment (an automated session must declare itself; ``ALIGNBENCH_AGENT`` is
ours, the others are set by common coding agents). Agents sign as ``--kind agent``.
"""

from __future__ import annotations

import copy
import hashlib
import os
from collections.abc import Mapping
from typing import Any

from alignbench.errors import AlignbenchError
from alignbench.labels.io import dump_labels

MACHINE_ID_PREFIXES: tuple[str, ...] = ("agent:", "engine:", "generator:")
AGENT_ENV_MARKERS: tuple[str, ...] = ("ALIGNBENCH_AGENT", "CLAUDECODE", "CODEX_SANDBOX", "AIDER_MODEL")
SIGNER_KINDS: tuple[str, ...] = ("human", "agent")
ROLES: tuple[str, ...] = ("labeller", "reviewer")


def content_digest(data: dict[str, Any]) -> str:
    """sha256 of the canonical label text with the signatures and the move verdicts emptied."""
    # A shallow copy with the two parts replaced: dump_labels only reads, so no deep copy is needed.
    # The migration records are left out too: they describe how the content got here, and a
    # signature is carried across them (alignbench.labels.migrate).
    unsigned = {k: v for k, v in data.items() if k != "migrations"}
    unsigned.update(review={**data["review"], "signatures": []}, move_verdicts=[])
    return hashlib.sha256(dump_labels(unsigned).encode("utf-8")).hexdigest()


def proposed_rows(data: dict[str, Any]) -> list[str]:
    """``section[index]`` of every row whose status is still ``proposed``."""
    from alignbench.labels.io import ROW_SECTIONS

    return [
        f"{section}[{i}]"
        for section in ROW_SECTIONS
        for i, row in enumerate(data[section])
        if row.get("status") == "proposed"
    ]


def machine_identity_reason(signer_id: str, env: Mapping[str, str]) -> str | None:
    """Why ``signer_id`` may not sign as human, or ``None`` when nothing says it is a machine."""
    for prefix in MACHINE_ID_PREFIXES:
        if signer_id.startswith(prefix):
            return f"id {signer_id!r} starts with {prefix!r}, which names a machine identity"
    for marker in AGENT_ENV_MARKERS:
        if env.get(marker):
            return f"environment variable {marker} is set, so this is an automated session"
    return None


def sign(
    data: dict[str, Any],
    signer_id: str,
    kind: str,
    role: str,
    where: str,
    env: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """A copy of ``data`` with one signature added (replacing this signer's earlier one in this role)."""
    if kind not in SIGNER_KINDS:
        raise AlignbenchError(f"{where}: --kind must be one of {', '.join(SIGNER_KINDS)}, got {kind!r}")
    if role not in ROLES:
        raise AlignbenchError(f"{where}: --role must be one of {', '.join(ROLES)}, got {role!r}")
    if not signer_id or any(ch.isspace() for ch in signer_id):
        raise AlignbenchError(f"{where}: --as must be a non-empty id without spaces, got {signer_id!r}")
    if kind == "human":
        reason = machine_identity_reason(signer_id, os.environ if env is None else env)
        if reason:
            raise AlignbenchError(
                f"{where}: refusing to sign as human: {reason}; an agent or engine signs with --kind agent"
            )
    pending = proposed_rows(data)
    if pending:
        shown = ", ".join(pending[:10]) + (f" and {len(pending) - 10} more" if len(pending) > 10 else "")
        raise AlignbenchError(
            f"{where}: cannot sign while {len(pending)} row(s) are still proposed ({shown}); "
            "set each to confirmed or corrected first"
        )
    signed = copy.deepcopy(data)
    kept = [s for s in signed["review"]["signatures"] if (s["id"], s["role"]) != (signer_id, role)]
    kept.append({"id": signer_id, "kind": kind, "role": role, "content_digest": content_digest(data)})
    signed["review"]["signatures"] = sorted(kept, key=lambda s: (s["role"], s["id"]))
    return signed


def signature_problems(data: dict[str, Any]) -> list[str]:
    """Every signature that no longer matches the content, or that claims human for a machine id."""
    if not data["review"]["signatures"]:
        return []
    from alignbench.labels.migrate import carried_digests

    carried, chain_problems = carried_digests(data)
    problems: list[str] = list(chain_problems)
    for i, sig in enumerate(data["review"]["signatures"]):
        at = f"$.review.signatures[{i}]"
        if sig["content_digest"] not in carried:
            problems.append(
                f"{at}: signature by {sig['id']} ({sig['role']}) does not match the label content: the "
                f"file was edited after signing or the signature was tampered with; review the changes and "
                f"re-sign with `alignbench label sign <pair> --as {sig['id']} --kind {sig['kind']} "
                f"--role {sig['role']}`"
            )
        if sig["kind"] == "human":
            reason = machine_identity_reason(sig["id"], {})
            if reason:
                problems.append(f"{at}: signature claims kind human but {reason}; sign as kind agent")
    if data["review"]["signatures"] and proposed_rows(data):
        problems.append("$.review.signatures: the file is signed but still has proposed rows; re-review")
    return problems
