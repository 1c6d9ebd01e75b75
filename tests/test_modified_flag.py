"""An edit inside a moved, renumbered or reparented clause is never hidden by its kind (issue #29 class 7).

Each case goes through the three outputs a reader meets: the JSON (``modified`` on the change, the
summary's counts), ``compare``'s text (the word diff, the first line's counts) and the redline page
(the index says "edited", the counts include it). A straight-to-curly apostrophe is an edit;
whitespace, which the engine normalises, is not; a renumber alone is not.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from alignbench import align, read
from alignbench.alignment import AlignmentConfig
from alignbench.cli import main
from alignbench.engines.isolation import validation_error
from alignbench.html import render_redline
from alignbench.textout import render

RENUMBERED_AND_EDITED = (
    "# T\n\n## 8. Terms\n\n8.1 Alpha clause stays exactly the same here.\n\n"
    "8.2 The supplier shall pay within thirty days of the invoice.\n\n"
    "8.3 Notices go by post to the registered office.\n",
    "# T\n\n## 8. Terms\n\n8.1 Alpha clause stays exactly the same here.\n\n"
    "8.2 A brand new clause about insurance cover and premiums.\n\n"
    "8.3 The supplier shall pay within sixty days of the invoice.\n\n"
    "8.4 Notices go by post to the registered office.\n",
)
MOVED_AND_EDITED = (
    "# T\n\n## 1. Fees\n\n1.1 Fees are due monthly in advance by bank transfer.\n\n"
    "1.2 Late fees accrue at two percent per month on overdue sums.\n\n"
    "## 2. Term\n\n2.1 This agreement runs for one year from signature.\n\n"
    "2.2 Either party may end it on ninety days notice in writing.\n",
    "# T\n\n## 1. Fees\n\n1.1 Fees are due monthly in advance by bank transfer.\n\n"
    "## 2. Term\n\n2.1 This agreement runs for one year from signature.\n\n"
    "2.2 Either party may end it on ninety days notice in writing.\n\n"
    "2.3 Late fees accrue at three percent per month on overdue sums.\n",
)
# A heading inserted above two paragraphs: both keep their place in reading order (reparented, not
# moved), and the second was edited.
REPARENTED_AND_EDITED = (
    "# T\n\nThe first paragraph stays where it is in the document.\n\n"
    "The supplier shall pay within thirty days of the invoice date.\n",
    "# T\n\n## Payment\n\nThe first paragraph stays where it is in the document.\n\n"
    "The supplier shall pay within sixty days of the invoice date.\n",
)
# Clause 1 gains a curly apostrophe (and only that) and becomes 2; clause 2 becomes 3 with its
# words unchanged, re-wrapped and with a double space: whitespace, not an edit.
CURLY_ONLY = (
    "# T\n\n1. The Customer's fees are due monthly.\n\n2. Notices go by post to the registered office.\n",
    "# T\n\n1. A new first clause about insurance and its premiums.\n\n"
    "2. The Customer\u2019s fees are due monthly.\n\n3. Notices go by post  to the registered\noffice.\n",
)


def _files(tmp_path: Path, pair: tuple[str, str]) -> tuple[str, str]:
    old, new = tmp_path / "old.md", tmp_path / "new.md"
    old.write_text(pair[0], encoding="utf-8")
    new.write_text(pair[1], encoding="utf-8")
    return str(old), str(new)


def _outputs(tmp_path: Path, pair: tuple[str, str], capsys) -> tuple[dict, str, str]:
    """The JSON, the text summary and the redline page of one ``compare`` each."""
    old, new = _files(tmp_path, pair)
    page = tmp_path / "redline.html"
    assert main(["compare", old, new, "--backend", "difflib", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert main(["compare", old, new, "--backend", "difflib"]) == 1
    text = capsys.readouterr().out
    assert main(["compare", old, new, "--backend", "difflib", "--html", str(page)]) == 1
    capsys.readouterr()
    return data, text, page.read_text(encoding="utf-8")


def _change(data: dict, kind: str, source_label: str | None = None) -> dict:
    (found,) = [
        c
        for c in data["changes"]
        if c["kind"] == kind and (source_label is None or c["source_label"] == source_label)
    ]
    return found


def _index_entry(page: str, change: dict) -> str:
    """The change index's ``<li>`` for ``change`` (matched by its addresses), as text without tags."""
    for item in re.findall(r'<li class="ci [^"]*".*?</li>', page, re.S):
        source, test = f'data-source="{change["source"] or ""}"', f'data-test="{change["test"] or ""}"'
        if source in item and test in item:
            return " ".join(re.sub(r"<[^>]+>", "", item).split())
    raise AssertionError(f"no index entry for {change['source']} -> {change['test']}")


