"""The contract label grammar: recognise a clause label at the start of a block's text.

A match keeps the label as written (trimmed, one trailing full stop removed) and the text after it,
plus the *style* of the numbering (``decimal:2``, ``enclosed:lower:alpha`` ...) that the nesting
builder uses to decide sibling versus child. ``(i)`` and ``I.`` are genuinely ambiguous between a
letter and a roman numeral, so such a match carries both candidates; the builder resolves them from
the numbering already open. A match is only a *candidate*: :func:`continues_a_sequence` (applied by
the builder over the whole document) turns a label that starts or continues no sequence back into
text, so ``88 Colin P. Kelly Jr. St.`` is an address, not clause 88.
"""

from __future__ import annotations

import re
from collections.abc import Set
from functools import lru_cache
from typing import Any, NamedTuple

from alignbench.readers.profiles import Profile, get_profile

_ROMAN = re.compile(r"M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})", re.IGNORECASE)
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
# `Section 5 - Fees`, `Part 2: Scope`, and the bill style `TITLE I--GENERAL` where the dash abuts.
_SEPARATOR = re.compile(r"\s*(?:(?:--|[–—])\s*|[-:]\s+)?")
_LEADING_DIGITS = re.compile(r"[0-9]+")
# Label kinds whose candidates must start or continue a sequence; word and `§` labels name
# themselves (a bill's `SEC. 101.` opens title I with no section 100), and bullets carry no number.
SEQUENCE_KINDS: frozenset[str] = frozenset({"decimal", "enclosed", "dotted", "closed"})


class Style(NamedTuple):
    """One numbering style and the position of a label in it (``(c)`` is ``enclosed:lower:alpha`` #3).

    A named tuple, so a style is its own ``(key, ordinal)`` entry in the set of a document's
    numbering (:func:`continues_a_sequence`): no tuple is built per label to look it up or add it."""

    key: str
    ordinal: int


class LabelMatch(NamedTuple):
    """A label read at the start of a text. A named tuple: immutable (matches are cached and shared)
    and built at C speed, where a frozen dataclass set each of its nine fields through a call."""

    label: str
    kind: str
    candidates: tuple[Style, ...]
    rest: str
    word: str | None = None  # a word label's word after ``word_aliases`` (``SEC.`` -> ``section``)
    raw_word: str | None = None  # the same word as written, lower-cased (``sec.``)
    # Components of a decimal or ``§`` label (``1.2.3`` -> 3); 0 for other kinds. Stored, not derived,
    # because the tree builder asks for it several times per clause.
    decimal_depth: int = 0
    text: str = ""  # the whole text the label was read from, so a rejected candidate becomes text again
    # False for a word label with no full stop or colon after its number: a label in a heading only.
    terminated: bool = True

    @property
    def is_bullet(self) -> bool:
        """A bullet (``-``, ``*``, ``+``, ``•``) marks an item but labels nothing a reader could cite."""
        return self.kind == "bullet"

    @property
    def block_label(self) -> str | None:
        """The label a block carries: the label as written, or ``None`` for a bullet."""
        return None if self.kind == "bullet" else self.label


def bullet_match(marker: str, rest: str) -> LabelMatch:
    """The match of a Markdown bullet list marker: an item with a numbering style and no label."""
    return LabelMatch(marker, "bullet", (Style(f"bullet:{marker}", 0),), rest, text=rest)


def rendered_number(number: int, rest: str) -> LabelMatch:
    """The match of an ordered-list item: the number a reader of the rendered list sees."""
    label = str(number)
    return LabelMatch(label, "decimal", (Style("decimal:1", number),), rest, decimal_depth=1, text=rest)


def roman_value(token: str) -> int | None:
    if not token or _ROMAN.fullmatch(token) is None:
        return None
    total = 0
    values = [_ROMAN_VALUES[ch] for ch in token.upper()]
    for index, value in enumerate(values):
        nxt = values[index + 1] if index + 1 < len(values) else 0
        total += -value if value < nxt else value
    return total


