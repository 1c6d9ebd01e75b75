"""Maintainer command: copy the upstream files that ``corpus/pairs.yaml`` needs into the repo.

    python -m alignbench.corpus.upstream --from-upstream DIR [--root .]

``DIR`` is an upstream mirror with ``MANIFEST.yaml`` (the authority for sha256, licence,
attribution and origin). This writes ``corpus/raw/<id>/<file>`` byte for byte and regenerates
``corpus/sources.yaml``. It is run by hand when the pair list changes; no stage calls it, so the
pipeline never reads anything outside the repository.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from alignbench.atomic import load_yaml, write_bytes, write_text
from alignbench.corpus.pairs import load_pairs
from alignbench.corpus.sources import RAW_DIR, REQUIRED_FIELDS, SOURCES_FILE, SOURCES_HEADER, load_sources
from alignbench.errors import AlignbenchError


def _media(entry: dict[str, Any]) -> str:
    file = entry["file"]
    if file.endswith(".md"):
        return "markdown"
    if "/usgpo-uslm-samples/" in file:
        return "uslm-xml"
    if "/govinfo-billdtd/" in file:
        return "bill-dtd-xml"
    if file.endswith(".txt"):
        return "text"
    raise AlignbenchError(f"MANIFEST.yaml entry {entry['id']}: cannot tell the media of {file}")


def _raw_url(entry: dict[str, Any]) -> str:
    repo = entry["upstream_repo"].rstrip("/")
    prefix = "https://github.com/"
    if not repo.startswith(prefix):
        raise AlignbenchError(f"MANIFEST.yaml entry {entry['id']}: upstream_repo {repo} is not on GitHub")
    return (
        f"https://raw.githubusercontent.com/{repo[len(prefix) :]}/{entry['commit']}/{entry['upstream_path']}"
    )


def _source_entry(entry: dict[str, Any]) -> dict[str, Any]:
    note = None
    if entry.get("raw_or_prepared") == "prepared":
        note = (
            f"already prepared upstream: {entry.get('prepared_by', '')}; {entry.get('retrieval', '')}".strip()
        )
    record = {
        "id": entry["id"],
        "family": entry["family"],
        "path": f"{entry['id']}/{PurePosixPath(entry['file']).name}",
        "media": _media(entry),
        "url": _raw_url(entry),
        "revision": str(entry["revision"]),
        "sha256": entry["sha256"],
        "bytes": int(entry["bytes"]),
        "licence": entry["licence"],
        "attribution": " ".join(str(entry["attribution"]).split()),
        "upstream_repo": entry["upstream_repo"],
        "upstream_path": entry["upstream_path"],
        "commit": entry["commit"],
        "title": entry.get("title"),
        "note": note,
    }
    return {k: v for k, v in record.items() if v is not None or k in REQUIRED_FIELDS}


def import_from_upstream(root: str | Path, upstream: str | Path) -> list[str]:
    """Copy every mirror file the pairs need; return the ids copied (sorted). Git-imported entries stay."""
    base, mirror = Path(root), Path(upstream)
    manifest = load_yaml(mirror / "MANIFEST.yaml")
    entries = {e["id"]: e for e in manifest["entries"]}
    wanted = sorted({sid for spec in load_pairs(base) for sid in (spec.source, spec.test)})
    # Files imported from a git clone (alignbench.corpus.gitimport) are not in the mirror: keep them.
    current = {s.id: s for s in load_sources(base)} if (base / SOURCES_FILE).is_file() else {}
    kept = [sid for sid in wanted if sid not in entries and sid in current]
    missing = [sid for sid in wanted if sid not in entries and sid not in kept]
    if missing:
        raise AlignbenchError(
            f"corpus/pairs.yaml names ids not in {mirror}/MANIFEST.yaml: {', '.join(missing)}"
        )
    records = []
    for sid in wanted:
        if sid in kept:
            continue
        entry = entries[sid]
        data = (mirror / entry["file"]).read_bytes()
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise AlignbenchError(
                f"{mirror}/{entry['file']}: bytes do not match MANIFEST.yaml sha256 for {sid}"
            )
        record = _source_entry(entry)
        write_bytes(base / RAW_DIR / record["path"], data)
        records.append(record)
    previous = {e["id"]: e for e in load_yaml(base / SOURCES_FILE)["sources"]} if kept else {}
    records.extend(previous[sid] for sid in kept)
    body = yaml.safe_dump({"sources": records}, sort_keys=False, allow_unicode=True, width=100)
    write_text(base / SOURCES_FILE, SOURCES_HEADER + body)
    load_sources(base)  # what we wrote must validate
    return [sid for sid in wanted if sid not in kept]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--from-upstream", required=True, metavar="DIR", help="upstream mirror with MANIFEST.yaml"
    )
    parser.add_argument("--root", default=".", help="repository root (default: .)")
    args = parser.parse_args(argv)
    try:
        ids = import_from_upstream(args.root, args.from_upstream)
    except AlignbenchError as exc:
        print(f"alignbench: error: {exc}", file=sys.stderr)
        return 2
    print(f"copied {len(ids)} upstream files into {RAW_DIR} and wrote {SOURCES_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
