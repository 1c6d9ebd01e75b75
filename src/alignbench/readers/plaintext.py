"""The plain-text reader: blank-line blocks, rejoined hard wraps, detected headings, pipe tables.

Headings are recognised by shape (profile ``headings``): one short line, ALL CAPS or Title Case,
no terminal punctuation. A line that starts with a heading-capable label (``1.``, ``Section 5``,
``SEC. 2.``, ``Schedule 1``, ``§ 4``) and whose title has that shape is a *labelled* heading: its
rank comes from the label (``rank_by_word``/``rank_decimal``), and an ALL CAPS or word-labelled
title may keep one closing full stop (``SEC. 2. SHORT TITLE.``). A bare word label with no title
(``SCHEDULE 2``) is a heading too. A decimal label deeper than one level (``1.2 Fees``) never is.
"""

from __future__ import annotations

from collections import Counter

from alignbench.readers.label_grammar import LabelMatch, match_label
from alignbench.readers.pipe_table import is_table_line, parse_pipe_table
from alignbench.readers.profiles import Profile
from alignbench.readers.units import Line, Unit, group_clause_lines, join_lines

_TERMINAL = (".", ",", ";", ":", "!", "?")


def _is_all_caps(title: str) -> bool:
    letters = [ch for ch in title if ch.isalpha()]
    return len(letters) >= 2 and all(ch.isupper() for ch in letters)


def _is_title_case(title: str, profile: Profile) -> bool:
    seen_letter = False
    for index, word in enumerate(title.split()):
        core = word.strip("\"'“”‘’()[]&-–—,")
        if not core:
            continue
        first = core[0]
        if first.isdigit():
            continue
        if not first.isalpha():
            return False
        seen_letter = True
        if first.islower() and (index == 0 or core.lower() not in profile.headings.minor_words):
            return False
    return seen_letter


def _short(title: str, profile: Profile) -> bool:
    return len(title) <= profile.headings.max_chars and len(title.split()) <= profile.headings.max_words


def _wordy(title: str, profile: Profile) -> bool:
    visible = [ch for ch in title if not ch.isspace()]
    letters = sum(1 for ch in visible if ch.isalpha())
    return bool(visible) and letters >= profile.headings.min_letter_share * len(visible)


def heading_of(line: str, profile: Profile) -> tuple[int, LabelMatch | None, str] | None:
    """``(rank, label, title)`` when ``line`` is a heading under ``profile``, else ``None``."""
    rules = profile.headings
    if not rules.detect_in_text or not line or not _short(line, profile):
        return None
    label = match_label(line, profile, heading=True)
    if label is not None and label.kind not in rules.labelled_kinds:
        return None
    if label is None:
        if line.endswith(_TERMINAL) or not _wordy(line, profile):
            return None
        if _is_all_caps(line):
            return rules.rank_all_caps, None, line
        if _is_title_case(line, profile):
            return rules.rank_title_case, None, line
        return None
    if label.decimal_depth > 1:
        return None
    title = label.rest
    rank = rules.rank_by_word.get(label.word, rules.rank_decimal) if label.word else rules.rank_decimal
    if not title:
        return (rank, label, "") if label.word else None
    caps = _is_all_caps(title)
    body = title[:-1] if title.endswith(".") and (caps or label.word) else title
    if not body or body.endswith(_TERMINAL):
        return None
    if _wordy(body, profile) and (caps or _is_title_case(body, profile)):
        return rank, label, title
    return None


def _blocks(text: str) -> list[list[str]]:
    blocks: list[list[str]] = []
    current: list[str] = []
    for raw in text.split("\n"):
        if raw.strip():
            current.append(raw.rstrip())
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def read_units(text: str, profile: Profile, dropped: Counter[str]) -> list[Unit]:
    """The unit stream of a plain-text document; dropped lines are counted into ``dropped``."""
    units: list[Unit] = []

    def is_heading_line(candidate: str) -> bool:
        return heading_of(candidate, profile) is not None

    for raw_lines in _blocks(text):
        kept = []
        for raw in raw_lines:
            stripped = raw.strip()
            name = next((n for n, pattern in profile.drop_lines if pattern.fullmatch(stripped)), None)
            if name is None:
                kept.append(raw)
            else:
                dropped[name] += 1
        if not kept:
            continue
        if all(is_table_line(raw) for raw in kept):
            rows, header = parse_pipe_table(kept)
            units.append(Unit("table", rows=tuple(tuple(r) for r in rows), header=header))
            continue
        lines = [Line(len(raw) - len(raw.lstrip()), raw.strip()) for raw in kept]
        for group in group_clause_lines(lines, profile, is_heading_line):
            joined = join_lines(group)
            heading = heading_of(joined, profile) if len(group) == 1 else None
            if heading is not None:
                rank, label, title = heading
                units.append(Unit("heading", text=title, label=label, rank=rank))
                continue
            label = match_label(joined, profile)
            units.append(
                Unit("paragraph", text=label.rest if label else joined, label=label, indent=group[0].indent)
            )
    return units
