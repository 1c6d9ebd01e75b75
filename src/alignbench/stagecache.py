"""Parse once per pipeline run: a content-addressed cache of read block trees and parsed label files.

label_check, align@difflib, align@rapidfuzz, floor and score each read the same 708 documents (~2.8 s
per stage on 2 cores), label_check and score parse the same 354 label files (~2.5 s each), and
generate and label_check both run the generator's feature probe (~1.5 s); unpickling the results
takes a tenth of that. An entry is keyed by everything that decides it: the
input's bytes (and a document's format and profile), plus a fingerprint of the code that parses it
(its package sources, the versions of the libraries it parses with, the Python version). Any change
to one of them is a different key, so a stale entry is never served; a corrupt or unreadable entry is
ignored and the input parsed again. Only successes are cached: a bad input fails, with its own
message, every time.

Entries live in ``<root>/.dvc/tmp/alignbench-cache/<kind>/<fingerprint>/`` (DVC's own scratch
directory, ignored by git and DVC), so only a DVC checkout caches, never a test's temporary
repository; a new fingerprint removes the entries of older ones. ``ALIGNBENCH_CACHE=off`` turns the
cache off. The entries are pickles this project wrote into its own checkout; never point it at a
directory others can write to.
"""

from __future__ import annotations

import hashlib
import io
import operator
import os
import pickle
import shutil
import sys
import tempfile
from collections.abc import Callable
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

from alignbench.blocks import SLOT_FIELDS, SLOT_SETTERS, Block, BlockTree
from alignbench.gc_pause import paused_collector

ENV = "ALIGNBENCH_CACHE"
CACHE_DIR = ".dvc/tmp/alignbench-cache"
_PACKAGE = Path(__file__).resolve().parent
# Per kind: what an entry is a function of besides its input (package sources, parsing libraries).
_SOURCES: dict[str, tuple[str, ...]] = {
    "trees": ("readers", "blocks.py", "errors.py", "yamlload.py", "atomic.py", "schemas", "stagecache.py"),
    "labels": ("yamlload.py", "errors.py", "labels/fastload.py"),
    # the generator's feature probe: its operators, and the reader that confirms each dry run
    "features": (
        "generate",
        "labels",
        "readers",
        "blocks.py",
        "errors.py",
        "yamlload.py",
        "atomic.py",
        "schemas",
    ),
}
_LIBRARIES: dict[str, tuple[str, ...]] = {
    "trees": ("markdown-it-py", "pyyaml"),
    "labels": ("pyyaml",),
    "features": ("markdown-it-py", "pyyaml"),
}
T = TypeVar("T")


