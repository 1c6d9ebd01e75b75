"""Structural alignment: which block of the old document became which block of the new one.

``align(source_tree, test_tree, config)`` runs the six passes of seed 001 over two block trees and
returns an :class:`Alignment` whose JSON form is byte-stable for a given config and resolved backend.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from alignbench.alignment.config import (
    PASS_NAMES,
    RESERVED_PASS_NAMES,
    AlignmentConfig,
    AlignmentConfigError,
)
from alignbench.gc_pause import paused_collector

if TYPE_CHECKING:
    from alignbench.alignment.model import AlignedPair, Alignment, Change
    from alignbench.alignment.prepared import PreparedPair
    from alignbench.blocks import BlockTree

__all__ = [
    "PASS_NAMES",
    "RESERVED_PASS_NAMES",
    "AlignedPair",
    "Alignment",
    "AlignmentConfig",
    "AlignmentConfigError",
    "Change",
    "PreparedPair",
    "align",
    "engine_version",
]

ENGINE_NAME = "alignbench"
# The result types load on first use (PEP 562): `alignbench compare --help` imports this package for
# the backend names and must not pay for the JSON model (and the YAML library behind it).
_LAZY = {"AlignedPair": "model", "Alignment": "model", "Change": "model", "PreparedPair": "prepared"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f"alignbench.alignment.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def source_digest() -> str:
    """12 hex of sha256 over the engine's own source files (``alignment/*.py`` and ``moverule/*.py``).

    Seed 000 keys move verdicts on the engine version so a behaviour change makes old verdicts stale;
    a version that changed only with the package version or the config let a code change keep them.
    Each file enters as its name, a NUL, its bytes and a NUL, so no two file sets hash alike.
    """
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py"), key=lambda p: p.name):
        digest.update(path.name.encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    # The move rule decides the engine's ``moved`` flag, so its source is part of the engine.
    for path in sorted((Path(__file__).parent.parent / "moverule").glob("*.py"), key=lambda p: p.name):
        digest.update(b"moverule/" + path.name.encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def engine_version(config: AlignmentConfig | None = None) -> str:
    """``<package version>+<12 hex of the canonical config (backend resolved)>.<12 hex of the source>``."""
    from alignbench import __version__
    from alignbench.alignment.similarity import resolve_backend

    config = config or AlignmentConfig()
    effective = config.to_dict()
    effective["similarity"] = resolve_backend(config.similarity)
    canonical = json.dumps(effective, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    config_hex = hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]
    return f"{__version__}+{config_hex}.{source_digest()}"


def align(
    source_tree: BlockTree,
    test_tree: BlockTree,
    config: AlignmentConfig | None = None,
    prepared: PreparedPair | None = None,
) -> Alignment:
    """Align two trees. The cyclic garbage collector is paused for the run (:mod:`alignbench.gc_pause`):
    the walk allocates hundreds of thousands of small tuples, lists and pair records and frees them by
    reference counting, creating no reference cycles, yet each allocation burst set off collections
    that re-traverse every block of both trees - 26-35% of a 20,000-block run.

    ``prepared`` (a :class:`PreparedPair` of these two trees) shares the flattened documents and the
    similarity memo between alignments of one pair under several configs, backends included: each
    result is exactly the one a run without it gives, only sooner."""
    if prepared is not None and not (prepared.source_tree is source_tree and prepared.test_tree is test_tree):
        raise ValueError("align: prepared= holds other trees; pass PreparedPair(source_tree, test_tree)")
    with paused_collector():
        return _align(source_tree, test_tree, config or AlignmentConfig(), prepared)


def _align(
    source_tree: BlockTree, test_tree: BlockTree, config: AlignmentConfig, prepared: PreparedPair | None
) -> Alignment:
    from alignbench.alignment.changes import build_records
    from alignbench.alignment.engine import Walk
    from alignbench.alignment.flat import unmatched
    from alignbench.alignment.model import Alignment
    from alignbench.alignment.prepared import PreparedPair

    src, tst, headings, memo = (prepared or PreparedPair(source_tree, test_tree)).parts()
    walk = Walk(src, tst, config, memo, headings)
    walk.run()
    pairs, changes = build_records(walk)
    matched = Counter(walk.matched_by)  # one entry per pair, as in ``pairs`` (None for the unpaired)
    counts = {name: matched[name] for name in ("root", *PASS_NAMES)}
    src, tst = walk.src, walk.tst
    return Alignment(
        engine_name=ENGINE_NAME,
        engine_version=engine_version(config),
        backend_requested=config.similarity,
        backend_resolved=walk.sim.resolved,
        config=config,
        budget_exhausted=walk.sim.budget_exhausted,
        comparisons=walk.sim.comparisons,
        pass_counts=counts,
        pairs=tuple(pairs),
        inserted=tuple(tst.address[t] for t in unmatched(walk.t2s)),  # the roots always pair
        deleted=tuple(src.address[s] for s in unmatched(walk.s2t)),
        changes=tuple(changes),
    )
