"""Import the revision history of each document file of a git repository into plain files.

Every revision is written as ``<dest>/<folder>/<document>/<NNNN>-<commit12>.md`` (NNNN counts from the
oldest), with ``<dest>/index.json`` listing documents and revisions in a fixed order, so the wild run
needs no git and a revision is one file a developer can open. Reserved documents are filtered by their
path before any of their content is read.
"""

from __future__ import annotations

import itertools
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from alignbench.atomic import write_json, write_many
from alignbench.errors import AlignbenchError

# Held back for independent evaluation (issue 28, BRIEF): never imported, never read.
EXCLUDED_FOLDERS: tuple[str, ...] = ("LINE", "Pinterest", "Reddit", "Snapchat", "X")
EXCLUDED_FILES: tuple[str, ...] = (
    "Facebook/Terms of Service.md",
    "Twitter/Data Processor Agreement.md",
    "Twitter/Data Controller Agreement.md",
)
DOCUMENT_SUFFIX = ".md"
INDEX = "index.json"


@dataclass(frozen=True)
class Revision:
    document: str  # the upstream path, e.g. "Bluesky/Privacy Policy.md"
    number: int  # 0 for the oldest revision
    commit: str
    date: str
    file: str  # relative to the import folder


def is_excluded(path: str) -> bool:
    """Whether an upstream path is a reserved source (or not a document at all)."""
    parts = PurePosixPath(path).parts
    if len(parts) != 2 or not path.endswith(DOCUMENT_SUFFIX):
        return True  # documents are <Platform>/<Document>.md; README.md, LICENSE are not documents
    return parts[0] in EXCLUDED_FOLDERS or path in EXCLUDED_FILES


def _git(repo: Path, *args: str, data: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(
            ["git", "--git-dir", str(repo), *args], input=data, capture_output=True, check=False
        )
    except FileNotFoundError:
        raise AlignbenchError("git is not installed; the wild import reads a git repository") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise AlignbenchError(f"{repo}: git {args[0]} failed ({message[-1] if message else 'no message'})")
    return done.stdout


def git_dir(source: Path) -> Path:
    """The git directory of ``source`` (a work tree or a bare repository), or a clear error."""
    for candidate in (source / ".git", source):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    raise AlignbenchError(f"{source}: not a git repository; pass the folder of a clone of pga-versions")


def document_paths(repo: Path, rev: str = "HEAD") -> list[str]:
    """Every document path that ever existed in the history of ``rev``, reserved ones left out."""
    names = _git(repo, "log", rev, "--format=", "--name-only", "--no-renames", "-z").decode("utf-8")
    return sorted(
        {n.strip("\n") for n in names.split("\0") if n.strip("\n") and not is_excluded(n.strip("\n"))}
    )


def _history(repo: Path, path: str, rev: str) -> list[tuple[str, str, str]]:
    """(commit, committer date, blob) of each change to ``path``, oldest first; deletions skipped."""
    out = _git(
        repo, "log", rev, "--reverse", "--no-renames", "--format=@%H %cI", "--raw", "--no-abbrev", "--", path
    )
    rows: list[tuple[str, str, str]] = []
    commit = date = ""
    for line in out.decode("utf-8").splitlines():
        if line.startswith("@"):
            commit, date = line[1:].split(" ", 1)
        elif line.startswith(":"):
            meta = line.split("\t", 1)[0].split()
            blob, status = meta[3], meta[4]
            if status != "D":
                rows.append((commit, date, blob))
    return rows


def _blobs(repo: Path, ids: list[str]) -> dict[str, bytes]:
    """The bytes of each blob, read in one ``git cat-file --batch`` call."""
    out = _git(repo, "cat-file", "--batch", data=("\n".join(ids) + "\n").encode())
    found: dict[str, bytes] = {}
    at = 0
    for _ in ids:
        header_end = out.index(b"\n", at)
        name, _kind, size = out[at:header_end].decode().split()
        start = header_end + 1
        found[name] = out[start : start + int(size)]
        at = start + int(size) + 1
    if len(found) != len(set(ids)):
        raise AlignbenchError(f"{repo}: git cat-file returned {len(found)} of {len(set(ids))} revisions")
    return found


def import_history(source: Path, dest: Path, rev: str = "HEAD") -> list[Revision]:
    """Write every revision of every non-reserved document under ``dest`` and the index; returns it."""
    repo = git_dir(source)
    revisions: list[Revision] = []
    for path in document_paths(repo, rev):
        history = _history(repo, path, rev)
        contents = _blobs(repo, [blob for _, _, blob in history]) if history else {}
        folder = PurePosixPath(path).with_suffix("")
        files: list[tuple[Path, bytes]] = []
        for number, (commit, date, blob) in enumerate(history):
            file = f"{folder}/{number:04d}-{commit[:12]}{DOCUMENT_SUFFIX}"
            files.append((dest / file, contents[blob]))
            revisions.append(Revision(path, number, commit, date, file))
        (dest / folder).mkdir(parents=True, exist_ok=True)
        write_many(files)
    write_json(
        dest / INDEX,
        {
            "source": source.name,
            "excluded_folders": list(EXCLUDED_FOLDERS),
            "excluded_files": list(EXCLUDED_FILES),
            "revisions": [r.__dict__ for r in revisions],
        },
    )
    return revisions


def load_index(dest: Path) -> list[Revision]:
    """The revisions an import wrote, in document then revision order."""
    index = dest / INDEX
    if not index.is_file():
        raise AlignbenchError(
            f"{index}: no imported history; run `python -m alignbench.wild import SRC` first (docs/WILD.md)"
        )
    data: dict[str, Any] = json.loads(index.read_text(encoding="utf-8"))
    return [Revision(**row) for row in data["revisions"]]


def consecutive_pairs(revisions: list[Revision]) -> list[tuple[Revision, Revision]]:
    """Each revision with the one before it of the same document."""
    pairs: list[tuple[Revision, Revision]] = []
    for before, after in itertools.pairwise(revisions):
        if before.document == after.document:
            pairs.append((before, after))
    return pairs