def alpha_value(token: str) -> int | None:
    """``a`` -> 1 ... ``z`` -> 26, ``aa`` -> 27 (doubled letters continue the sequence)."""
    if len(token) == 1 and token.isalpha() and token.isascii():
        return ord(token.lower()) - 96
    if len(token) == 2 and token[0] == token[1] and token.isalpha() and token.isascii():
        return 26 + ord(token.lower()[0]) - 96
    return None


def _letter_styles(prefix: str, token: str) -> tuple[Style, ...]:
    case = "upper" if token.isupper() else "lower"
    styles = []
    alpha = alpha_value(token)
    if alpha is not None:
        styles.append(Style(f"{prefix}:{case}:alpha", alpha))
    roman = roman_value(token)
    if roman is not None:
        styles.append(Style(f"{prefix}:{case}:roman", roman))
    return tuple(styles)


def _number_ordinal(token: str) -> int:
    if token[:1].isdigit():
        last = token.rpartition(".")[2]
        if last.isascii() and last.isdigit():  # the common case, without a regex
            return int(last)
        return int(_LEADING_DIGITS.match(last).group(0))  # type: ignore[union-attr]
    return roman_value(token) or alpha_value(token) or 0


def _is_first(style: Style) -> bool:
    return style.ordinal == 1


def continues_a_sequence(
    label: LabelMatch, seen: Set[tuple[str, int]], numbers: Set[str]
) -> tuple[Style, ...]:
    """The candidate styles of ``label`` that start or continue a sequence in the document.

    ``seen`` holds ``(style key, ordinal)`` of every label candidate in the document; ``numbers``
    holds every decimal label as written. A style survives when its ordinal is the first of its
    style (``1``, ``a``, ``i``, ``A``, ``I``, or a decimal ``0.`` written with its full stop), or the
    document also holds its predecessor or its successor in the same style; a decimal label of
    several components (``3.2``) survives when its parent (``3``) or a sibling (``3.1``, ``3.3``) is
    in the document, or it is the first (``3.1``). Word, ``§`` and bullet labels always survive.
    Returns the surviving styles (empty: the candidate is text).
    """
    # One unpacking, not a lookup per field (a named tuple's field is a descriptor lookup): this runs
    # once per labelled block of every document read.
    written, kind, candidates, _, _, _, depth, _, _ = label
    if kind not in SEQUENCE_KINDS:
        return candidates
    if depth > 1 and kind == "decimal":
        ordinal = candidates[0].ordinal
        if ordinal == 1:
            return candidates
        head = written.rpartition(".")[0]
        if head in numbers or f"{head}.{ordinal - 1}" in numbers or f"{head}.{ordinal + 1}" in numbers:
            return candidates
        return ()
    if len(candidates) == 1:  # the common case, without a generator
        key, ordinal = candidates[0]
        if ordinal == 1 or (key, ordinal - 1) in seen or (key, ordinal + 1) in seen:
            return candidates
        if ordinal == 0 and kind == "decimal" and label.text.startswith(f"{written}."):
            return candidates  # a list numbered from `0.` (WTFPL's lone clause 0); a bare `0` is prose
        return ()
    return tuple(
        c
        for c in candidates
        if _is_first(c) or (c.key, c.ordinal - 1) in seen or (c.key, c.ordinal + 1) in seen
    )


def match_label(text: str, profile: Profile, *, heading: bool = False) -> LabelMatch | None:
    """The first rule of ``profile`` (in precedence order) that matches the start of ``text``.

    ``heading`` relaxes the word-label rule: ``Section 5 Termination`` is a labelled heading, while
    in running text a word label needs a terminator (``Section 5. The ...``) to start a clause.
    Readers ask about the same line more than once (as a heading, then as a clause), so one answer
    per text is kept (:func:`known_readings`): the heading reading, from which the running-text one
    follows.
    """
    known = _READINGS.get(profile.name)
    if known is None:
        known = known_readings(profile)
    match = known.get(text, UNSEEN)
    if match is UNSEEN:
        match = read_unseen(known, text, profile)
    if match is None or heading or match.terminated:
        return match
    return _match_running_cached(profile.name, text)


# Lines whose label matches are kept: a document and its revision read one after the other share
# most lines, so the second read finds them here. Room for a 20,000-clause document's lines (65,536)
# was tried twice: 9% fewer instructions reading that pair, yet no faster on the wall (a revision's
# line is hashed and compared with a kept line long out of the cache, which costs what reading its
# label again does) and 5.5 MB more at peak.
LABEL_CACHE_SIZE = 8192


