"""No hidden differences (issue 33 item 1, issue 28 item 5): a drop is never silent, and a difference
in the bytes a reader consumed is never reported as "same".

Per class (docs/CONTRACTS.md, "What a reader drops"): in plain text an angle-bracket line is content,
so a changed placeholder is a modification of a block; in Markdown, HTML blocks, inline tags, images,
link targets, reference definitions, thematic breaks, fence info strings and front matter stay out of
the tree but are logged with their line and text, and a difference among them is a change of its own
kind (``dropped_changes``) that exits 1 and shows in the text, the JSON and the HTML page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from alignbench.cli import main
from alignbench.readers.drops import DropLog, dropped_changes, notes

PAIRS = {
    "html_block": (
        "# Fees\n\n<div>\nFee: $100\n</div>\n\nPay on time.\n",
        "# Fees\n\n<div>\nFee: $900\n</div>\n\nPay on time.\n",
    ),
    "html_table": (
        "# Fees\n\n<table><tr><td>Plan</td><td>$100</td></tr></table>\n\nPay on time.\n",
        "# Fees\n\n<table><tr><td>Plan</td><td>$900</td></tr></table>\n\nPay on time.\n",
    ),
    "link_target": (
        "# Use\n\nFollow the [policy](https://example.com/aup-v1).\n",
        "# Use\n\nFollow the [policy](https://evil.example/aup-v9).\n",
    ),
    "html_inline": ("# Fees\n\nThe fee is <AMOUNT> a month.\n", "# Fees\n\nThe fee is <TOTAL> a month.\n"),
    "link_reference": (
        "# Use\n\nFollow the [policy][p].\n\n[p]: https://example.com/v1\n",
        "# Use\n\nFollow the [policy][p].\n\n[p]: https://example.com/v2\n",
    ),
}


def _write(tmp_path: Path, old: str, new: str, suffix: str) -> tuple[str, str]:
    a, b = tmp_path / f"old{suffix}", tmp_path / f"new{suffix}"
    a.write_text(old, encoding="utf-8")
    b.write_text(new, encoding="utf-8")
    return str(a), str(b)


@pytest.mark.parametrize("case", sorted(PAIRS))
def test_a_difference_in_dropped_markdown_is_never_same(case: str, tmp_path: Path, capsys) -> None:
    old, new = _write(tmp_path, *PAIRS[case], ".md")
    assert main(["compare", old, new]) == 1
    captured = capsys.readouterr()
    assert "changed in dropped content" in captured.out.splitlines()[0]
    # (a reference link's use and its definition both name the changed target)
    expected = 2 if case == "link_reference" else 1
    assert f"Dropped content changed ({expected}):" in captured.out
    assert "note: " in captured.err and " dropped as " in captured.err
    assert main(["compare", old, new, "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert len(data["dropped_changes"]) == expected
    assert data["dropped_changes"][0]["source_digest"] != data["dropped_changes"][0]["test_digest"]
    assert data["dropped"]["source"] and data["dropped"]["test"]
    page = tmp_path / "redline.html"
    assert main(["compare", old, new, "--html", str(page)]) == 1
    html = page.read_text(encoding="utf-8")
    assert 'id="dropped-changes"' in html and 'id="drop-notes"' in html


@pytest.mark.parametrize("case", sorted(PAIRS))
def test_the_same_dropped_content_is_same(case: str, tmp_path: Path, capsys) -> None:
    old, _ = _write(tmp_path, PAIRS[case][0], PAIRS[case][0], ".md")
    assert main(["compare", old, old]) == 0
    assert "Dropped content changed" not in capsys.readouterr().out


def test_placeholders_in_text_are_compared_as_text(tmp_path: Path, capsys) -> None:
    old, new = _write(
        tmp_path,
        "Agreement between <Company A> and the Customer.\n\n<Company A>\n",
        "Agreement between <Company B> and the Customer.\n\n<Company B>\n",
        ".txt",
    )
    assert main(["compare", old, new]) == 1
    out = capsys.readouterr().out
    assert "2 modified" in out and "<Company [-A>-] {+B>+}" in out


def test_blocks_prints_one_note_per_dropped_kind(tmp_path: Path, capsys) -> None:
    path = tmp_path / "doc.md"
    lines = [
        "# Title",
        "",
        "Text.",
        "",
        "<!-- a comment -->",
        "",
        "More [text](https://example.com).",
        "",
        "---",
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")
    assert main(["blocks", str(path)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "note: 1 line dropped as hr at line 9",
        "note: 1 line dropped as html_block at line 5",
        "note: 1 item dropped as link_target at line 7",
    ]
    assert main(["blocks", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(d["kind"], d["line"]) for d in data["drops"]] == [
        ("html_block", 5),
        ("link_target", 7),
        ("hr", 9),
    ]


def test_a_document_of_dropped_content_only_exits_2(tmp_path: Path, capsys) -> None:
    path = tmp_path / "only.md"
    path.write_text("<div>\n$100\n</div>\n", encoding="utf-8")
    assert main(["blocks", str(path)]) == 2
    assert "only content the reader drops" in capsys.readouterr().err


def test_dropped_changes_pair_drops_by_position() -> None:
    old, new = DropLog(), DropLog()
    for log, texts in ((old, ["<a>", "<b>", "<c>"]), (new, ["<a>", "<x>", "<c>", "<d>"])):
        for number, text in enumerate(texts, start=1):
            log.note("html_block", number, text)
    changes = dropped_changes(old.log, new.log)
    assert [(c["kind"], c["source_text"], c["test_text"]) for c in changes] == [
        ("modify", "<b>", "<x>"),
        ("insert", None, "<d>"),
    ]
    assert dropped_changes(old.log, old.log) == []
    assert notes(old.log) == ["note: 3 lines dropped as html_block at lines 1, 2, 3"]
    inline = DropLog()
    for number in (4, 4, 9):
        inline.note("html_inline", number, "<b>")
    assert notes(inline.log, "a.md") == ["note: a.md: 3 items dropped as html_inline at lines 4, 9"]


@pytest.mark.parametrize("drops", [[{"kind": "hr", "line": "3", "text": "---"}], [5], "x", [{"kind": "hr"}]])
def test_a_tree_dict_with_malformed_drops_is_one_error(drops: object) -> None:
    from alignbench.blocks import BlockTree
    from alignbench.errors import AlignbenchError

    data = read_markdown_tree()
    data["drops"] = drops
    with pytest.raises(AlignbenchError, match="drops"):
        BlockTree.from_dict(data)


def read_markdown_tree() -> dict:
    from alignbench import read

    tree = read("# T\n\nText [x](https://example.com).\n", format="markdown")
    data = tree.to_dict()
    assert tree_round_trip(data) == data
    return data


def tree_round_trip(data: dict) -> dict:
    from alignbench.blocks import BlockTree

    return BlockTree.from_dict(data).to_dict()


def test_a_reflowed_html_block_is_the_same_drop() -> None:
    old, new = DropLog(), DropLog()
    old.note("html_block", 3, "<div>\nFee: $100\n</div>")
    new.note("html_block", 5, "<div>  Fee: $100\n\t</div>")
    assert dropped_changes(old.log, new.log) == []
