"""A section is its heading: when a section moves under a new heading, the move is reported once, on
its heading, and its paragraphs are not moves (the labelling rule's worked example 2)."""

from __future__ import annotations

from pathlib import Path

from alignbench import align, read

REAL = Path(__file__).resolve().parent.parent / "corpus" / "real"


def test_a_section_nested_under_a_new_heading_moves_once_on_its_heading() -> None:
    # basecamp privacy policy, 2020-04-08: "Identity & access" now sits under the new "What we collect
    # and why"; the engine paired the container with another section but the heading with its own.
    pair = REAL / "bc-privacy-2020-04-08a"
    result = align(read(pair / "source.md"), read(pair / "test.md"))
    moves = [(c.source, c.test) for c in result.changes if c.kind == "move"]
    assert ("/section[1]/section[1]/heading[1]", "/section[1]/section[1]/section[1]/heading[1]") in moves
    assert not [m for m in moves if m[0].startswith("/section[1]/section[1]/paragraph")]


def test_a_section_moved_as_a_whole_is_still_reported_once() -> None:
    old = "# T\n\n## One\n\nFirst body text here.\n\n## Two\n\nSecond body text here.\n"
    new = "# T\n\n## Two\n\nSecond body text here.\n\n## One\n\nFirst body text here.\n"
    result = align(read(old, format="markdown"), read(new, format="markdown"))
    moves = [c for c in result.changes if c.kind == "move"]
    assert len(moves) == 1
