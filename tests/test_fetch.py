"""fetch: verification, mirror fallback, refusal of tampered bytes and of paths outside corpus/raw."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import yaml

from alignbench.corpus.fetch import fetch
from alignbench.corpus.sources import load_sources
from alignbench.errors import AlignbenchError

CONTENT = b"1. Service\r\n    1.1 Access and Use.\r\n"


def _entry(sid: str, path: str, data: bytes) -> dict:
    return {
        "id": sid,
        "family": "commonpaper",
        "path": path,
        "media": "markdown",
        "url": f"https://example.invalid/{path}",
        "revision": "tag-1.0",
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
        "licence": "CC-BY-4.0",
        "attribution": "test attribution",
    }


def _repo(tmp_path: Path, entries: list[dict], files: dict[str, bytes]) -> Path:
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "sources.yaml").write_text(yaml.safe_dump({"sources": entries}), encoding="utf-8")
    for rel, data in files.items():
        target = tmp_path / "corpus" / "raw" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return tmp_path


def test_fetch_verifies_and_writes_a_sorted_record(tmp_path: Path) -> None:
    other = b"plain text\n"
    root = _repo(
        tmp_path,
        [_entry("z/doc", "z/doc/a.md", CONTENT), _entry("a/doc", "a/doc/b.txt", other)],
        {"z/doc/a.md": CONTENT, "a/doc/b.txt": other},
    )
    fetch(root)
    record = json.loads((root / "results" / "fetch.json").read_text(encoding="utf-8"))
    assert [f["id"] for f in record["files"]] == ["a/doc", "z/doc"]
    assert record["files"][1] == {
        "id": "z/doc",
        "path": "corpus/raw/z/doc/a.md",
        "sha256": hashlib.sha256(CONTENT).hexdigest(),
        "bytes": len(CONTENT),
        "status": "verified",
    }
    assert str(tmp_path) not in (root / "results" / "fetch.json").read_text(encoding="utf-8")


def test_tampered_byte_is_refused_naming_id_and_both_hashes(tmp_path: Path) -> None:
    root = _repo(tmp_path, [_entry("cp/csa", "cp/csa/CSA.md", CONTENT)], {"cp/csa/CSA.md": CONTENT})
    target = root / "corpus" / "raw" / "cp" / "csa" / "CSA.md"
    tampered = bytearray(CONTENT)
    tampered[3] ^= 0x01
    target.write_bytes(bytes(tampered))
    with pytest.raises(AlignbenchError) as info:
        fetch(root)
    message = str(info.value)
    assert "cp/csa" in message
    assert hashlib.sha256(CONTENT).hexdigest() in message
    assert hashlib.sha256(bytes(tampered)).hexdigest() in message
    assert target.read_bytes() == bytes(tampered)
    assert not (root / "results" / "fetch.json").exists()


@pytest.mark.parametrize(
    "bad", ["../outside.md", "cp/../../outside.md", "/etc/passwd", "cp\\..\\x.md", "./x.md"]
)
def test_paths_outside_raw_are_refused(tmp_path: Path, bad: str) -> None:
    root = _repo(tmp_path, [_entry("cp/evil", bad, CONTENT)], {})
    with pytest.raises(AlignbenchError, match="outside corpus/raw"):
        load_sources(root)
    with pytest.raises(AlignbenchError, match="outside corpus/raw"):
        fetch(root, mirror=tmp_path)
    assert not (tmp_path / "outside.md").exists()


def test_missing_file_is_copied_from_the_mirror_after_verification(tmp_path: Path) -> None:
    (tmp_path / "repo").mkdir()
    root = _repo(tmp_path / "repo", [], {})
    (root / "corpus" / "sources.yaml").write_text(
        yaml.safe_dump({"sources": [_entry("cp/csa", "cp/csa/CSA.md", CONTENT)]}), encoding="utf-8"
    )
    mirror = tmp_path / "mirror"
    (mirror / "cp" / "csa").mkdir(parents=True)
    (mirror / "cp" / "csa" / "CSA.md").write_bytes(CONTENT)
    records = fetch(root, mirror=mirror)
    assert records[0]["status"] == "copied-from-mirror"
    assert (root / "corpus" / "raw" / "cp" / "csa" / "CSA.md").read_bytes() == CONTENT


def test_mirror_with_wrong_bytes_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    _repo(root, [_entry("cp/csa", "cp/csa/CSA.md", CONTENT)], {})
    mirror = tmp_path / "mirror"
    (mirror / "cp" / "csa").mkdir(parents=True)
    (mirror / "cp" / "csa" / "CSA.md").write_bytes(CONTENT + b"x")
    monkeypatch.setenv("ALIGNBENCH_MIRROR", str(mirror))
    with pytest.raises(AlignbenchError, match="sha256 mismatch"):
        fetch(root)
    assert not (root / "corpus" / "raw" / "cp" / "csa" / "CSA.md").exists()


def test_missing_file_offline_says_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ALIGNBENCH_MIRROR", raising=False)
    root = _repo(tmp_path, [_entry("cp/csa", "cp/csa/CSA.md", CONTENT)], {})
    with pytest.raises(AlignbenchError, match=r"cp/csa: corpus/raw/cp/csa/CSA.md is missing.*--online"):
        fetch(root)


def test_malformed_entries_are_refused(tmp_path: Path) -> None:
    entry = _entry("cp/csa", "cp/csa/CSA.md", CONTENT)
    entry["sha256"] = "abc"
    root = _repo(tmp_path, [entry], {})
    with pytest.raises(AlignbenchError, match=r"entry 1 \(cp/csa\): sha256 must be 64"):
        load_sources(root)


def test_the_committed_corpus_verifies() -> None:
    root = Path(__file__).resolve().parents[1]
    sources = load_sources(root)
    assert len(sources) >= 20
    for source in sources:
        data = (root / "corpus" / "raw" / source.path).read_bytes()
        assert hashlib.sha256(data).hexdigest() == source.sha256, source.id
