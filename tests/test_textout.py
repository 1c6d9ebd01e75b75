"""``alignbench compare``'s text summary as a reader meets it (issue 32): heading paths, not bare
addresses; edits inside moved and renumbered clauses shown and counted; renumber runs on one line;
an inserted section's heading and first words; text cut at a word with "…"."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from alignbench.alignment.model import Change
from alignbench.cli import main
from alignbench.html.locate import Locator
from alignbench.readers import read_document
from alignbench.textout import clip, render_diff, shared_path, word_segments

FIXTURES = Path(__file__).parent / "textout_fixtures"
OLD, NEW = str(FIXTURES / "old.md"), str(FIXTURES / "new.md")


def _compare(capsys, *extra: str) -> str:
    assert main(["compare", OLD, NEW, "--backend", "difflib", *extra]) == 1
    return capsys.readouterr().out


def test_counts_include_edits_inside_moved_and_renumbered_clauses(capsys) -> None:
    first = _compare(capsys).splitlines()[0]
    assert "1 moved, 5 renumbered, 1 inserted, 0 deleted, 2 modified, 1 of them also moved" in first


def test_a_moved_clause_that_was_edited_shows_its_word_diff(capsys) -> None:
    out = _compare(capsys)
    moved = out.split("Moved:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert moved[0] == "  §2 Payment › 2.1 → §3 Term › 3.2, edited:"
    assert "by [-email-] {+post+} at the start" in moved[1]


def test_a_renumber_cascade_is_one_line_named_by_heading_path(capsys) -> None:
    out = _compare(capsys)
    renumbered = out.split("Renumbered:\n", 1)[1].split("\n\n", 1)[0]
    assert renumbered == "  §2 Payment › 2.2–2.6 → 2.1–2.5 (5 clauses)"


def test_an_inserted_section_shows_its_heading_and_first_words(capsys) -> None:
    out = _compare(capsys)
    assert "  + §4 Liability: Neither party is liable for indirect damages arising from this…" in out


def test_addresses_only_with_verbose(capsys) -> None:
    plain = _compare(capsys)
    assert "/section[" not in plain
    verbose = _compare(capsys, "--verbose")
    assert "[/section[1]/section[2]/list_item[1] → /section[1]/section[3]/list_item[2]]" in verbose
    assert "  + §4 Liability: Neither party" in verbose and "[/section[1]/section[4]]" in verbose


def test_edits_in_renumbered_clauses_are_shown(tmp_path: Path, capsys) -> None:
    old = tmp_path / "old.md"
    new = tmp_path / "new.md"
    old.write_text(
        "# T\n\n1. Alpha clause stays the same.\n\n2. Beta pays in thirty days.\n", encoding="utf-8"
    )
    new.write_text(
        "# T\n\n1. Gamma is a new first clause about something else.\n\n2. Alpha clause stays the same.\n\n"
        "3. Beta pays in sixty days.\n",
        encoding="utf-8",
    )
    assert main(["compare", str(old), str(new), "--backend", "difflib"]) == 1
    out = capsys.readouterr().out
    assert "2 → 3, edited:" in out and "[-thirty-] {+sixty+}" in out
    assert "1 modified, 1 of them also renumbered (backend" in out.splitlines()[0]


def test_clip_cuts_at_a_word_and_marks_the_cut() -> None:
    text = "The Customer shall pay all fees within thirty days of the date of each invoice."
    clipped = clip(text, 30)
    assert clipped == "The Customer shall pay all…"
    assert len(clipped) <= 30 and text.startswith(clipped[:-1])
    assert clip("short text", 30) == "short text"


def test_long_diff_elides_unchanged_words_and_is_cut_with_markers_closed() -> None:
    before = " ".join(f"w{k}" for k in range(200))
    after = before.replace("w100", "CHANGED")
    shown = render_diff(word_segments(before, after))
    assert shown == "… w94 w95 w96 w97 w98 w99 [-w100-] {+CHANGED+} w101 w102 w103 w104 w105 w106 …"
    rewrite = render_diff(word_segments(before, " ".join(f"x{k}" for k in range(200))), width=60)
    assert rewrite.endswith("…") and len(rewrite) < 80
    assert rewrite.count("[-") == rewrite.count("-]") and rewrite.count("{+") == rewrite.count("+}")


def test_shared_path_says_the_common_steps_once() -> None:
    assert shared_path("§4 Payment › 4.5", "§4 Payment › 4.4") == "§4 Payment › 4.5 → 4.4"
    assert shared_path("§4 Payment", "§3 Payment") == "§4 Payment → §3 Payment"
    assert shared_path("§2 A › 2.1", "§3 B › 3.2") == "§2 A › 2.1 → §3 B › 3.2"


def test_paths_match_the_html_index() -> None:
    """The text names a block exactly as the redline's change index does (html/locate.py)."""
    new = read_document(NEW)
    assert Locator(new).locate("/section[1]/section[3]/list_item[2]") == "§3 Term › 3.2"
    assert isinstance(Change("move", None, None, None, None), tuple)


def test_version_names_the_engine_digest(capsys) -> None:
    from alignbench.alignment import engine_version, source_digest

    try:
        main(["--version"])
    except SystemExit as exit_:
        assert exit_.code == 0
    out = capsys.readouterr().out
    assert out.startswith("alignbench ") and f"engine {engine_version()}" in out
    assert source_digest() in out


def test_a_file_without_suffix_suggests_the_format_option(tmp_path: Path, capsys) -> None:
    bare = tmp_path / "contract"
    bare.write_text("# A\n\nText.\n", encoding="utf-8")
    assert main(["compare", str(bare), NEW]) == 2
    err = capsys.readouterr().err
    assert "--format markdown or --format text" in err and "format=" not in err
    assert main(["compare", str(bare), NEW, "--format", "markdown"]) == 1


def _help(*argv: str, capsys) -> str:
    with contextlib.suppress(SystemExit):
        main([*argv, "--help"])
    return capsys.readouterr().out


def test_help_is_written_for_a_user(capsys) -> None:
    for argv in ((), ("compare",), ("blocks",), ("label",), ("label", "export"), ("label", "check")):
        text = _help(*argv, capsys=capsys)
        assert text.startswith("usage: alignbench"), argv
        assert "``" not in text and ":class:" not in text and ":mod:" not in text, argv
        assert not re.search(r"\bseed \d{3}\b|\bissue \d+\b|sub-package|registration", text), (argv, text)


def test_the_readme_example_is_this_output(capsys) -> None:
    """README's "Comparing two versions" pastes this run's output; it must stay true."""
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    command = (
        "$ alignbench compare tests/textout_fixtures/old.md tests/textout_fixtures/new.md --backend difflib\n"
    )
    pasted = readme.split(command, 1)[1].split("```", 1)[0]
    assert _compare(capsys) == pasted
