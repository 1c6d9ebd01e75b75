"""Load and validate ``corpus/sources.yaml``: the list of upstream files the corpus is built from.

Every entry names where its bytes live under ``corpus/raw`` and the sha256 they must have, so a
path that escapes ``corpus/raw`` or a malformed hash is refused before anything is read or written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from alignbench.atomic import load_yaml
from alignbench.errors import AlignbenchError

SOURCES_FILE = "corpus/sources.yaml"
RAW_DIR = "corpus/raw"
SOURCES_HEADER = (
    "# Upstream files the real tier is built from. Written by two maintainer commands, never by hand:\n"
    "#   python -m alignbench.corpus.upstream --from-upstream <mirror>   (files of the offline mirror)\n"
    "#   python -m alignbench.corpus.gitimport --git-dir <clone> ...      (revisions from a git clone)\n"
    "# path is relative to corpus/raw; sha256/bytes are of those exact bytes.\n"
)
# How prepare turns the raw bytes into a document the readers understand.
MEDIA: tuple[str, ...] = ("markdown", "text", "uslm-xml", "bill-dtd-xml")
REQUIRED_FIELDS: tuple[str, ...] = (
    "id",
    "family",
    "path",
    "media",
    "url",
    "revision",
    "sha256",
    "bytes",
    "licence",
    "attribution",
)
OPTIONAL_FIELDS: tuple[str, ...] = ("upstream_repo", "upstream_path", "commit", "title", "note")
_SHA256 = re.compile(r"[0-9a-f]{64}")
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)*")


@dataclass(frozen=True)
class Source:
    """One upstream file: identity, provenance, and the bytes it must have."""

    id: str
    family: str
    path: str  # relative to corpus/raw, POSIX separators
    media: str
    url: str
    revision: str
    sha256: str
    bytes: int
    licence: str
    attribution: str
    upstream_repo: str | None = None
    upstream_path: str | None = None
    commit: str | None = None
    title: str | None = None
    note: str | None = None


def check_raw_relative_path(path: str, *, where: str) -> PurePosixPath:
    """Refuse any path that could land outside ``corpus/raw`` (absolute, ``..``, backslashes)."""
    if not isinstance(path, str) or not path:
        raise AlignbenchError(f"{where}: 'path' must be a non-empty relative path under {RAW_DIR}")
    pure = PurePosixPath(path)
    if "\\" in path or pure.is_absolute() or any(part in ("..", ".", "") for part in path.split("/")):
        raise AlignbenchError(
            f"{where}: path {path!r} would land outside {RAW_DIR}; "
            "use a plain relative path such as 'commonpaper/CSA/tag-1.1/CSA.md'"
        )
    return pure


def raw_file(root: str | Path, source: Source) -> Path:
    """Absolute location of a source's bytes, checked again to stay inside ``corpus/raw``."""
    base = (Path(root) / RAW_DIR).resolve()
    target = (base / check_raw_relative_path(source.path, where=f"source {source.id}")).resolve()
    if base not in target.parents:
        raise AlignbenchError(f"source {source.id}: path {source.path!r} resolves outside {RAW_DIR}")
    return target


def load_sources(root: str | Path) -> list[Source]:
    """All entries of ``corpus/sources.yaml``, validated, in file order (ids must be unique)."""
    file = Path(root) / SOURCES_FILE
    data = load_yaml(file, "sources")
    if not isinstance(data, dict) or not isinstance(data.get("sources"), list):
        raise AlignbenchError(f"{SOURCES_FILE}: expected a mapping with a 'sources' list")
    seen: set[str] = set()
    sources: list[Source] = []
    for index, entry in enumerate(data["sources"], start=1):
        source = _parse_entry(entry, where=f"{SOURCES_FILE} entry {index}")
        if source.id in seen:
            raise AlignbenchError(
                f"{SOURCES_FILE} entry {index}: duplicate id {source.id!r}; ids must be unique"
            )
        seen.add(source.id)
        sources.append(source)
    return sources


def sources_by_id(root: str | Path) -> dict[str, Source]:
    return {s.id: s for s in load_sources(root)}


def _parse_entry(entry: object, *, where: str) -> Source:
    if not isinstance(entry, dict):
        raise AlignbenchError(f"{where}: expected a mapping with {', '.join(REQUIRED_FIELDS)}")
    missing = [f for f in REQUIRED_FIELDS if f not in entry]
    if missing:
        raise AlignbenchError(f"{where}: missing field(s) {', '.join(missing)}; add them")
    unknown = sorted(set(entry) - set(REQUIRED_FIELDS) - set(OPTIONAL_FIELDS))
    if unknown:
        raise AlignbenchError(f"{where}: unknown field(s) {', '.join(unknown)}; remove them")
    sid = entry["id"]
    if not isinstance(sid, str) or not _ID.fullmatch(sid):
        raise AlignbenchError(f"{where}: id {sid!r} must be slash-separated names of letters, digits, . _ -")
    where = f"{where} ({sid})"
    check_raw_relative_path(entry["path"], where=where)
    if entry["media"] not in MEDIA:
        raise AlignbenchError(f"{where}: media {entry['media']!r} is not one of {', '.join(MEDIA)}")
    if not isinstance(entry["sha256"], str) or not _SHA256.fullmatch(entry["sha256"]):
        raise AlignbenchError(f"{where}: sha256 must be 64 lowercase hex characters")
    if not isinstance(entry["bytes"], int) or isinstance(entry["bytes"], bool) or entry["bytes"] < 0:
        raise AlignbenchError(f"{where}: bytes must be a non-negative integer")
    for name in ("family", "url", "revision", "licence", "attribution"):
        if not isinstance(entry[name], str) or not entry[name].strip():
            raise AlignbenchError(f"{where}: {name} must be a non-empty string")
    for name in OPTIONAL_FIELDS:
        if entry.get(name) is not None and not isinstance(entry[name], str):
            raise AlignbenchError(f"{where}: {name} must be a string")
    return Source(**{k: entry[k] for k in REQUIRED_FIELDS}, **{k: entry.get(k) for k in OPTIONAL_FIELDS})
