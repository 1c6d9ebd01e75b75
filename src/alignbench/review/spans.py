"""Character spans of labelled blocks in the prepared document, for span-anchored interchange (seed 002).

The readers do not record where a block came from (``Block`` has no offsets), and this module must not
change them, so spans are *located* after the fact, deterministically:

* The document is the prepared file decoded as UTF-8; offsets are Python ``str`` indices (Unicode code
  points, end-exclusive). A workbench that counts UTF-16 code units differs on characters outside the
  Basic Multilingual Plane; :func:`locate_spans` says so by raising when the document has any.
* Text blocks (heading, paragraph, list_item, cell) are visited in document order with a cursor that
  only moves forward. A block's words (``\\w+`` runs of its label, then of its normalised text) are
  found one after another as whole words, each within :data:`MAX_GAP` characters of the previous one,
  so inline markup (``**``, link targets, escapes, line wraps) may sit between them. When a word is
  not found close enough, the search restarts one occurrence of the first word later.
* The span runs from the first word's first character to the last word's last character, so it covers
  the label and any inline markup, but not list markers or ``#`` before the label. A row's span covers
  its cells. A block without any word (an empty cell) gets the empty span at the cursor.

Limits: a block whose words were rewritten by the reader (entity decoding that creates word
characters, reordered text) cannot be located and is reported by address; a word sequence that occurs
twice resolves to the first occurrence after the previous block, which is the reading order the
readers follow. Import therefore never trusts offsets alone: it recomputes the spans and requires the
offsets and the exact text to match.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from alignbench.blocks import LABELLED_KINDS, TEXT_KINDS, Block, BlockTree
from alignbench.errors import AlignbenchError

MAX_GAP = 400
# Letters and digits only: Markdown emphasis (`_might_`, `__Note__`) glues underscores to words that
# the readers' text carries bare, so an underscore must not count as part of a word.
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Span:
    start: int
    end: int


def _is_word(ch: str) -> bool:
    return ch.isalnum()


def _find_word(document: str, word: str, start: int, limit: int) -> int:
    """Index of the first whole-word ``word`` in ``document[start:limit]``, or -1 (str.find, no regex)."""
    at = document.find(word, start, limit)
    while at != -1:
        end = at + len(word)
        before_ok = at == 0 or not _is_word(document[at - 1])
        if before_ok and (end == len(document) or not _is_word(document[end])):
            return at
        at = document.find(word, at + 1, limit)
    return -1


def _find_glued(document: str, word: str, start: int, limit: int) -> int:
    """End of ``word`` written in two parts with markup between (``Service](/url)or``), or -1.

    The readers join an inline link's text to the word that follows it when the source has no space
    there, so the block holds ``Serviceor`` where the document has two words split by markup.
    """
    for cut in range(1, len(word)):
        head, tail = word[:cut], word[cut:]
        at = _find_word_start(document, head, start, limit)
        while at != -1:
            after = at + len(head)
            if after < len(document) and not _is_word(document[after]):
                found = _find_word_end(document, tail, after, min(len(document), after + MAX_GAP))
                if found != -1:
                    return found + len(tail)
            at = _find_word_start(document, head, at + 1, limit)
    return -1


def _find_word_start(document: str, part: str, start: int, limit: int) -> int:
    at = document.find(part, start, limit)
    while at != -1 and at > 0 and _is_word(document[at - 1]):
        at = document.find(part, at + 1, limit)
    return at


def _find_word_end(document: str, part: str, start: int, limit: int) -> int:
    at = document.find(part, start, limit)
    while at != -1:
        end = at + len(part)
        if not _is_word(document[at - 1]) and (end == len(document) or not _is_word(document[end])):
            return at
        at = document.find(part, at + 1, limit)
    return -1


def _words(block: Block) -> list[str]:
    return _WORD.findall(block.label or "") + _WORD.findall(block.text)


class _WordRuns:
    """The document's words (maximal letter-and-digit runs) with their offsets, read once per document.

    A whole-word occurrence is exactly such a run, so a block whose words follow one another in the
    document with only non-word characters between them (spaces, punctuation, emphasis markers: the
    common case) is found with one slice comparison of the runs, where the word-by-word search makes a
    ``str.find`` loop per word. The runs are read at C speed (``findall``, one ``span`` per match).
    """

    def __init__(self, document: str) -> None:
        self.document = document
        self.words = _WORD.findall(document)
        spans = [m.span() for m in _WORD.finditer(document)]
        self.starts = [start for start, _ in spans]
        self.ends = [end for _, end in spans]

    def first_try(self, words: list[str], cursor: int) -> Span | None:
        """The span :func:`_find_sequence` returns when its first attempt succeeds, else None.

        That attempt starts at the first whole-word occurrence of ``words[0]`` at or after ``cursor``
        and takes, for each next word, its first whole-word occurrence after the previous one, which
        must start within ``MAX_GAP`` characters of the previous word's end (a word glued to the next
        by the reader is left to the full search)."""
        document = self.document
        size = len(document)
        at = _find_word(document, words[0], cursor, size)
        if at == -1:
            return None
        i = bisect_left(self.starts, at)  # the run that occurrence is
        n = len(words)
        if self.words[i : i + n] == words:  # one unbroken run of the block's words
            starts, ends = self.starts, self.ends
            for j in range(i + 1, i + n):
                if starts[j] - ends[j - 1] > MAX_GAP:
                    return None
            return Span(at, ends[i + n - 1])
        end = at + len(words[0])
        for word in words[1:]:
            found = _find_word(document, word, end, min(size, end + MAX_GAP + len(word)))
            if found == -1:
                return None
            end = found + len(word)
        return Span(at, end)


def _find_sequence(document: str, words: list[str], cursor: int) -> Span | None:
    """First whole-word occurrence of ``words`` in order at or after ``cursor``, gaps <= MAX_GAP."""
    size = len(document)
    attempt = _find_word(document, words[0], cursor, size)
    while attempt != -1:
        end = attempt + len(words[0])
        for word in words[1:]:
            limit = min(size, end + MAX_GAP + len(word))
            found = _find_word(document, word, end, limit)
            if found != -1:
                end = found + len(word)
                continue
            glued = _find_glued(document, word, end, limit)
            if glued == -1:
                break
            end = glued
        else:
            return Span(attempt, end)
        attempt = _find_word(document, words[0], attempt + 1, size)
    return None


def locate_spans(document: str, tree: BlockTree, where: str) -> dict[str, Span]:
    """Address -> span for every labelled block of ``tree`` in ``document``; one error names every miss."""
    if not document.isascii() and max(document) > "\uffff":
        raise AlignbenchError(
            f"{where}: has characters outside the Basic Multilingual Plane, where code-point and UTF-16 "
            "offsets differ; span export supports BMP-only documents"
        )
    spans: dict[str, Span] = {}
    missing: list[str] = []
    cursor = 0
    rows: list[Block] = []
    runs = _WordRuns(document)
    for block in tree.blocks():
        if block.kind == "row":
            rows.append(block)
            continue
        if block.kind not in TEXT_KINDS:
            continue
        words = _words(block)
        if not words:
            spans[block.address] = Span(cursor, cursor)
            continue
        span = runs.first_try(words, cursor) or _find_sequence(document, words, cursor)
        if span is None:
            missing.append(block.address)
            continue
        spans[block.address] = span
        cursor = span.end
    for row in rows:
        cells = [spans[c.address] for c in row.children if c.kind == "cell" and c.address in spans]
        if len(cells) != sum(1 for c in row.children if c.kind == "cell") or not cells:
            missing.append(row.address)
            continue
        spans[row.address] = Span(min(c.start for c in cells), max(c.end for c in cells))
    if missing:
        shown = ", ".join(missing[:10]) + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
        raise AlignbenchError(
            f"{where}: cannot locate {len(missing)} block(s) in the document text ({shown}); the reader "
            "changed their words, so they have no exact character span"
        )
    return {address: spans[address] for address in _labelled_addresses(tree)}


def _labelled_addresses(tree: BlockTree) -> list[str]:
    return [b.address for b in tree.blocks() if b.kind in LABELLED_KINDS]
