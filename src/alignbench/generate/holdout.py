"""The hold-out split of the synthetic tier: every base document belongs to *dev* or to *check*.

Tuning on the pairs an engine is scored on flatters it, so the tier is split by base document (all
of a document's pairs go to one half, or a plan's quirks on that document would leak across) and the
engine is developed on *dev* only; *check* is looked at only to report. The rule is seeded and written
down (``params.yaml generate.holdout_seed``, stated in REPORT.md):

    rank the base documents by blake2b(seed \\x1f document id); the first ceil(n / 2) are dev.

Ranking (rather than a per-document coin) gives two equal halves; a hash (never ``hash()``) keeps it
reproducible across runs and machines.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from alignbench.errors import AlignbenchError
from alignbench.yamlload import load_yaml

HALVES: tuple[str, ...] = ("dev", "check")
RULE = "rank base documents by blake2b(seed \\x1f document id); the first ceil(n/2) are dev, the rest check"


def _rank_key(seed: int, document_id: str) -> tuple[bytes, str]:
    payload = f"{seed}\x1f{document_id}".encode()
    return hashlib.blake2b(payload, digest_size=8).digest(), document_id


def holdout_halves(document_ids: Iterable[str], seed: int) -> dict[str, str]:
    """Document id -> ``dev`` or ``check``."""
    ranked = sorted(set(document_ids), key=lambda d: _rank_key(seed, d))
    cut = (len(ranked) + 1) // 2
    return {doc: ("dev" if k < cut else "check") for k, doc in enumerate(ranked)}


def read_holdout_seed(root: Path) -> int:
    """``generate.holdout_seed`` from params.yaml: the generator splits synthetic documents with it and
    the scorer splits real families with it."""
    params = load_yaml(root / "params.yaml")
    section = params.get("generate") if isinstance(params, dict) else None
    seed = section.get("holdout_seed") if isinstance(section, dict) else None
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise AlignbenchError(f"{root / 'params.yaml'}: generate.holdout_seed must be a whole number")
    return seed
