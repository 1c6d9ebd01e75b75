"""The plain-text reader: blank-line blocks, rejoined hard wraps, detected headings, pipe tables.

One heading rule (profile ``headings``, documented in docs/CONTRACTS.md):

- A heading is one line: short (``max_words``, ``max_chars``), mostly letters, with no terminal
  punctuation and no sentence break inside.
- Unlabelled, it is ALL CAPS or Title Case (``unlabelled_cases``). After a heading-capable label
  (``1.``, ``Section 5``, ``SEC. 2.``, ``Schedule 1``, ``§ 4``) its title may also be in sentence case
  (``labelled_cases``: ``2. Scope of the rights``); its rank comes from the label
  (``rank_by_word``/``rank_decimal``), and an ALL CAPS or word-labelled title may keep one closing
  full stop (``SEC. 2. SHORT TITLE.``). A bare word label with no title (``SCHEDULE 2``) is a heading
  too. A decimal label deeper than one level (``1.2 Fees``) never is.
- It needs no blank line after it: a heading line followed in its block by a line that starts a
  sentence or a clause is still a heading when it is clearly not the first line of a hard-wrapped
  paragraph: at most ``max_share_of_next_line`` of the next line's length, or ALL CAPS over a line
  that is not (``3. REQUIREMENTS`` then ``The licensee must ...``).
- An underlined title (reStructuredText and setext: ``Basic policy``/``------``) is a heading
  whatever its case, ranked by the order its underline style first appears (``underline_chars``,
  ``underline_first_rank``); the underline is markup, so it is neither text nor a counted drop.
"""

from __future__ import annotations

import re

from alignbench.readers.drops import DropLog
from alignbench.readers.label_grammar import LabelMatch, match_label
from alignbench.readers.pipe_table import is_table_line, parse_pipe_table
from alignbench.readers.profiles import Profile
from alignbench.readers.text_blocks import (
    TextBlock,
    blocks_of,
    displayed_sentences,
    leftmost_column,
    wrapped_paragraphs,
)
from alignbench.readers.units import Line, Unit, group_clause_lines, join_lines

_TERMINAL = (".", ",", ";", ":", "!", "?")
# A full stop or the like after a word (not an initial, as in `U.S.C.`) ends a sentence.
_SENTENCE_BREAK = re.compile(r"[A-Za-z0-9)]{2}[.;:!?]\s")


def _is_all_caps(title: str) -> bool:
    letters = [ch for ch in title if ch.isalpha()]
    return len(letters) >= 2 and all(ch.isupper() for ch in letters)


def _is_sentence_case(title: str) -> bool:
    first = next((ch for ch in title if ch.isalpha()), "")
    return first.isupper()


def _in_cases(title: str, cases: frozenset[str], profile: Profile) -> bool:
    return (
        ("all_caps" in cases and _is_all_caps(title))
        or ("title_case" in cases and _is_title_case(title, profile))
        or ("sentence_case" in cases and _is_sentence_case(title))
    )


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


Heading = tuple[int, LabelMatch | None, str]


def heading_of(line: str, profile: Profile, *, wrapped: bool = False) -> Heading | None:
    """``(rank, label, title)`` when ``line`` is a heading under ``profile``, else ``None``.

    ``wrapped`` says ``line`` is several hard-wrapped lines joined, or only the first lines of a
    block: then only a long ALL CAPS title after a ``long_caps_title_words`` label that closes with a
    full stop counts (``SEC. 2. REMOVAL OF ... AUTHORIZED BY CONGRESS.``).
    """
    rules = profile.headings
    if not rules.detect_in_text or not line:
        return None
    if _is_address(line, profile) or (rules.not_headings is not None and rules.not_headings.match(line)):
        return None  # a postal address or placeholder line, whatever its case
    if wrapped or not _short(line, profile):
        label = match_label(line, profile, heading=True)
        if label is None or not _long_caps_title(label, profile, needs_full_stop=wrapped):
            return None
        return rank_of_word(label, profile), label, label.rest
    label = match_label(line, profile, heading=True)
    if label is not None and label.kind not in rules.labelled_kinds:
        return None
    if label is None:
        if line.endswith(_TERMINAL) or not _wordy(line, profile) or _SENTENCE_BREAK.search(line):
            return None
        if "all_caps" in rules.unlabelled_cases and _is_all_caps(line):
            return rules.rank_all_caps, None, line
        if _in_cases(line, rules.unlabelled_cases, profile):
            return rules.rank_title_case, None, line
        return None
    if label.decimal_depth > 1:
        return None
    title = label.rest
    rank = rank_of_word(label, profile)
    if not title:
        return (rank, label, "") if label.word else None
    caps = _is_all_caps(title)
    stopped = title.endswith(".")
    body = title[:-1] if stopped and (caps or label.word) else title
    if not body or body.endswith(_TERMINAL) or _SENTENCE_BREAK.search(body):
        return None
    # Only an ALL CAPS or Title Case title keeps a closing full stop; in sentence case it is a sentence.
    cases = rules.labelled_cases - {"sentence_case"} if stopped else rules.labelled_cases
    if _wordy(body, profile) and _in_cases(body, cases, profile):
        return rank, label, title
    return None


