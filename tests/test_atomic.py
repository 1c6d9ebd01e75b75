"""Bad YAML gets one clear message naming the file; atomic writes never leave a partial file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alignbench.atomic import dump_json, load_yaml, prune, write_bytes, write_many, write_text, write_texts
from alignbench.errors import AlignbenchError
from property_budget import examples


def _yaml(tmp_path, data: bytes):
    path = tmp_path / "labels.yaml"
    path.write_bytes(data)
    return path


def test_load_yaml_reads_a_mapping(tmp_path):
    assert load_yaml(_yaml(tmp_path, b"a: 1\nb: [x, y]\n")) == {"a": 1, "b": ["x", "y"]}


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b"", "file is empty"),
        (b"   \n\n", "file is empty"),
        (b"a: \xff\xfe\n", "not valid UTF-8"),
        (b"a: [1, 2\nb: 3\n", ":1:4: malformed YAML: this flow sequence is not closed"),
        (b"a: &x [1, 2]\nb: *x\n", "anchors/aliases are not allowed"),
        (
            b'a: &a ["lol","lol"]\nb: &b [*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b]\nd: [*c,*c,*c,*c]\n',
            "anchors/aliases are not allowed",
        ),
        (b"a: !!python/object/apply:os.system ['true']\n", ":1:4: YAML tag"),
    ],
)
def test_load_yaml_rejects_bad_input_with_the_file_name(tmp_path, data, fragment):
    path = _yaml(tmp_path, data)
    with pytest.raises(AlignbenchError) as info:
        load_yaml(path)
    message = str(info.value)
    assert str(path) in message
    assert fragment in message


def test_load_yaml_names_a_missing_file(tmp_path):
    with pytest.raises(AlignbenchError, match="file not found"):
        load_yaml(tmp_path / "nope.yaml")


def test_write_is_atomic_and_leaves_no_temporary_files(tmp_path):
    target = tmp_path / "out" / "result.json"
    write_text(target, "first\n")
    write_text(target, "second\n")
    assert target.read_text() == "second\n"
    assert sorted(os.listdir(target.parent)) == ["result.json"]


def test_failed_write_keeps_the_old_file(tmp_path):
    target = tmp_path / "result.bin"
    write_bytes(target, b"old")

    with pytest.raises(TypeError):
        write_bytes(target, "not bytes")  # type: ignore[arg-type]
    assert target.read_bytes() == b"old"
    assert sorted(os.listdir(tmp_path)) == ["result.bin"]


def test_dump_json_is_canonical():
    assert dump_json({"b": 1, "a": [1.5]}) == '{\n  "b": 1,\n  "a": [\n    1.5\n  ]\n}\n'


def _standard(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def test_dump_json_is_the_standard_librarys_text_on_every_committed_json_output() -> None:
    root = Path(__file__).resolve().parent.parent
    outputs = sorted((root / "results").rglob("*.json"))[::7]
    paths = outputs + sorted((root / "corpus" / "real").glob("*/*.json"))
    assert len(paths) > 100
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert dump_json(data) == _standard(data), path


_json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-1e-3, max_value=1e-3),
    st.text(),
)
_json_values = st.recursive(
    _json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.one_of(st.text(max_size=4), st.integers(-3, 3), st.booleans()), inner, max_size=4),
    ),
    max_leaves=12,
)


@settings(max_examples=examples(150), deadline=None)
@given(_json_values)
def test_dump_json_is_the_standard_librarys_text_on_any_data(data: object) -> None:
    assert dump_json(data) == _standard(data)


def test_write_texts_sweeps_each_targets_leftovers_once_and_writes_in_order(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    mine = out / ".a.json.k1ll3d.tmp"
    other = out / ".unrelated.json.k1ll3d.tmp"
    for leftover in (mine, other):
        leftover.write_text("partial", encoding="utf-8")
    write_texts([(out / "a.json", "A\n"), (out / "b" / "c.json", "C\n"), (out / "a.json", "A2\n")])
    assert not mine.exists() and other.exists()  # only the temporaries of files being written
    assert (out / "a.json").read_text(encoding="utf-8") == "A2\n"
    assert (out / "b" / "c.json").read_text(encoding="utf-8") == "C\n"
    assert sorted(p.name for p in out.iterdir()) == [".unrelated.json.k1ll3d.tmp", "a.json", "b"]


def test_write_texts_changes_no_target_when_a_later_file_of_the_batch_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text("old\n", encoding="utf-8")
    real_mkstemp, calls = tempfile.mkstemp, []

    def failing_second(*args: object, **kwargs: object) -> tuple[int, str]:
        calls.append(1)
        if len(calls) == 2:
            raise OSError("disk full")
        return real_mkstemp(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tempfile, "mkstemp", failing_second)
    with pytest.raises(OSError, match="disk full"):
        write_texts([(first, "new\n"), (second, "B\n")])
    assert first.read_text(encoding="utf-8") == "old\n"  # the batch is renamed only once all is on disk
    assert not second.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]  # no temporary left behind


def test_write_many_flushes_the_batch_to_disk_once_before_any_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[str] = []
    real_replace = os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: events.append("fsync"))
    monkeypatch.setattr(os, "sync", lambda: events.append("sync"))

    def replace(src: str, dst: object) -> None:
        events.append("rename")
        real_replace(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", replace)
    write_many([(tmp_path / f"{n}.json", b"%d\n" % n) for n in range(5)] + [(tmp_path / "0.json", b"last\n")])
    assert events == ["sync"] + ["rename"] * 5
    assert (tmp_path / "0.json").read_bytes() == b"last\n"  # a name given twice keeps its last bytes
    assert [(tmp_path / f"{n}.json").read_bytes() for n in range(1, 5)] == [b"1\n", b"2\n", b"3\n", b"4\n"]
    assert oct((tmp_path / "1.json").stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_write_many_leaves_a_file_that_already_holds_its_bytes_untouched(tmp_path: Path) -> None:
    same, other, link = tmp_path / "same.json", tmp_path / "other.json", tmp_path / "link.json"
    same.write_bytes(b"kept\n")
    other.write_bytes(b"old\n")
    link.symlink_to(same)
    before = same.stat()
    write_many([(same, b"kept\n"), (other, b"new\n"), (link, b"kept\n")])
    after = same.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)  # not rewritten
    assert other.read_bytes() == b"new\n"
    assert not link.is_symlink() and link.read_bytes() == b"kept\n"  # a link is replaced by a file


def test_write_many_writes_nothing_and_syncs_nothing_when_every_file_is_current(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.json").write_bytes(b"A\n")
    monkeypatch.setattr(os, "sync", lambda: pytest.fail("nothing changed, nothing to flush"))
    write_many([(tmp_path / "a.json", b"A\n")])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]


def test_prune_leaves_exactly_the_kept_files_and_no_empty_directory(tmp_path: Path) -> None:
    out = tmp_path / "out"
    kept = [out / "synthetic" / "a.json", out / "real" / "b.json"]
    stray = [out / "synthetic" / "old.json", out / "notes.txt", out / "gone" / "deep" / "c.json"]
    for path in [*kept, *stray]:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "precious.json").write_text("p", encoding="utf-8")
    (out / "linked").symlink_to(elsewhere, target_is_directory=True)
    removed = prune(out, kept)
    assert sorted(removed) == sorted([*stray, out / "linked"])
    assert sorted(p for p in out.rglob("*")) == sorted([*kept, out / "synthetic", out / "real"])
    assert (elsewhere / "precious.json").exists()  # a linked directory is unlinked, never followed
