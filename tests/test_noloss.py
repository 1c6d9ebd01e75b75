"""The no-loss invariant (issue 28): words in the blocks plus what ``dropped`` declares equal the words
of the document. The oracle's own behaviour first, then the invariant over every committed document."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from alignbench.noloss import BODY, account, block_words, document_words, words
from alignbench.readers import read

ROOT = Path(__file__).resolve().parent.parent


def test_words_are_runs_of_letters_and_digits() -> None:
    assert words("Section 2.1: the Customer's data_room — ____ ok") == Counter(
        {"Section": 1, "2": 1, "1": 1, "the": 1, "Customer": 1, "s": 1, "data": 1, "room": 1, "ok": 1}
    )


def test_markdown_words_are_what_the_page_renders() -> None:
    text = (
        "# Title\n\nSee [the policy](https://example.org/x)now, `code` and <b>bold</b>.\n\n![a logo](l.png)\n"
    )
    found = document_words(text, "markdown")
    assert found[BODY] == words("Title See the policynow code and bold")
    assert found["image"] == words("a logo")


def test_ordered_list_numbers_are_allowed_but_never_required() -> None:
    text = "1. First clause.\n1. Second clause.\n"
    assert "1" not in document_words(text, "markdown")[BODY]
    assert account(text, read(text, format="markdown")).ok


def test_a_dropped_html_block_is_no_loss_when_declared() -> None:
    text = "Intro paragraph.\n\n<div>\nHidden words\n</div>\n\nClosing paragraph.\n"
    tree = read(text, format="markdown")
    assert tree.dropped.get("html_block")
    assert account(text, tree).ok


def test_an_undeclared_missing_word_is_a_violation() -> None:
    text = "One clause here.\n\nAnother clause there.\n"
    shorter = read("One clause here.\n", format="markdown")  # a reader that lost the second paragraph
    result = account(text, shorter)
    assert not result.ok and result.missing == words("Another clause there")
    assert "3 word(s) lost" in result.describe()


def test_an_invented_word_is_a_violation() -> None:
    tree = read("Alpha beta.\n", format="text")
    result = account("Alpha.\n", tree)
    assert result.extra == Counter({"beta": 1}) and not result.ok


def test_a_declared_drop_of_a_kind_does_not_excuse_body_words() -> None:
    text = "Keep these words.\n\n<!-- a comment -->\n"
    tree = read(text, format="markdown")
    assert tree.dropped.get("html_block") and account(text, tree).ok
    assert block_words(tree) == words("Keep these words")


def _committed_documents() -> list[Path]:
    found = [*ROOT.glob("corpus/real/*/*.md"), *ROOT.glob("corpus/real/*/*.txt")]
    found += [*ROOT.glob("tests/outside/*/*.md"), *ROOT.glob("tests/outside/*/*.txt")]
    return sorted(found)


DOCS = _committed_documents()


def test_every_real_tier_and_outside_document_loses_no_word() -> None:
    assert len(DOCS) > 100
    bad = {}
    for path in DOCS:
        result = account(path.read_text(encoding="utf-8"), read(path))
        if not result.ok:
            bad[str(path.relative_to(ROOT))] = result.describe(3)
    assert bad == {}


@pytest.mark.parametrize("kind", ["markdown", "text"])
def test_front_matter_words_may_go_only_when_declared(kind: str) -> None:
    text = "---\ntitle: Secret Title\n---\n\nBody text.\n"
    tree = read(text, format=kind)
    assert tree.dropped.get("front_matter") == 1
    assert account(text, tree).ok
