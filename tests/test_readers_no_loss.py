"""No loss (issue 28): the words in the blocks plus the words of what the reader declares it dropped
are the words of the document, as multisets, for every document in corpus/ and tests/outside/.

A word is a run of letters and digits. Markup is not a word: Markdown's ordered-list numbers are
the rendered labels (``1.`` ``1.`` -> 1, 2), so list markers are left out of the document's words
and list-item labels out of the tree's; HTML entities are compared decoded.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import Path

import pytest

from alignbench import read
from alignbench.blocks import BlockTree

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted(
    p
    for base in ("corpus/real", "corpus/stress", "tests/outside", "tests/reader_fixtures")
    for p in (ROOT / base).rglob("*")
    if p.suffix in (".md", ".txt") and p.name not in ("NOTICE.md", "README.md")
)
_WORD = re.compile(r"[^\W_]+")
# An ordered-list marker at the start of a line, after any indentation, quote marks or bullets.
_ORDERED_MARKER = re.compile(r"(?m)^(?:[ \t]*(?:>|[-*+])[ \t]?)*[ \t]*[0-9]{1,9}[.)](?=[ \t]|$)")
# The name of a full reference link (`[text][name]`, `name` defined) is markup: the page shows `text`.
_REFERENCE_NAME = re.compile(r"\]\[([^\]\n]+)\]")
_DEFINITION = re.compile(r"(?m)^ {0,3}\[([^\]\n]+)\]:")


def words(text: str) -> Counter[str]:
    return Counter(w.casefold() for w in _WORD.findall(text))


def tree_words(tree: BlockTree, *, markdown: bool) -> Counter[str]:
    total: Counter[str] = Counter()
    for block in tree.blocks():
        total += words(block.text)
        if block.label and not (markdown and block.kind == "list_item" and block.label.isdigit()):
            total += words(block.label)
    for kind, _, text in tree.drops:
        if kind != "link_reference_use":  # its words are its definition's (`link_reference`)
            total += words(text)
    return total


# A lone `o` opening a line is a typed bullet (a list marker, like `-`): markup, not a word.
_O_BULLET = re.compile(r"(?m)^[ \t]*o(?=[ \t])")


def document_words(text: str, *, markdown: bool) -> Counter[str]:
    text = _O_BULLET.sub(" ", text)
    if markdown:
        defined = {name.casefold() for name in _DEFINITION.findall(text)}
        text = _REFERENCE_NAME.sub(lambda m: "] " if m.group(1).casefold() in defined else m.group(0), text)
        text = html.unescape(_ORDERED_MARKER.sub(" ", text))
    return words(text)


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_word_is_lost_or_made_up(path: Path) -> None:
    markdown = path.suffix == ".md"
    tree = read(path)
    text = path.read_text(encoding="utf-8")
    expected, got = document_words(text, markdown=markdown), tree_words(tree, markdown=markdown)
    if markdown:
        # A Markdown list item's label is its rendered number, which the marker no longer shows; the
        # digits of a labelled item are compared apart of the count (only whole-number words).
        expected = Counter({w: n for w, n in expected.items() if not w.isdigit()})
        got = Counter({w: n for w, n in got.items() if not w.isdigit()})
    lost, extra = expected - got, got - expected
    if lost or extra:
        # Markup may join two words into one (`**G**lobally`, `Ireland<br>Automattic`): then the same
        # letters and digits are all there, only the word boundary moved.
        lost_chars = Counter("".join(w * n for w, n in lost.items()))
        extra_chars = Counter("".join(w * n for w, n in extra.items()))
        assert lost_chars == extra_chars, (
            f"lost {dict(lost.most_common(8))}, made up {dict(extra.most_common(8))}"
        )