# The heading reading of every line seen, per profile name: a plain dict, asked with one ``get`` (a
# reader asks once per line, and the lru_cache this was cost a key tuple, a linked-list move and a
# Python call per line). Full, it is emptied rather than trimmed one entry per line (see ``read_label``
# for why per-line eviction does not pay); answers never depend on it.
_READINGS: dict[str, dict[str, LabelMatch | None]] = {}
# What ``known.get(text, UNSEEN)`` returns for a line not read yet (``None`` is an answer: no label).
UNSEEN: Any = object()


def known_readings(profile: Profile) -> dict[str, LabelMatch | None]:
    """The kept heading readings of ``profile``'s lines, text -> match (``None``: no label). A reader
    looks a line up here inline and calls :func:`read_unseen` when it gets ``UNSEEN``; the running
    reading of an unterminated word label is not in it (:func:`match_label` derives it)."""
    known = _READINGS.get(profile.name)
    if known is None:
        known = _READINGS[profile.name] = {}
    return known


def read_unseen(known: dict[str, LabelMatch | None], text: str, profile: Profile) -> LabelMatch | None:
    """The heading reading of a line not in ``known`` (:func:`known_readings`), now kept there."""
    if len(known) >= LABEL_CACHE_SIZE:
        known.clear()
    match = known[text] = _match(profile, text, True)
    return match


@lru_cache(maxsize=1024)
def _match_running_cached(profile_name: str, text: str) -> LabelMatch | None:
    """The running-text reading after an unterminated word label (rare: ``Section 5 (Fees) ...``)."""
    return _match(get_profile(profile_name), text, False)


_STYLES: dict[tuple[str, int], tuple[Style, ...]] = {}
_STYLES_KEPT = 65_536


def clear_label_caches() -> None:
    """Forget every line read so far, as a fresh process would: a benchmark that reads the same
    document again must not be timed reading it from these caches."""
    _READINGS.clear()
    _match_running_cached.cache_clear()
    _STYLES.clear()
    _LAST_NUMBERS.clear()


def _one_style(key: str, ordinal: int) -> tuple[Style, ...]:
    """The one-candidate tuple of a style, shared by every label of that style and number: a long
    document has tens of thousands of labels but a few thousand distinct (style, number) pairs."""
    styles = _STYLES.get((key, ordinal))
    if styles is None:
        if len(_STYLES) >= _STYLES_KEPT:
            _STYLES.clear()
        styles = _STYLES[key, ordinal] = (Style(key, ordinal),)
    return styles


_new_match = tuple.__new__


def after_label(text: str, end: int) -> str:
    """The text after a label that ends at ``end``, less the separator (``_SEPARATOR``)."""
    if text[end : end + 1] == " " and text[end + 1 : end + 2].isalnum():
        return text[end + 1 :]  # one space, then a letter or digit: all the separator rule takes
    return text[_SEPARATOR.match(text, end).end() :]  # type: ignore[union-attr]


_NUMBER_STYLES: dict[tuple[str, int, int], tuple[Style, ...]] = {}
# ASCII digit strings -> their value, for the last number of a decimal label (``12`` in ``3.12``).
_LAST_NUMBERS: dict[str, int] = {}


def _number_style(kind: str, depth: int, ordinal: int) -> tuple[Style, ...]:
    """The style of a decimal or ``§`` label of ``depth`` components, keyed without building its name."""
    if len(_NUMBER_STYLES) >= _STYLES_KEPT:
        _NUMBER_STYLES.clear()
    styles = _NUMBER_STYLES[kind, depth, ordinal] = _one_style(f"{kind}:{depth}", ordinal)
    return styles


def _label_of(head: str) -> str:
    """The label as written: the matched text trimmed, one trailing full stop removed."""
    label = head.strip()
    if label.endswith("."):
        label = label[:-1].rstrip()
    return label