def _count(page: str, kind: str) -> int:
    return int(re.search(rf'data-count-kind="{kind}"[^>]*><b>(\d+)</b>', page).group(1))


def test_a_renumbered_clause_that_was_edited_is_modified_everywhere(tmp_path, capsys):
    data, text, page = _outputs(tmp_path, RENUMBERED_AND_EDITED, capsys)
    edited = _change(data, "renumber", "8.2")
    assert (edited["test_label"], edited["modified"]) == ("8.3", True)
    assert _change(data, "renumber", "8.3")["modified"] is False  # renumbered only
    summary = data["summary"]
    assert summary["kinds"]["modify"] == 0 and summary["modified"] == 1
    assert (summary["modified_renumbered"], summary["modified_moved"]) == (1, 0)

    first = text.splitlines()[0]
    assert "2 renumbered, 1 inserted, 0 deleted, 1 modified, 1 of them also renumbered (" in first
    renumbered = text.split("Renumbered:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert renumbered[0] == "  8. Terms › 8.2 → 8.3, edited:"
    assert renumbered[1] == "      The supplier shall pay within [-thirty-] {+sixty+} days of the invoice."
    assert renumbered[2] == "  8. Terms › 8.3 → 8.4"  # no edit, no diff line

    assert _index_entry(page, edited) == "# renumbered 8. Terms › 8.3: 8.2 → 8.3, edited"
    assert _index_entry(page, _change(data, "renumber", "8.3")) == "# renumbered 8. Terms › 8.4: 8.3 → 8.4"
    assert _count(page, "modified") == 1 and "(1 also renumbered)" in page
    assert 'data-kind="renumber" data-modified="true"' in page


def test_a_moved_clause_that_was_edited_is_modified_everywhere(tmp_path, capsys):
    data, text, page = _outputs(tmp_path, MOVED_AND_EDITED, capsys)
    move = _change(data, "move")
    assert (move["source_label"], move["test_label"], move["modified"]) == ("1.2", "2.3", True)
    assert data["summary"]["modified"] == data["summary"]["modified_moved"] == 1
    assert "0 deleted, 1 modified, 1 of them also moved (" in text.splitlines()[0]
    moved = text.split("Moved:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert moved == [
        "  §1 Fees › 1.2 → §2 Term › 2.3, edited:",
        "      Late fees accrue at [-two-] {+three+} percent per month on overdue sums.",
    ]
    entry = _index_entry(page, move)
    assert entry == "⇄ moved §1 Fees › 1.2 → §2 Term › 2.3 (1.2 → 2.3), edited"
    assert _count(page, "modified") == 1 and "(1 also moved)" in page


def test_a_reparented_clause_that_was_edited_is_a_modification(tmp_path, capsys):
    data, text, page = _outputs(tmp_path, REPARENTED_AND_EDITED, capsys)
    reparented = [p for p in data["pairs"] if p["reparented"]]
    assert len(reparented) == 2
    edited = _change(data, "modify")
    assert edited["modified"] is True and edited["source"] == reparented[1]["source"]
    assert (data["summary"]["modified"], data["summary"]["reparented"]) == (1, 2)
    assert "1 modified, 2 reparented (" in text.splitlines()[0]
    assert "pay within [-thirty-] {+sixty+} days" in text.split("Modified:\n", 1)[1]
    assert _index_entry(page, edited).startswith("~ modified ")
    assert ", edited" not in _index_entry(page, edited)  # the kind already says it
    assert _count(page, "modified") == 1 and _count(page, "reparented") == 2


def test_a_curly_apostrophe_alone_is_an_edit_and_whitespace_is_not(tmp_path, capsys):
    data, text, page = _outputs(tmp_path, CURLY_ONLY, capsys)
    curly, rewrapped = _change(data, "renumber", "1"), _change(data, "renumber", "2")
    assert curly["modified"] is True
    assert rewrapped["modified"] is False
    assert data["summary"]["modified"] == data["summary"]["modified_renumbered"] == 1
    assert "1 The Customer's fees" in curly["source_text"] and "Customer\u2019s" in curly["test_text"]
    renumbered = text.split("Renumbered:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert renumbered == [
        "  1 → 2, edited:",
        "      The [-Customer's-] {+Customer\u2019s+} fees are due monthly.",
        "  2 → 3",
    ]
    assert _index_entry(page, curly).endswith(", edited")
    assert not _index_entry(page, rewrapped).endswith(", edited")


def test_a_renumber_without_an_edit_is_not_modified(tmp_path, capsys):
    old = "# T\n\n1. Alpha clause text.\n\n2. Beta pays in thirty days.\n"
    new = "# T\n\n1. Gamma is new.\n\n2. Alpha clause text.\n\n3. Beta pays in thirty days.\n"
    data, text, page = _outputs(tmp_path, (old, new), capsys)
    renumbers = [c for c in data["changes"] if c["kind"] == "renumber"]
    assert len(renumbers) == 2 and not any(c["modified"] for c in renumbers)
    assert data["summary"]["modified"] == 0
    assert "0 modified (" in text.splitlines()[0] and "edited" not in text
    assert ", edited" not in page and _count(page, "modified") == 0
    assert 'data-modified="true"' not in page


def test_a_label_gained_is_a_modification_with_an_unchanged_text():
    old = read("# T\n\n- Alpha clause text.\n", format="markdown")
    new = read("# T\n\n1. Alpha clause text.\n", format="markdown")
    result = align(old, new, AlignmentConfig(similarity="difflib"))
    (change,) = result.changes
    assert (change.kind, change.modified) == ("modify", True)
    assert (change.source_label, change.test_label) == (None, "1")
    assert "[label (no label) → 1]: Alpha clause text." in render(result, old, new)


@pytest.mark.parametrize("pair", [RENUMBERED_AND_EDITED, MOVED_AND_EDITED, REPARENTED_AND_EDITED, CURLY_ONLY])
def test_the_three_outputs_count_from_one_summary(pair):
    old, new = read(pair[0], format="markdown"), read(pair[1], format="markdown")
    result = align(old, new, AlignmentConfig(similarity="difflib"))
    summary = result.to_dict()["summary"]
    assert summary["modified"] == sum(c.modified for c in result.changes)
    assert summary["modified_moved"] == sum(c.modified and c.kind == "move" for c in result.changes)
    assert summary["kinds"] == {k: sum(c.kind == k for c in result.changes) for k in summary["kinds"]}
    first = render(result, old, new).splitlines()[0]
    assert f"{summary['kinds']['renumber']} renumbered" in first
    assert f"{summary['modified']} modified" in first
    assert _count(render_redline(result, old, new), "modified") == summary["modified"]


def test_the_schema_reads_v2_and_still_reads_v1():
    old, new = read(MOVED_AND_EDITED[0], format="markdown"), read(MOVED_AND_EDITED[1], format="markdown")
    v2 = align(old, new, AlignmentConfig(similarity="difflib")).to_dict()
    assert v2["schema"] == "alignbench/alignment/v2"
    assert validation_error(v2, "v2") is None
    v1 = copy.deepcopy(v2)  # what a third-party engine, the floor and the peers write
    for key in ("schema", "summary"):
        del v1[key]
    for change in v1["changes"]:
        del change["modified"]
    assert validation_error(v1, "v1") is None
    hidden = copy.deepcopy(v2)
    hidden["changes"].append({"kind": "modify", "source": "/a", "test": "/b", "modified": False})
    assert "modified" in (validation_error(hidden, "x") or "")
    inserted = copy.deepcopy(v2)
    inserted["changes"].append({"kind": "insert", "source": None, "test": "/b", "modified": True})
    assert "modified" in (validation_error(inserted, "x") or "")
    wrong = dict(v2, schema="alignbench/alignment/v9")
    assert "schema" in (validation_error(wrong, "x") or "")


def test_an_invisible_edit_inside_a_renumbered_clause_is_flagged_as_one(tmp_path, capsys):
    old = "# T\n\n1. The fees are due monthly.\n"
    new = "# T\n\n1. A new first clause about insurance and premiums.\n\n2. The fees are\u200b due monthly.\n"
    data, text, page = _outputs(tmp_path, (old, new), capsys)
    assert _change(data, "renumber", "1")["modified"] is True
    renumbered = text.split("Renumbered:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert renumbered[0] == "  1 → 2, edited:"
    assert renumbered[1].endswith("  [invisible characters only]") and "⟨U+200B⟩" in renumbered[1]
    assert "invisible characters only" in page