@cache
def fingerprint(kind: str) -> str:
    """A digest of the parsing code of ``kind``, its libraries' versions and the Python version."""
    digest = hashlib.sha256(f"{kind}\0{sys.version}\0{pickle.HIGHEST_PROTOCOL}\0".encode())
    for library in _LIBRARIES[kind]:
        digest.update(f"{library}=={metadata.version(library)}\0".encode())
    for name in _SOURCES[kind]:
        top = _PACKAGE / name
        files = sorted(p for p in top.rglob("*") if p.is_file()) if top.is_dir() else [top]
        for path in files:
            if path.suffix in (".py", ".yaml", ".json"):
                digest.update(f"{path.relative_to(_PACKAGE).as_posix()}\0".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def _cache_dir(root: Path, kind: str) -> Path | None:
    if os.environ.get(ENV, "").strip().lower() in ("off", "0", "false", "no"):
        return None
    if not (root / ".dvc").is_dir():
        return None
    return root / CACHE_DIR / kind / fingerprint(kind)


def cached(root: Path, kind: str, key: bytes, compute: Callable[[], T], expected: type) -> T:
    """``compute()``, or the entry stored for (``kind``, ``key``) by an earlier call with the same code."""
    directory = _cache_dir(root, kind)
    if directory is None:
        return compute()
    entry = _entry(directory, key)
    found = _load(entry)
    if isinstance(found, expected):
        return found  # type: ignore[return-value]
    value = compute()
    _store(directory, entry, value)
    return value


def _entry(directory: Path, key: bytes) -> Path:
    name = hashlib.sha256(key).hexdigest()
    return directory / name[:2] / f"{name}.pickle"


def _tree_key(raw: bytes, format: str | None, profile: str | None) -> bytes:
    return f"{format}\0{profile}\0".encode() + raw


# The last few trees by their key, so consecutive pairs of one base document (discovery order puts a
# synthetic document's pairs together) share one tree object: unpickled once, and what stages derive
# from a tree (floor's flat text, score's twin classes) can be kept by identity. Trees are never
# mutated after reading (Block is frozen; BlockTree only fills its own lookup caches).
_RECENT_TREES = 4
_recent_trees: dict[bytes, BlockTree] = {}


def read_tree(root: Path, path: Path, format: str | None, profile: str | None) -> BlockTree:
    """``alignbench.readers.read(path, format, profile)``, from the cache when read before."""
    from alignbench.readers import read

    try:
        raw = path.read_bytes()
    except OSError:
        return read(path, format=format, profile=profile)  # the reader reports the file's problem
    key = _tree_key(raw, format, profile)
    if _cache_dir(root, "trees") is None:  # "off" stays off: every read is a fresh one
        return read(path, format=format, profile=profile)
    recent = _recent_trees.get(key)
    if recent is not None:
        return recent
    tree = cached(root, "trees", key, lambda: read(path, format=format, profile=profile), BlockTree)
    _recent_trees[key] = tree
    while len(_recent_trees) > _RECENT_TREES:
        del _recent_trees[next(iter(_recent_trees))]
    return tree


def remember_tree(root: Path, raw: bytes, format: str, profile: str, tree: BlockTree) -> None:
    """Store ``tree`` as what :func:`read_tree` reads from a file holding ``raw``.

    For a stage that has just read those very bytes with the same reader (generate reads back every
    document it renders): label_check then finds the synthetic tier's 566 documents already read.
    The caller must pass the tree the reader made of exactly ``raw`` (decoded as UTF-8) with this
    format and profile; tests/test_stagecache.py checks that it equals a fresh read of the file."""
    directory = _cache_dir(root, "trees")
    if directory is None:
        return
    entry = _entry(directory, _tree_key(raw, format, profile))
    if not entry.is_file():
        _store(directory, entry, tree)


def parse_labels(root: Path, path: Path) -> Any:
    """The strict parse of a labels.yaml (``yamlload.parse_yaml``, no schema check; the canonical layout
    through ``labels.fastload``), from the cache when parsed before; a file that fails to parse raises
    its own error every time."""
    from alignbench.labels.fastload import parse_labels_text
    from alignbench.yamlload import read_text

    text = read_text(path)
    return cached(root, "labels", text.encode("utf-8"), lambda: parse_labels_text(text, str(path)), dict)


def _load(entry: Path) -> Any:
    try:
        data = entry.read_bytes()
    except OSError:
        return None
    try:
        with paused_collector():  # thousands of small objects and no cycle (see gc_pause)
            return pickle.loads(data)
    except Exception:
        return None


# A Block is a frozen, slotted dataclass: pickle's default rebuilds each one through
# dataclasses' __setstate__ (a fields() call and a setattr per field), half of a cached tree's load.
# Entries written here rebuild blocks by setting their slots directly: same objects, ~2x faster.
_block_values = operator.attrgetter(*SLOT_FIELDS)


def _block(*values: Any) -> Block:
    """A Block with exactly these field values (in ``SLOT_FIELDS`` order), as it was pickled."""
    block = object.__new__(Block)
    for set_slot, value in zip(SLOT_SETTERS, values, strict=True):
        set_slot(block, value)
    return block


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is Block:
            return _block, _block_values(obj)
        return NotImplemented


def _dumps(value: Any) -> bytes:
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


def _store(directory: Path, entry: Path, value: Any) -> None:
    """Write the entry atomically; a cache that cannot be written is only a slower run, never an error."""
    try:
        if not directory.is_dir() and directory.parent.is_dir():
            for older in sorted(p for p in directory.parent.iterdir() if p.is_dir() and p != directory):
                shutil.rmtree(older, ignore_errors=True)
        entry.parent.mkdir(parents=True, exist_ok=True)
        # Atomic (rename) but not fsynced: an entry torn by a crash fails to unpickle and is re-parsed.
        fd, tmp = tempfile.mkstemp(prefix=f".{entry.name}.", suffix=".tmp", dir=entry.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(_dumps(value))
            os.replace(tmp, entry)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except Exception:  # an unpicklable value or a full disk: the run just stays uncached
        return
