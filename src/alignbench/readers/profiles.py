"""Load reader profiles from ``profiles.yaml``: the label grammar and heading rules live in data, not code.

A profile is compiled once (regexes precompiled) and cached, so reading stays linear and cheap.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from alignbench.atomic import load_yaml
from alignbench.errors import AlignbenchError

PROFILES_FILE = Path(__file__).with_name("profiles.yaml")
RULE_KINDS: tuple[str, ...] = ("decimal", "section_sign", "word", "enclosed", "closed", "dotted", "bullet")
DEFAULT_PROFILE_FOR_FORMAT: dict[str, str] = {
    "markdown": "markdown",
    "text": "contract",
    "docx": "markdown",
    "pdf": "contract",
}
# A rule's entry in the dispatch table: (rule index, its number, word and terminator group numbers
# (0 when the rule has none), its kind).
DispatchGroup = tuple[int, int, int, int, str]


@dataclass(frozen=True)
class LabelRule:
    kind: str
    pattern: re.Pattern[str]


@dataclass(frozen=True)
class HeadingRules:
    detect_in_text: bool
    max_words: int
    max_chars: int
    min_letter_share: float
    minor_words: frozenset[str]
    rank_all_caps: int
    rank_title_case: int
    rank_decimal: int
    rank_by_word: dict[str, int]
    labelled_kinds: tuple[str, ...]
    labelled_cases: frozenset[str]
    unlabelled_cases: frozenset[str]
    max_share_of_next_line: float
    long_caps_title_words: frozenset[str]
    section_opening_words: frozenset[str]
    # reStructuredText/setext titles: a line underlined (optionally also overlined) by one of these
    # characters is a heading; the first style met ranks ``underline_first_rank``, the next one more.
    underline_chars: frozenset[str]
    underline_first_rank: int
    # Unlabelled lines that are never headings (postal addresses), as one alternation; None when unset.
    not_headings: re.Pattern[str] | None = None
    # Postal address lines (a street, a ZIP or postcode): never headings, and a block whose second
    # line is one is an address, one paragraph (plaintext.read_units); None when unset.
    address_lines: re.Pattern[str] | None = None
    # An indented unlabelled Title Case line after a paragraph ending in a colon is that paragraph's text.
    introduced_notices: bool = False
    # Markdown: the rank of a short all-bold paragraph followed by body text; 0 reads it as text.
    bold_paragraph_rank: int = 0


@dataclass(frozen=True)
class WrappedParagraphs:
    """Paragraph breaks inside a hard-wrapped text block with no blank lines (profile
    ``wrapped_paragraphs``): ``min_lines`` 0 turns the rule off."""

    min_lines: int = 0
    min_mean_block_lines: float = 0.0
    slack: int = 0
    # A block indented past the document's leftmost column, of at least this many lines that each
    # end a sentence, is one unit per line (a displayed list of sayings); 0 turns the rule off.
    min_sentence_lines: int = 0


@dataclass(frozen=True)
class Profile:
    name: str
    labels: tuple[LabelRule, ...]
    # Every label rule in one alternation: text it does not match (most prose) skips the rule loop.
    label_prefilter: re.Pattern[str]
    # The same alternation with one group per rule (``_dispatch``): one regex call both rejects prose
    # and names the first rule that matches, with its groups. ``None`` when a pattern refers to a group
    # by number, which renumbering would break; the rules are then tried one by one.
    label_dispatch: re.Pattern[str] | None
    # Per group index of ``label_dispatch`` that closes a rule: (rule index, its ``num``, ``word`` and
    # ``term`` group indices, 0 for a group the rule lacks).
    dispatch_groups: dict[int, DispatchGroup]
    word_aliases: dict[str, str]
    word_label_needs_terminator: bool
    headings: HeadingRules
    reset_words: frozenset[str]
    # Label kinds whose open item an unlabelled text paragraph closes when it starts at or left of
    # the item's marker column (a paragraph after a bullet list); other kinds keep it as continuation.
    closed_by_outdented_paragraph: frozenset[str]
    drop_lines: tuple[tuple[str, re.Pattern[str]], ...]
    # All drop_lines patterns in one alternation, one named group per pattern (``lastgroup`` names it).
    drop_pattern: re.Pattern[str] | None
    wrapped_paragraphs: WrappedParagraphs = WrappedParagraphs()
    # Comment margins (`` * `` down a C comment): a block whose every line carries one, with at least
    # one line holding the margin alone, is text in a comment, not a list; see plaintext.strip_margin.
    comment_margins: tuple[str, ...] = ()


_NAMED_GROUP = re.compile(r"\(\?P<[A-Za-z_][A-Za-z0-9_]*>")


def _unnamed(pattern: str) -> str:
    return _NAMED_GROUP.sub("(?:", pattern)


def _alternation(rules: list[LabelRule]) -> re.Pattern[str]:
    parts = [
        f"(?i:{_unnamed(r.pattern.pattern)})"
        if r.pattern.flags & re.IGNORECASE
        else f"(?:{_unnamed(r.pattern.pattern)})"
        for r in rules
    ]
    return re.compile("|".join(parts) or "(?!)")


_NUMBERED_REFERENCE = re.compile(r"\\[1-9]|\(\?\([1-9]")
_GROUP_NAME = re.compile(r"\(\?P(<|=|>)([A-Za-z_][A-Za-z0-9_]*)")


def _dispatch(rules: list[LabelRule]) -> tuple[re.Pattern[str] | None, dict[int, DispatchGroup]]:
    """Every rule in one alternation, each wrapped in its own group, its named groups renamed apart.

    Anchored alternatives are tried in order and the first that matches wins, exactly as the rules
    are tried in precedence order, and each alternative matches as its pattern alone would. A rule's
    outer group number maps to its index, its own group numbers and its kind (``DispatchGroup``)."""
    if not rules or any(_NUMBERED_REFERENCE.search(r.pattern.pattern) for r in rules):
        return None, {}
    parts = []
    for index, rule in enumerate(rules):
        body = _GROUP_NAME.sub(lambda m, i=index: f"(?P{m.group(1)}r{i}_{m.group(2)}", rule.pattern.pattern)
        body = f"(?i:{body})" if rule.pattern.flags & re.IGNORECASE else body
        parts.append(f"(?P<r{index}>{body})")
    try:
        pattern = re.compile("|".join(parts))
    except re.error:
        return None, {}
    names = pattern.groupindex
    groups = {
        names[f"r{i}"]: (
            i,
            names[f"r{i}_num"],
            names.get(f"r{i}_word", 0),
            names.get(f"r{i}_term", 0),
            rules[i].kind,
        )
        for i in range(len(rules))
    }
    return pattern, groups


def _drop_alternation(drops: list[tuple[str, re.Pattern[str]]]) -> re.Pattern[str] | None:
    if not drops:
        return None
    parts = [f"(?P<{name}>{_unnamed(pattern.pattern)})" for name, pattern in drops]
    try:
        return re.compile("|".join(parts))
    except re.error:  # a drop name that is not a group name: keep testing the patterns one by one
        return None


def profile_names() -> tuple[str, ...]:
    return tuple(sorted(_raw_profiles()))


@lru_cache(maxsize=1)
def _raw_profiles() -> dict[str, Any]:
    data = load_yaml(PROFILES_FILE, "profiles")
    if not isinstance(data, dict) or not data:
        raise AlignbenchError(f"{PROFILES_FILE}: expected a mapping of profile names to profiles")
    return data


@cache
def get_profile(name: str) -> Profile:
    """Return the compiled profile ``name``; an unknown name lists the known ones."""
    raw = _raw_profiles()
    if name not in raw:
        raise AlignbenchError(f"unknown reader profile {name!r}; choose one of: {', '.join(profile_names())}")
    return _compile(name, raw[name])


HEADING_CASES: tuple[str, ...] = ("all_caps", "title_case", "sentence_case")


def _cases(where: str, names: Any) -> frozenset[str]:
    cases = frozenset(str(n) for n in names or ())
    unknown = sorted(cases - set(HEADING_CASES))
    if unknown:
        raise AlignbenchError(
            f"{where}: unknown heading case(s) {', '.join(unknown)}; use {', '.join(HEADING_CASES)}"
        )
    return cases


def _compile(name: str, spec: Any) -> Profile:
    where = f"{PROFILES_FILE}: profile {name!r}"
    if not isinstance(spec, dict):
        raise AlignbenchError(f"{where}: expected a mapping")
    rules = []
    for index, rule in enumerate(spec.get("labels") or [], start=1):
        kind = rule.get("kind") if isinstance(rule, dict) else None
        if kind not in RULE_KINDS:
            raise AlignbenchError(f"{where}: labels[{index}] kind must be one of {', '.join(RULE_KINDS)}")
        flags = re.IGNORECASE if rule.get("ignore_case") else 0
        try:
            pattern = re.compile(str(rule["pattern"]), flags)
        except (KeyError, re.error) as exc:
            raise AlignbenchError(
                f"{where}: labels[{index}] has a bad pattern ({exc}); fix the regex"
            ) from None
        if "num" not in pattern.groupindex:
            raise AlignbenchError(f"{where}: labels[{index}] pattern must capture the label in group 'num'")
        rules.append(LabelRule(kind, pattern))
    head = spec.get("headings") or {}
    headings = HeadingRules(
        detect_in_text=bool(head.get("detect_in_text", False)),
        max_words=int(head.get("max_words", 12)),
        max_chars=int(head.get("max_chars", 90)),
        min_letter_share=float(head.get("min_letter_share", 0.0)),
        minor_words=frozenset(str(w).lower() for w in head.get("minor_words", ())),
        rank_all_caps=int(head.get("rank_all_caps", 1)),
        rank_title_case=int(head.get("rank_title_case", 2)),
        rank_decimal=int(head.get("rank_decimal", 2)),
        rank_by_word={str(k).lower(): int(v) for k, v in (head.get("rank_by_word") or {}).items()},
        labelled_kinds=tuple(head.get("labelled_kinds") or ()),
        labelled_cases=_cases(where, head.get("labelled_cases", ("all_caps", "title_case"))),
        unlabelled_cases=_cases(where, head.get("unlabelled_cases", ("all_caps", "title_case"))),
        max_share_of_next_line=float(head.get("max_share_of_next_line", 0.0)),
        long_caps_title_words=frozenset(str(w).lower() for w in head.get("long_caps_title_words", ())),
        section_opening_words=frozenset(str(w).lower() for w in head.get("section_opening_words", ())),
        # The schema (schemas/profiles.json) admits punctuation only: a line of letters is text.
        underline_chars=frozenset(str(head.get("underline_chars", ""))),
        underline_first_rank=int(head.get("underline_first_rank", 1)),
        not_headings=_any_of(where, "headings.not_headings", head.get("not_headings") or ()),
        address_lines=_any_of(where, "headings.address_lines", head.get("address_lines") or ()),
        introduced_notices=bool(head.get("introduced_notices", False)),
        bold_paragraph_rank=int(head.get("bold_paragraph_rank", 0)),
    )
    wrapped = spec.get("wrapped_paragraphs") or {}
    # The schema admits only RULE_KINDS here.
    closers = frozenset(str(k) for k in spec.get("closed_by_outdented_paragraph") or ())
    drops = []
    for drop_name in sorted(spec.get("drop_lines") or {}):
        drops.append((str(drop_name), re.compile(str(spec["drop_lines"][drop_name]))))
    dispatch, dispatch_groups = _dispatch(rules)
    return Profile(
        name=name,
        labels=tuple(rules),
        label_prefilter=_alternation(rules),
        label_dispatch=dispatch,
        dispatch_groups=dispatch_groups,
        drop_pattern=_drop_alternation(drops),
        word_aliases={str(k).lower(): str(v).lower() for k, v in (spec.get("word_aliases") or {}).items()},
        word_label_needs_terminator=bool(spec.get("word_label_needs_terminator", False)),
        headings=headings,
        reset_words=frozenset(str(w).lower() for w in spec.get("reset_words", ())),
        closed_by_outdented_paragraph=closers,
        drop_lines=tuple(drops),
        wrapped_paragraphs=WrappedParagraphs(
            int(wrapped.get("min_lines", 0)),
            float(wrapped.get("min_mean_block_lines", 0)),
            int(wrapped.get("slack", 0)),
            int(wrapped.get("min_sentence_lines", 0)),
        ),
        comment_margins=tuple(str(m) for m in spec.get("comment_margins") or ()),
    )


def _any_of(where: str, key: str, patterns: Any) -> re.Pattern[str] | None:
    """One regex matching at the start of a line when any of ``patterns`` does."""
    if not patterns:
        return None
    try:
        return re.compile("|".join(f"(?:{p})" for p in patterns))
    except re.error as exc:
        raise AlignbenchError(f"{where}: {key} has a bad pattern ({exc}); fix the regex") from None
