"""The peers stage: every peer engine on every labelled pair, ``results/peers/<engine>/<tier>/<pair>.json``.

Pairs come from :func:`alignbench.tiers.discover` and load through :func:`alignbench.runs.load_pair`,
exactly as the align and floor stages read them. Each output records the sha256 of both documents,
so the scorer can tell an output that no longer describes the corpus (the stage is frozen in
dvc.yaml) from a current one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from alignbench.atomic import dump_json, write_text
from alignbench.blocks import BlockTree
from alignbench.errors import AlignbenchError
from alignbench.peers import PEER_ENGINES
from alignbench.runs import LoadedPair, load_pair
from alignbench.tiers import discover

Engine = Callable[[BlockTree, BlockTree], dict[str, Any]]
INSTALL_HINT = "install the peers extra: .venv/bin/pip install -r requirements-peers.lock"


def peers_dir(root: Path, engine: str) -> Path:
    return root / "results" / "peers" / engine


def engine_function(engine: str) -> Engine:
    """The alignment function of one peer; a missing extra is a clear error, not an ImportError."""
    if engine not in PEER_ENGINES:
        raise AlignbenchError(f"unknown peer engine {engine!r}; expected one of {', '.join(PEER_ENGINES)}")
    try:
        if engine == "xmldiff":
            from alignbench.peers.xmldiff_engine import xmldiff_alignment

            return xmldiff_alignment
        from alignbench.peers.docxodus_engine import docxodus_alignment

        return docxodus_alignment
    except ImportError as exc:
        raise AlignbenchError(f"peer engine {engine} is not installed ({exc.name}); {INSTALL_HINT}") from None


def document_hashes(root: Path, labels: Mapping[str, Any]) -> dict[str, str]:
    """sha256 of the two documents the labels name (label_check already proved they exist)."""
    return {
        side: hashlib.sha256((root / labels[side]["file"]).read_bytes()).hexdigest()
        for side in ("source", "test")
    }


def run_engine(
    engine: str, function: Engine, loaded: LoadedPair, hashes: Mapping[str, str]
) -> dict[str, Any]:
    """One engine on one pair; any failure inside the third-party engine names the pair."""
    try:
        output = function(loaded.source, loaded.test)
    except AlignbenchError as exc:
        raise AlignbenchError(f"{loaded.tier}/{loaded.pair}: {exc}") from None
    except Exception as exc:  # a peer is third-party code: report its failure as one line
        raise AlignbenchError(
            f"{loaded.tier}/{loaded.pair}: {engine} failed ({type(exc).__name__}: {exc}); "
            "check the peers extra matches requirements-peers.lock"
        ) from None
    return {"documents": dict(hashes), **output}


def run_peers(root: Path, engines: Sequence[str] = PEER_ENGINES) -> dict[str, int]:
    """Write every engine's per-pair outputs; drop stale files no pair produced. Returns counts."""
    functions = {engine: engine_function(engine) for engine in engines}
    written: dict[str, list[Path]] = {engine: [] for engine in engines}
    try:
        for tier_pair in discover(root):
            loaded = load_pair(root, tier_pair)
            hashes = document_hashes(root, loaded.labels)
            for engine, function in functions.items():
                target = peers_dir(root, engine) / tier_pair.tier / f"{tier_pair.pair}.json"
                write_text(target, dump_json(run_engine(engine, function, loaded, hashes)))
                written[engine].append(target)
    finally:
        if "docxodus" in functions:
            stop_docxodus_host()
    for engine, paths in written.items():
        keep = set(paths)
        for stale in sorted(peers_dir(root, engine).rglob("*.json")):
            if stale not in keep:
                stale.unlink()
    return {engine: len(paths) for engine, paths in written.items()}


def stop_docxodus_host() -> None:
    """docx-scalpel starts one host process per interpreter; stop the one this run started, if any."""
    try:
        import docx_scalpel
    except ImportError:
        return
    docx_scalpel.shutdown_host()