def _match(profile: Profile, text: str, heading: bool, start: int = -1) -> LabelMatch | None:
    """The label ``text`` starts with: the first rule of ``profile`` (in precedence order) that matches
    and does not turn it down (prose after a bare number, an unterminated word label in running text,
    no letter style); ``None`` when there is none.

    ``start`` -1 asks the profile's dispatch table which rule matches first (one regex call); a rule
    index asks the rules from there on, one by one (the reference the table is tested against). A rule
    that turns its match down hands on to the rules after it. One function, not a dispatcher calling a
    reader: this runs once for every line read for the first time.
    """
    dispatch = profile.label_dispatch
    if start < 0 and dispatch is not None:
        m = dispatch.match(text)
        if m is None:
            return None  # no rule matches (most prose)
        first, num, word_group, term_group, kind = profile.dispatch_groups[m.lastindex]  # type: ignore[index]
    else:
        if start < 0:
            if profile.label_prefilter.match(text) is None:
                return None  # no rule can match (most prose): one regex instead of one per rule
            start = 0
        rules = profile.labels
        for first in range(start, len(rules)):
            m = rules[first].pattern.match(text)  # type: ignore[assignment]
            if m is not None:
                break
        else:
            return None
        num, word_group, term_group, kind = "num", "word", "term", rules[first].kind
    end = m.end()
    token = m.group(num)
    word = raw_word = None
    depth = 0
    terminated = True
    if kind == "decimal" or kind == "section_sign":
        head = text[:end]
        if kind == "decimal" and "." not in head and text[end:].lstrip()[:1].islower():
            # `30 days after ...` is prose; a bare number labels only with a dot or a capital
            return _match(profile, text, heading, first + 1)
        parts = token.split(".")
        depth = len(parts)
        last = parts[-1]
        # A label's last number as an int: looked up for the numbers already met (int() on a string
        # costs as much as the lookup of the label's style), read for a new one.
        numeric = token[:1].isdigit()
        ordinal = _LAST_NUMBERS.get(last) if numeric else None
        if ordinal is None:
            ordinal = _number_ordinal(token)
            if numeric and last.isdigit() and last.isascii() and len(_LAST_NUMBERS) < _STYLES_KEPT:
                _LAST_NUMBERS[last] = ordinal
        styles = _NUMBER_STYLES.get((kind, depth, ordinal)) or _number_style(kind, depth, ordinal)
        label = head.strip()
        if label.endswith("."):
            label = label[:-1].rstrip()
    else:
        if kind == "word":
            terminated = bool(m.group(term_group)) or not profile.word_label_needs_terminator
            if not heading and not terminated:
                return _match(profile, text, heading, first + 1)
            raw_word = m.group(word_group).lower()
            word = profile.word_aliases.get(raw_word, raw_word)
            styles = _one_style(f"word:{word}", _number_ordinal(token))
        elif kind in ("enclosed", "dotted", "closed"):
            if token.isdigit():
                styles = _one_style(f"{kind}:digit", int(token))
            elif token.isupper() or token.islower():
                styles = _letter_styles(kind, token)
            else:
                styles = ()
            if not styles:
                return _match(profile, text, heading, first + 1)
        else:  # bullet
            styles = _one_style(f"bullet:{token}", 0)
        label = _label_of(text[:end])
    rest = text[end + 1 :]  # after_label's common case, inline: this runs once per clause read
    if not (text.startswith(" ", end) and rest[:1].isalnum()):  # (one space, then a letter or digit)
        rest = after_label(text, end)
    # tuple.__new__ skips the named tuple's keyword-taking __new__ (half the cost of a match).
    return _new_match(LabelMatch, (label, kind, styles, rest, word, raw_word, depth, text, terminated))


# The reading of a line, neither looked up nor kept. ``read_label(profile, text, True)`` is the heading
# reading a reader that inlines :func:`read_unseen` (the Markdown fast path) keeps in
# :func:`known_readings`; ``read_label(profile, text, False)`` is the running-text reading, what
# :func:`match_label` gives without its cache (running text only turns down more: an unterminated word
# label). A document longer than the cache holds (``LABEL_CACHE_SIZE`` lines) is read this way: its
# lines could only reach the cache to be evicted before any reuse, and evicting one entry per line
# costs more than the cache saves (a 20,000-clause pair reads about 8% faster without it).
read_label = _match
