"""gitimport: exact committed bytes, a full pinned sources entry, merge without losing other entries."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest
import yaml

from alignbench.corpus.gitimport import import_from_git, parse_file_arg
from alignbench.corpus.pairs import load_pairs
from alignbench.corpus.sources import load_sources
from alignbench.errors import AlignbenchError

V1 = b"---\r\ntitle: Logo Policy\r\n---\r\n\r\n## 1. Use\r\nYou may.\r\n"  # CRLF kept byte for byte
V2 = b"---\ntitle: Logo Policy\n---\n\n## 1. Misuse\nYou may not.\n\n## 2. Use\nYou may.\n"


def _git(repo: Path, *args: str) -> str:
    env_args = ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "core.autocrlf=false"]
    done = subprocess.run(["git", "-C", str(repo), *env_args, *args], capture_output=True, check=True)
    return done.stdout.decode().strip()


@pytest.fixture()
def clone(tmp_path: Path) -> tuple[Path, list[str]]:
    repo = tmp_path / "upstream"
    repo.mkdir()
    _git(repo, "init", "-q")
    commits = []
    for data in (V1, V2):
        (repo / "Policies").mkdir(exist_ok=True)
        (repo / "Policies" / "logo.md").write_bytes(data)
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", "edit")
        commits.append(_git(repo, "rev-parse", "HEAD"))
    return repo, commits


def _root(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "corpus").mkdir(parents=True)
    keep = {
        "id": "other/doc/tag-1",
        "family": "other",
        "path": "other/doc/tag-1/doc.md",
        "media": "markdown",
        "url": "https://example.invalid/doc.md",
        "revision": "tag-1",
        "sha256": hashlib.sha256(b"x\n").hexdigest(),
        "bytes": 2,
        "licence": "CC-BY-4.0",
        "attribution": "kept as it was",
    }
    (root / "corpus" / "sources.yaml").write_text(yaml.safe_dump({"sources": [keep]}), encoding="utf-8")
    return root


def test_import_copies_exact_bytes_and_merges_entries(tmp_path: Path, clone: tuple[Path, list[str]]) -> None:
    repo, commits = clone
    root = _root(tmp_path)
    files = [parse_file_arg(f"gh/logo/commit-{c[:12]}={c[:9]}:Policies/logo.md") for c in commits]
    kwargs = {
        "repo": "github/site-policy",
        "family": "gh",
        "licence": "CC0-1.0",
        "attribution": '"{title}" ({date}, commit {commit}) by GitHub, CC0 1.0',
        "title": "GitHub Logo Policy",
    }
    assert import_from_git(root, repo, files, **kwargs) == [f.id for f in files]
    sources = {s.id: s for s in load_sources(root)}
    assert list(sources) == ["other/doc/tag-1", *(f.id for f in files)]
    assert sources["other/doc/tag-1"].attribution == "kept as it was"
    for commit, data in zip(commits, (V1, V2), strict=True):
        entry = sources[f"gh/logo/commit-{commit[:12]}"]
        raw = root / "corpus" / "raw" / entry.path
        assert raw.read_bytes() == data
        assert entry.sha256 == hashlib.sha256(data).hexdigest() and entry.bytes == len(data)
        assert entry.commit == commit
        assert entry.url == f"https://raw.githubusercontent.com/github/site-policy/{commit}/Policies/logo.md"
        assert entry.attribution.startswith('"GitHub Logo Policy" (') and commit[:12] in entry.attribution
    # Re-importing replaces in place: same ids, same order, no duplicates.
    import_from_git(root, repo, files[:1], **kwargs)
    assert [s.id for s in load_sources(root)] == ["other/doc/tag-1", *(f.id for f in files)]


def test_unknown_commit_and_bad_arguments_are_refused(tmp_path: Path, clone: tuple[Path, list[str]]) -> None:
    repo, _ = clone
    root = _root(tmp_path)
    kwargs = {"repo": "a/b", "family": "gh", "licence": "CC0-1.0", "attribution": "x", "title": "t"}
    with pytest.raises(AlignbenchError, match="failed"):
        import_from_git(root, repo, [parse_file_arg("gh/x/commit-1=deadbeef:Policies/logo.md")], **kwargs)
    with pytest.raises(AlignbenchError, match="ID=COMMIT:PATH"):
        parse_file_arg("gh/x:Policies/logo.md")
    with pytest.raises(AlignbenchError, match="OWNER/NAME"):
        import_from_git(root, repo, [], **{**kwargs, "repo": "not a repo"})


def _pairs_file(tmp_path: Path, entry: dict) -> Path:
    (tmp_path / "corpus").mkdir(exist_ok=True)
    (tmp_path / "corpus" / "pairs.yaml").write_text(yaml.safe_dump({"pairs": [entry]}), encoding="utf-8")
    return tmp_path


BASE_PAIR = {"pair": "p", "source": "a/1", "test": "a/2", "format": "markdown", "profile": "markdown"}


def test_restructured_reason_is_loaded_and_checked(tmp_path: Path) -> None:
    spec = load_pairs(_pairs_file(tmp_path, {**BASE_PAIR, "restructured": " sections 3 and 4 swapped "}))[0]
    assert spec.restructured == "sections 3 and 4 swapped"
    assert load_pairs(_pairs_file(tmp_path, BASE_PAIR))[0].restructured is None
    for bad, message in (
        ("", "one-line reason"),
        (True, "one-line reason"),
        ("a\nb", "single line"),
    ):
        with pytest.raises(AlignbenchError, match=message):
            load_pairs(_pairs_file(tmp_path, {**BASE_PAIR, "restructured": bad}))
    with pytest.raises(AlignbenchError, match="control cannot also be restructured"):
        load_pairs(_pairs_file(tmp_path, {**BASE_PAIR, "restructured": "x", "control": True}))