def _is_address(line: str, profile: Profile) -> bool:
    pattern = profile.headings.address_lines
    return pattern is not None and pattern.match(line) is not None


def rank_of_word(label: LabelMatch, profile: Profile) -> int:
    """The heading rank of a labelled heading: by its word (``TITLE`` above ``SEC.``), else decimal."""
    rules = profile.headings
    return rules.rank_by_word.get(label.word, rules.rank_decimal) if label.word else rules.rank_decimal


def _long_caps_title(label: LabelMatch, profile: Profile, *, needs_full_stop: bool) -> bool:
    """A word label whose title is one ALL CAPS phrase, however long (US bill section headers)."""
    if label.kind != "word" or label.word not in profile.headings.long_caps_title_words:
        return False
    title = label.rest
    if needs_full_stop and not title.endswith("."):
        return False
    body = title[:-1] if title.endswith(".") else title
    return (
        bool(body)
        and not body.endswith(_TERMINAL)
        and _is_all_caps(body)
        and _wordy(body, profile)
        and _SENTENCE_BREAK.search(body) is None
    )


def _section_opener(text: str, profile: Profile) -> LabelMatch | None:
    """The label of a ``section_opening_words`` clause (``SEC. 102. Not later ...``), else ``None``."""
    label = match_label(text, profile)
    if label is not None and label.raw_word in profile.headings.section_opening_words:
        return label
    return None


def _dropped_as(line: str, profile: Profile) -> str | None:
    """The ``drop_lines`` name of a whole line the reader drops, or ``None``."""
    if profile.drop_pattern is not None:
        match = profile.drop_pattern.fullmatch(line)
        return match.lastgroup if match is not None else None
    return next((n for n, pattern in profile.drop_lines if pattern.fullmatch(line)), None)


# The shortest underline that can be markup: `--` or `**` under a word is too likely something else.
_MIN_UNDERLINE = 3
# An underline style: its character, and whether the title is overlined too.
UnderlineStyle = tuple[str, bool]


def _underline_char(line: str, title: str, profile: Profile) -> str | None:
    """The character when ``line`` underlines ``title`` (docutils: as long as the title, or 4+)."""
    mark = line.strip()
    char = mark[:1]
    if not char or char not in profile.headings.underline_chars or mark != char * len(mark):
        return None
    if len(mark) < _MIN_UNDERLINE or (len(mark) < len(title) and len(mark) < 4):
        return None
    return char


def _underlined_title(block: TextBlock, profile: Profile) -> tuple[UnderlineStyle, int, str, int] | None:
    """``(style, line number, title, lines used)`` when the block opens with an underlined title."""
    if not profile.headings.underline_chars or len(block) < 2:
        return None
    overline = block[0][1].strip()
    over = len(block) >= 3 and block[2][1].strip() == overline
    start = 1 if over else 0
    number, raw_title = block[start]
    title = raw_title.strip()
    if not title or _underline_char(title, title, profile) or _dropped_as(title, profile):
        return None
    if not over and len(raw_title) - len(title) != len(block[1][1]) - len(block[1][1].lstrip()):
        return None  # an underline stands at its title's column; a misaligned rule is something else
    char = _underline_char(block[start + 1][1], title, profile)
    if char is None:
        return None
    return (char, over), number, title, start + 2


def _underlined_heading(title: str, rank: int, line: int, profile: Profile) -> Unit:
    """The heading of an underlined title; a heading label (``1.``, ``Section 5``) is its label."""
    label = match_label(title, profile, heading=True)
    if label is not None and label.kind in profile.headings.labelled_kinds:
        return _heading_unit(rank, label, label.rest, line)
    return _heading_unit(rank, None, title, line)


