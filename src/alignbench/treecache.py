"""Read block trees once per pipeline run: a content-addressed cache the per-pair stages share.

label_check, align@difflib, align@rapidfuzz, floor and score each read the same 708 documents, ~2.8 s
per stage on 2 cores; unpickling the same trees takes ~0.2 s. An entry is keyed by everything that
decides a tree: the document's bytes, its format and profile, and a fingerprint of the reader (the
source of ``alignbench.readers`` and the modules it builds on, the versions of the libraries it
parses with, the Python version). Any change to one of them is a different key, so a stale tree is
never served; a corrupt or unreadable entry is ignored and the document read again.

Entries live in ``<root>/.dvc/tmp/alignbench-trees/<fingerprint>/`` (DVC's own scratch directory,
ignored by git and DVC), so only a DVC checkout caches, never a test's temporary repository; a new
fingerprint removes the directories of older ones. ``ALIGNBENCH_TREE_CACHE=off`` turns the cache
off. The entries are pickles this project wrote to its own checkout; never point it at a directory
others can write to.
"""

from __future__ import annotations

import gc
import hashlib
import os
import pickle
import shutil
import sys
import tempfile
from functools import cache
from importlib import metadata
from pathlib import Path

from alignbench.blocks import BlockTree

ENV = "ALIGNBENCH_TREE_CACHE"
CACHE_DIR = ".dvc/tmp/alignbench-trees"
_PACKAGE = Path(__file__).resolve().parent
# What a tree is a function of besides the document: the reader and everything it imports.
_READER_SOURCES: tuple[str, ...] = (
    "readers",
    "blocks.py",
    "errors.py",
    "yamlload.py",
    "atomic.py",
    "schemas",
)
_READER_LIBRARIES: tuple[str, ...] = ("markdown-it-py", "mdit-py-plugins", "pyyaml")


@cache
def reader_fingerprint() -> str:
    """A digest of the reader's source files, its parsing libraries' versions and the Python version."""
    digest = hashlib.sha256(f"{sys.version}\0{pickle.HIGHEST_PROTOCOL}\0".encode())
    for library in _READER_LIBRARIES:
        digest.update(f"{library}=={metadata.version(library)}\0".encode())
    for name in _READER_SOURCES:
        top = _PACKAGE / name
        files = sorted(p for p in top.rglob("*") if p.is_file()) if top.is_dir() else [top]
        for path in files:
            if path.suffix in (".py", ".yaml", ".json"):
                digest.update(f"{path.relative_to(_PACKAGE).as_posix()}\0".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def _cache_dir(root: Path) -> Path | None:
    if os.environ.get(ENV, "").strip().lower() in ("off", "0", "false", "no"):
        return None
    if not (root / ".dvc").is_dir():
        return None
    return root / CACHE_DIR / reader_fingerprint()


def read_tree(root: Path, path: Path, format: str | None, profile: str | None) -> BlockTree:
    """``alignbench.readers.read(path, format, profile)``, served from the cache when it was read before."""
    from alignbench.readers import read

    directory = _cache_dir(root)
    if directory is None:
        return read(path, format=format, profile=profile)
    try:
        raw = path.read_bytes()
    except OSError:
        return read(path, format=format, profile=profile)  # the reader reports the file's problem
    key = hashlib.sha256(f"{format}\0{profile}\0".encode() + raw).hexdigest()
    entry = directory / key[:2] / f"{key}.pickle"
    cached = _load(entry)
    if cached is not None:
        return cached
    tree = read(path, format=format, profile=profile)
    _store(root, directory, entry, tree)
    return tree


def _load(entry: Path) -> BlockTree | None:
    try:
        data = entry.read_bytes()
    except OSError:
        return None
    enabled = gc.isenabled()
    gc.disable()  # a tree is thousands of small objects: collecting midway only costs time
    try:
        tree = pickle.loads(data)
    except Exception:
        return None
    finally:
        if enabled:
            gc.enable()
    return tree if isinstance(tree, BlockTree) else None


def _store(root: Path, directory: Path, entry: Path, tree: BlockTree) -> None:
    """Write the entry atomically; a cache that cannot be written is only a slower run, never an error."""
    try:
        if not directory.is_dir():
            parent = root / CACHE_DIR
            if parent.is_dir():
                for older in sorted(p for p in parent.iterdir() if p.is_dir() and p != directory):
                    shutil.rmtree(older, ignore_errors=True)
        entry.parent.mkdir(parents=True, exist_ok=True)
        # Atomic (rename) but not fsynced: an entry torn by a crash fails to unpickle and is re-read.
        fd, tmp = tempfile.mkstemp(prefix=f".{entry.name}.", suffix=".tmp", dir=entry.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(pickle.dumps(tree, protocol=pickle.HIGHEST_PROTOCOL))
            os.replace(tmp, entry)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError:
        return
