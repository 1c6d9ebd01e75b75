"""Maintainer command: copy chosen revisions of files from a local git clone into ``corpus/raw``.

    python -m alignbench.corpus.gitimport --git-dir DIR --repo OWNER/NAME --family F \\
        --licence SPDX --attribution TEMPLATE --title TITLE  ID=COMMIT:PATH [ID=COMMIT:PATH ...]

For upstream repositories that are not in the offline mirror's ``MANIFEST.yaml`` (GitHub's
site-policy, 37signals' policies, Automattic's legalmattic): the bytes come from ``git cat-file`` at
the named commit, exactly as committed, and each file gets a full ``corpus/sources.yaml`` entry
(url pinned to the commit, sha256, licence, attribution). Entries with the same id are replaced in
place, new ones are appended, every other entry is kept. Like ``upstream``, no stage calls this:
the pipeline only ever reads ``corpus/raw``.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from alignbench.atomic import load_yaml, write_bytes, write_text
from alignbench.corpus.sources import (
    RAW_DIR,
    SOURCES_FILE,
    SOURCES_HEADER,
    check_raw_relative_path,
    load_sources,
)
from alignbench.errors import AlignbenchError

_FILE_ARG = re.compile(r"(?P<id>[^=]+)=(?P<commit>[0-9a-f]{7,40}):(?P<path>.+)")
_REPO = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*")


@dataclass(frozen=True)
class GitFile:
    """One file at one commit, and the source id it will have."""

    id: str
    commit: str
    path: str


def parse_file_arg(arg: str) -> GitFile:
    match = _FILE_ARG.fullmatch(arg)
    if match is None:
        raise AlignbenchError(
            f"file argument {arg!r}: expected ID=COMMIT:PATH, e.g. x/y/commit-abc=abc1234:a.md"
        )
    return GitFile(id=match["id"], commit=match["commit"], path=match["path"])


def _git(git_dir: Path, *args: str) -> bytes:
    done = subprocess.run(["git", "-C", str(git_dir), *args], capture_output=True, check=False)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise AlignbenchError(
            f"git {' '.join(args)} in {git_dir} failed: {message[-1] if message else 'no message'}"
        )
    return done.stdout


def _media(path: str) -> str:
    if path.endswith((".md", ".markdown")):
        return "markdown"
    if path.endswith(".txt"):
        return "text"
    raise AlignbenchError(f"{path}: only .md/.markdown (markdown) and .txt (text) files can be imported")


def source_record(
    file: GitFile,
    *,
    data: bytes,
    full_commit: str,
    date: str,
    repo: str,
    family: str,
    licence: str,
    attribution: str,
    title: str,
) -> dict[str, Any]:
    """The ``corpus/sources.yaml`` entry for one imported file (attribution template filled in)."""
    name = PurePosixPath(file.path).name
    revision = f"commit-{full_commit[:12]}"
    raw_path = f"{file.id}/{name}"
    check_raw_relative_path(raw_path, where=f"import {file.id}")
    filled = attribution.format(title=title, date=date, commit=full_commit[:12], repo=repo, path=file.path)
    return {
        "id": file.id,
        "family": family,
        "path": raw_path,
        "media": _media(file.path),
        "url": f"https://raw.githubusercontent.com/{repo}/{full_commit}/{urllib.parse.quote(file.path)}",
        "revision": revision,
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
        "licence": licence,
        "attribution": " ".join(filled.split()),
        "upstream_repo": f"https://github.com/{repo}",
        "upstream_path": file.path,
        "commit": full_commit,
        "title": f"{title} ({date})",
    }


def import_from_git(
    root: str | Path,
    git_dir: str | Path,
    files: Sequence[GitFile],
    *,
    repo: str,
    family: str,
    licence: str,
    attribution: str,
    title: str,
) -> list[str]:
    """Copy each file's committed bytes into ``corpus/raw`` and merge its entry into the sources."""
    base, clone = Path(root), Path(git_dir)
    if not _REPO.fullmatch(repo):
        raise AlignbenchError(f"--repo {repo!r}: expected OWNER/NAME as on GitHub")
    data_file = base / SOURCES_FILE
    existing = load_yaml(data_file)["sources"] if data_file.is_file() else []
    records: list[dict[str, Any]] = list(existing)
    index = {entry["id"]: i for i, entry in enumerate(records)}
    for file in files:
        full_commit = _git(clone, "rev-parse", "--verify", f"{file.commit}^{{commit}}").decode().strip()
        data = _git(clone, "cat-file", "blob", f"{full_commit}:{file.path}")
        date = _git(clone, "show", "-s", "--format=%cs", full_commit).decode().strip()
        record = source_record(
            file,
            data=data,
            full_commit=full_commit,
            date=date,
            repo=repo,
            family=family,
            licence=licence,
            attribution=attribution,
            title=title,
        )
        write_bytes(base / RAW_DIR / record["path"], data)
        if record["id"] in index:
            records[index[record["id"]]] = record
        else:
            index[record["id"]] = len(records)
            records.append(record)
    body = yaml.safe_dump({"sources": records}, sort_keys=False, allow_unicode=True, width=100)
    write_text(data_file, SOURCES_HEADER + body)
    load_sources(base)  # what we wrote must validate
    return [file.id for file in files]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--git-dir", required=True, help="a local clone (bare or not) of the upstream repo")
    parser.add_argument("--repo", required=True, help="OWNER/NAME on GitHub, for the pinned url")
    parser.add_argument("--family", required=True, help="corpus family, e.g. github-site-policy")
    parser.add_argument("--licence", required=True, help="SPDX id checked in the upstream repo, e.g. CC0-1.0")
    parser.add_argument(
        "--attribution",
        required=True,
        help="attribution template; may use {title} {date} {commit} {repo} {path}",
    )
    parser.add_argument("--title", required=True, help="the document's title")
    parser.add_argument("--root", default=".", help="repository root (default: .)")
    parser.add_argument("files", nargs="+", metavar="ID=COMMIT:PATH")
    args = parser.parse_args(argv)
    try:
        ids = import_from_git(
            args.root,
            args.git_dir,
            [parse_file_arg(arg) for arg in args.files],
            repo=args.repo,
            family=args.family,
            licence=args.licence,
            attribution=args.attribution,
            title=args.title,
        )
    except AlignbenchError as exc:
        print(f"alignbench: error: {exc}", file=sys.stderr)
        return 2
    print(f"copied {len(ids)} files into {RAW_DIR} and updated {SOURCES_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
