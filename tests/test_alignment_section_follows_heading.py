"""A section is its heading: when a section moves under a new heading, the move is reported once, on
its heading, and its paragraphs are not moves (the labelling rule's worked example 2)."""

from __future__ import annotations

from pathlib import Path

from alignbench import align, read

REAL = Path(__file__).resolve().parent.parent / "corpus" / "real"


def test_a_section_nested_under_a_new_heading_is_reparented_not_moved() -> None:
    # basecamp privacy policy, 2020-04-08: "Identity & access" now sits under the new "What we collect
    # and why", in the same place in reading order: a new wrapper heading moves nothing (issue #27).
    pair = REAL / "bc-privacy-2020-04-08a"
    result = align(read(pair / "source.md"), read(pair / "test.md"))
    moves = [(c.source, c.test) for c in result.changes if c.kind == "move"]
    assert not [m for m in moves if m[0].startswith("/section[1]/section[1]/")]
    heading = {p.source_path: p for p in result.pairs}["/section[1]/section[1]/heading[1]"]
    assert heading.test_path == "/section[1]/section[1]/section[1]/heading[1]"
    assert heading.reparented and not heading.moved


def test_a_section_moved_as_a_whole_is_still_reported_once() -> None:
    old = "# T\n\n## One\n\nFirst body text here.\n\n## Two\n\nSecond body text here.\n"
    new = "# T\n\n## Two\n\nSecond body text here.\n\n## One\n\nFirst body text here.\n"
    result = align(read(old, format="markdown"), read(new, format="markdown"))
    moves = [c for c in result.changes if c.kind == "move"]
    assert len(moves) == 1
