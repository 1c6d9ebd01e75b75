"""No silent loss: every word of a document is in a block or in a construct the reader declared dropped.

Issue 28's invariant: the multiset of words in the blocks plus what ``BlockTree.dropped`` declares
equals the multiset of words in the document. A *word* is a run of letters and digits. The
document's words are found here without the reader's rules, so a reader bug cannot hide in both:

- plain text: every word of the file;
- Markdown: every word markdown-it renders (inline text and code, code blocks, table cells; an inline
  tag or link renders as nothing, so ``[Policy](url)via`` is the one word ``Policyvia``); link
  destinations, tag names and reference definitions render as nothing and are not words. The number
  an ordered-list item renders as is list markup, like a bullet: a reader may keep it as the label
  (``list_marker`` words are allowed in the blocks, never required).

Words that sit in a construct a reader may drop are filed under that construct's name (``front_matter``,
``html_block``, ``image``). They may be missing from the blocks only when ``dropped`` names that
construct; otherwise they are content like any other word. A word in the blocks that the document does
not hold (a reader that invents or duplicates text) is a violation too.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from alignbench.blocks import TEXT_KINDS, BlockTree

BODY = "body"
LIST_MARKER = "list_marker"  # allowed in the blocks, never required: see the module docstring
_WORD = re.compile(r"[^\W_]+")  # letters and digits; `_` draws signature blanks
_TAG = re.compile(r"<[^>]*>")
_FRONT_MATTER = re.compile(r"\A(---|\+\+\+)[ \t]*\n(.*?\n)?\1[ \t]*(\n|\Z)", re.DOTALL)
_LINE_TAG = re.compile(r"<[^<>]*>")
_BREAK_TAG = re.compile(r"<br\b", re.IGNORECASE)


def words(text: str) -> Counter[str]:
    """The multiset of runs of letters and digits in ``text``."""
    return Counter(_WORD.findall(text))


@dataclass(frozen=True)
class WordAccount:
    """What the blocks lose (``missing``) and what they hold that the document does not (``extra``)."""

    missing: Counter[str]
    extra: Counter[str]
    document_words: int
    block_words: int

    @property
    def ok(self) -> bool:
        return not self.missing and not self.extra

    def describe(self, limit: int = 8) -> str:
        """One line for a failure message: the first few missing and extra words, by count then word."""

        def top(counter: Counter[str]) -> str:
            ranked = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
            return ", ".join(f"{w!r}x{n}" for w, n in ranked) or "none"

        return (
            f"{sum(self.missing.values())} word(s) lost ({top(self.missing)}); "
            f"{sum(self.extra.values())} word(s) invented ({top(self.extra)})"
        )


def document_words(text: str, format: str) -> dict[str, Counter[str]]:
    """The document's words by construct: ``body`` for content, else the droppable construct's name."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    out: dict[str, Counter[str]] = {BODY: Counter()}
    front = _FRONT_MATTER.match(text)
    if front is not None:
        out["front_matter"] = words(front.group(0))
        text = text[front.end() :]
    if format == "markdown":
        _markdown_words(text, out)
    else:
        _text_words(text, out)
    return out


def block_words(tree: BlockTree) -> Counter[str]:
    """Every word of every text block's label and text."""
    total: Counter[str] = Counter()
    for block in tree.blocks():
        if block.kind in TEXT_KINDS:
            if block.label:
                total.update(_WORD.findall(block.label))
            total.update(_WORD.findall(block.text))
    return total


def account(text: str, tree: BlockTree) -> WordAccount:
    """Compare the document's words with the tree's; see the module docstring for the rule."""
    by_construct = document_words(text, tree.format)
    declared = {name for name, count in (tree.dropped or {}).items() if count}
    required: Counter[str] = Counter()
    droppable: Counter[str] = Counter()
    for name, counter in by_construct.items():
        optional = name == LIST_MARKER or (name != BODY and name in declared)
        (droppable if optional else required).update(counter)
    held = block_words(tree)
    missing = required - held
    extra = held - (required + droppable)
    return WordAccount(missing, extra, sum(required.values()), sum(held.values()))


def _text_words(text: str, out: dict[str, Counter[str]]) -> None:
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("<") and stripped.endswith(">") and _LINE_TAG.fullmatch(stripped):
            out.setdefault("html_block", Counter()).update(_WORD.findall(stripped))
        else:
            out[BODY].update(_WORD.findall(line))


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True}).enable("table")


def _markdown_words(text: str, out: dict[str, Counter[str]]) -> None:
    body = out[BODY]
    numbers: list[int] = []  # per open list: the next rendered number, -1 for a bullet list
    for token in _parser().parse(text):
        kind = token.type
        if kind == "ordered_list_open":
            start = token.attrGet("start")
            numbers.append(int(start) if start is not None else 1)
        elif kind == "bullet_list_open":
            numbers.append(-1)
        elif kind in ("ordered_list_close", "bullet_list_close"):
            numbers.pop()
        elif kind == "list_item_open" and numbers and numbers[-1] >= 0:
            out.setdefault(LIST_MARKER, Counter()).update([str(numbers[-1])])
            numbers[-1] += 1
        elif kind == "inline":
            _inline_words(token.children or [], out)
        elif kind in ("code_block", "fence"):
            body.update(_WORD.findall(token.content))
        elif kind == "html_block":
            out.setdefault("html_block", Counter()).update(_WORD.findall(_TAG.sub(" ", token.content)))


def _renders_as_space(token: Token) -> bool:
    if token.type in ("softbreak", "hardbreak"):
        return True
    return token.type == "html_inline" and _BREAK_TAG.match(token.content) is not None


def _inline_words(children: list[Token], out: dict[str, Counter[str]]) -> None:
    """Words of one inline run as it renders: markup tokens render as nothing (so words either side of
    a link or an emphasis join), line breaks and ``<br>`` as a space, an image as its alt text."""
    parts: list[str] = []
    for child in children:
        if child.type in ("text", "text_special", "code_inline"):
            parts.append(child.content)
        elif _renders_as_space(child):
            parts.append(" ")
        elif child.type == "image":
            alt = "".join(c.content for c in child.children or [])
            out.setdefault("image", Counter()).update(_WORD.findall(alt))
            parts.append(" ")
    out[BODY].update(_WORD.findall("".join(parts)))