def read_units(text: str, profile: Profile, dropped: DropLog, source: str = "<text>") -> list[Unit]:
    """The unit stream of a plain-text document; dropped lines are counted into ``dropped``."""
    units: list[Unit] = []
    underline_ranks: dict[UnderlineStyle, int] = {}
    blocks = blocks_of(text, profile)
    # Hard-wrapped paragraphs without blank lines are looked for only in a document of long blocks.
    mean_lines = sum(map(len, blocks)) / len(blocks) if blocks else 0.0
    wraps = mean_lines >= profile.wrapped_paragraphs.min_mean_block_lines
    body_column = leftmost_column(blocks)

    def is_heading_line(candidate: str) -> bool:
        return heading_of(candidate, profile) is not None

    # The last line of the block before: a line it introduces (it ends in a colon) is displayed text.
    introduced: Line | None = None
    for raw_lines in blocks:
        titled = _underlined_title(raw_lines, profile)
        if titled is not None:
            style, number, title, used = titled
            next_rank = profile.headings.underline_first_rank + len(underline_ranks)
            rank = underline_ranks.setdefault(style, next_rank)
            units.append(_underlined_heading(title, rank, number, profile))
            raw_lines = raw_lines[used:]
        kept = []
        for number, raw in raw_lines:
            name = _dropped_as(raw.strip(), profile)
            if name is None:
                kept.append((number, raw))
            else:
                dropped.note(name, number, raw)
        if not kept:
            continue
        if all(is_table_line(raw) for _, raw in kept):
            rows, header = parse_pipe_table([raw for _, raw in kept])
            units.append(Unit("table", rows=tuple(tuple(r) for r in rows), header=header, line=kept[0][0]))
            continue
        lines = [Line(len(raw) - len(raw.lstrip()), raw.strip(), number) for number, raw in kept]
        if (
            len(lines) > 1
            and _is_address(lines[1].text, profile)
            and match_label(lines[0].text, profile) is None
        ):
            # An address block: the addressee's name, then street and town (profile address_lines).
            units.extend(_paragraph_units(join_lines(lines), lines, profile))
            introduced = lines[-1]
            continue
        if displayed_sentences(lines, profile, body_column):
            runs: list[list[Line]] = [[line] for line in lines]
        else:
            runs = wrapped_paragraphs(lines, profile) if wraps else [lines]
        for run in runs:
            for group in group_clause_lines(run, profile, is_heading_line):
                units.extend(_group_units(group, profile, introduced))
                introduced = None
        introduced = lines[-1]
    return units


def _heads_its_block(group: list[Line], profile: Profile) -> Heading | None:
    """The heading that opens a group without a blank line after it (``3. REQUIREMENTS``), if any."""
    heading = heading_of(group[0].text, profile)
    if heading is None:
        return None
    first, following = group[0].text, group[1].text
    if not _is_sentence_case(following) and match_label(following, profile) is None:
        return None  # the next line continues a sentence: `...for any` / `purpose other than ...`
    if len(first) <= profile.headings.max_share_of_next_line * len(following):
        return heading
    if _is_all_caps(heading[2]) and not _is_all_caps(following):
        return heading
    return None


def _introduced_notice(heading: Heading, line: Line, before: Line | None, profile: Profile) -> bool:
    """An indented unlabelled Title Case line (not ALL CAPS) right after a paragraph that ends in a
    colon is text that paragraph introduces (``... place this notice:`` then
    ``    Licensed under the Example License``), not a heading (profile ``introduced_notices``). A
    line of markup alone (reStructuredText's ``::``) introduces nothing: PEP 9's indented
    ``Abstract`` after it is a heading."""
    if not profile.headings.introduced_notices or before is None or heading[1] is not None:
        return False
    introduces = before.text.endswith(":") and any(ch.isalpha() for ch in before.text)
    return line.indent > before.indent and introduces and not _is_all_caps(heading[2])


def _group_units(group: list[Line], profile: Profile, before: Line | None = None) -> list[Unit]:
    """The units of one clause group: a heading, a heading and its first paragraph, or a paragraph.
    ``before`` is the last line of the block before, when the group opens its block."""
    if len(group) == 1:
        heading = heading_of(group[0].text, profile)
        if heading is not None and not _introduced_notice(heading, group[0], before, profile):
            return [_heading_unit(*heading, group[0].number)]
    elif _may_open_long_heading(group[0].text, profile):
        # A wrapped bill section header, possibly with its body run on in the same block.
        for cut in range(len(group), 0, -1):
            heading = heading_of(join_lines(group[:cut]), profile, wrapped=True)
            if heading is not None:
                rest = group[cut:]
                head = _heading_unit(*heading, group[0].number)
                return [head, *_paragraph_units(join_lines(rest), rest, profile)]
    else:
        heading = _heads_its_block(group, profile)
        if heading is not None and not _introduced_notice(heading, group[0], before, profile):
            rest = group[1:]
            return [
                _heading_unit(*heading, group[0].number),
                *_paragraph_units(join_lines(rest), rest, profile),
            ]
    joined = join_lines(group)
    opener = _section_opener(joined, profile)
    if opener is not None:
        rank = rank_of_word(opener, profile)
        heading_unit = Unit("heading", text="", label=opener, rank=rank, line=group[0].number)
        return [heading_unit, *_paragraph_units(opener.rest, group, profile)]
    return _paragraph_units(joined, group, profile)


def _may_open_long_heading(first_line: str, profile: Profile) -> bool:
    label = match_label(first_line, profile, heading=True)
    return label is not None and label.word in profile.headings.long_caps_title_words


def _heading_unit(rank: int, label: LabelMatch | None, title: str, line: int) -> Unit:
    return Unit("heading", text=title, label=label, rank=rank, line=line)


def _paragraph_units(text: str, group: list[Line], profile: Profile) -> list[Unit]:
    """One paragraph unit for ``text`` (labelled when it opens with a label), none when it is empty."""
    if not text:
        return []
    label = match_label(text, profile)
    text_of = label.rest if label else text
    return [Unit("paragraph", text=text_of, label=label, indent=group[0].indent, line=group[0].number)]
