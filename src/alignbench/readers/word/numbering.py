"""Word's automatic numbering, rendered into the labels Word shows.

No maintained library renders it (docs/CONTRACTS.md, "Word documents"): python-docx exposes the
numbering part's XML only, docx2python renders ``%1.%2`` patterns but keeps one counter per ``numId``
(so two list instances of one abstract list never continue each other) and ignores
``w:lvlRestart``, ``w:isLgl`` and ``w:startOverride``, and mammoth drops the numbers for an HTML list.
So this module follows ECMA-376 Part 1, section 17.9 itself:

- a paragraph is numbered by ``w:numPr`` on itself, else on its paragraph style (through ``basedOn``);
  ``w:numId`` 0 switches a style's numbering off; a style's ``w:numPr`` without ``w:ilvl`` takes the
  level whose ``w:pStyle`` names the style, else level 0;
- ``w:num`` points at a ``w:abstractNum`` (through ``w:numStyleLink`` when that list is a numbering
  style), and may override a level's start (``w:startOverride``) or the whole level (``w:lvl``);
- counters belong to the abstract list, as in Word: two ``w:num`` of one abstract list continue one
  another; a ``w:num`` that overrides a level (``w:startOverride`` or a whole ``w:lvl``) is a list
  instance of its own, with its own counters, starting where its overrides say (Word's "restart
  numbering", and pandoc's one ``w:num`` per list);
- a level restarts after any shallower level is used, or after the level ``w:lvlRestart`` names
  (0: never); a level not yet used shows its ``w:start``;
- ``w:lvlText`` replaces ``%1`` .. ``%9`` with each level's number in its own ``w:numFmt``, or in
  decimal everywhere when the level is ``w:isLgl`` (legal numbering: ``1.1`` under ``Article I``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from alignbench.readers.numerals import CARDINAL_WORDS, to_roman
from alignbench.readers.word.xml import W, attr, child, children, int_attr, left_indent

# Number formats with no visible number: a bullet marks an item and labels nothing.
BULLET_FORMATS: frozenset[str] = frozenset({"bullet"})
_PLACEHOLDER = re.compile(r"%([1-9])")
_ORDINALS = tuple(
    [
        "zeroth",
        "first",
        "second",
        "third",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
        "eleventh",
        "twelfth",
        "thirteenth",
        "fourteenth",
        "fifteenth",
        "sixteenth",
        "seventeenth",
        "eighteenth",
        "nineteenth",
        "twentieth",
    ]
)


@dataclass(frozen=True, slots=True)
class Level:
    """One level of a list: how its number starts, restarts and shows."""

    start: int = 1
    fmt: str = "decimal"
    text: str = ""
    restart: int | None = None  # w:lvlRestart (1-based level after which it restarts; 0 never)
    legal: bool = False  # w:isLgl
    style: str | None = None  # w:pStyle: the paragraph style this level belongs to
    indent: int | None = None  # w:pPr/w:ind left: where the item's text stands, in twips


@dataclass(frozen=True, slots=True)
class Instance:
    """A ``w:num``: its abstract list, and the levels it overrides."""

    abstract: str
    start_overrides: dict[int, int]
    level_overrides: dict[int, Level]


@dataclass(frozen=True, slots=True)
class Rendered:
    """A numbered paragraph's label as Word shows it, and where it sits in its list."""

    label: str  # "" for a bullet or a level with no number shown
    bullet: bool
    list_key: str  # the list instance (its counters): the numbering style of the tree builder
    level: int  # 0-based w:ilvl
    ordinal: int
    indent: int | None = None  # where the level puts the item's text, in twips
    marker: bool = True  # False when Word shows nothing (a blank bullet, an empty number): no item


def to_letters(number: int) -> str:
    """Word's letter numbering: a..z, then aa..zz, then aaa (the letter repeated, not base 26)."""
    if number <= 0:
        return str(number)
    return chr(ord("a") + (number - 1) % 26) * ((number - 1) // 26 + 1)


def format_number(number: int, fmt: str) -> str:
    """``number`` in the ``w:numFmt`` ``fmt``; a format this reader does not know shows as decimal."""
    if fmt == "lowerLetter":
        return to_letters(number)
    if fmt == "upperLetter":
        return to_letters(number).upper()
    if fmt == "lowerRoman":
        return to_roman(number) if number > 0 else str(number)
    if fmt == "upperRoman":
        return to_roman(number).upper() if number > 0 else str(number)
    if fmt == "decimalZero":
        return f"{number:02d}"
    if fmt == "ordinal":
        suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
        return f"{number}{suffix}"
    if fmt == "cardinalText" and 0 <= number < len(CARDINAL_WORDS):
        return CARDINAL_WORDS[number].capitalize()
    if fmt == "ordinalText" and 0 <= number < len(_ORDINALS):
        return _ORDINALS[number].capitalize()
    if fmt in ("none", "bullet"):
        return ""
    return str(number)


def _level(element) -> Level:  # type: ignore[no-untyped-def]
    start = int_attr(child(element, "start"), 1)
    fmt_el = child(element, "numFmt")
    text_el = child(element, "lvlText")
    restart_el = child(element, "lvlRestart")
    legal_el = child(element, "isLgl")
    style_el = child(element, "pStyle")
    return Level(
        start=start if start is not None else 1,
        fmt=attr(fmt_el) or "decimal",
        text=attr(text_el) or "",
        restart=int_attr(restart_el, None),
        legal=legal_el is not None and attr(legal_el) not in ("0", "false", "off"),
        style=attr(style_el),
        indent=left_indent(child(element, "pPr")),
    )


@dataclass
class Numbering:
    """The numbering part of one document, and the counters of one pass over its body."""

    abstracts: dict[str, dict[int, Level]] = field(default_factory=dict)
    abstract_links: dict[str, str] = field(default_factory=dict)  # abstractNumId -> numStyleLink style
    abstract_defines: dict[str, str] = field(default_factory=dict)  # styleLink style -> abstractNumId
    instances: dict[str, Instance] = field(default_factory=dict)
    style_num_ids: dict[str, str] = field(default_factory=dict)  # numbering style id -> its numId
    counters: dict[str, dict[int, int]] = field(default_factory=dict)
    used_instances: set[str] = field(default_factory=set)
    style_levels: dict[tuple[str, str], int] = field(default_factory=dict)

    @classmethod
    def from_xml(cls, root, style_num_ids: dict[str, str]) -> Numbering:  # type: ignore[no-untyped-def]
        numbering = cls(style_num_ids=dict(style_num_ids))
        if root is None:
            return numbering
        for abstract in children(root, "abstractNum"):
            abstract_id = abstract.get(W + "abstractNumId")
            if abstract_id is None:
                continue
            levels = {}
            for lvl in children(abstract, "lvl"):
                ilvl = int_attr(lvl, None, "ilvl")
                if ilvl is not None:
                    levels[ilvl] = _level(lvl)
            numbering.abstracts[abstract_id] = levels
            link = attr(child(abstract, "numStyleLink"))
            if link:
                numbering.abstract_links[abstract_id] = link
            defines = attr(child(abstract, "styleLink"))
            if defines:
                numbering.abstract_defines[defines] = abstract_id
        for num in children(root, "num"):
            num_id = num.get(W + "numId")
            abstract_id = attr(child(num, "abstractNumId"))
            if num_id is None or abstract_id is None:
                continue
            starts: dict[int, int] = {}
            levels: dict[int, Level] = {}
            for override in children(num, "lvlOverride"):
                ilvl = int_attr(override, None, "ilvl")
                if ilvl is None:
                    continue
                start = int_attr(child(override, "startOverride"), None)
                if start is not None:
                    starts[ilvl] = start
                lvl = child(override, "lvl")
                if lvl is not None:
                    levels[ilvl] = _level(lvl)
            numbering.instances[num_id] = Instance(abstract_id, starts, levels)
        return numbering

    def _abstract_of(self, num_id: str) -> str | None:
        """The abstract list a ``w:num`` uses, through a numbering style's link when it has one."""
        instance = self.instances.get(num_id)
        if instance is None:
            return None
        abstract = instance.abstract
        for _ in range(4):  # a link names a style, whose numId names another list; Word allows no loop
            link = self.abstract_links.get(abstract)
            if link is None:
                return abstract
            target = self.abstract_defines.get(link)
            if target is None:
                linked_num = self.style_num_ids.get(link)
                linked = self.instances.get(linked_num) if linked_num is not None else None
                target = linked.abstract if linked is not None else None
            if target is None or target == abstract:
                return abstract
            abstract = target
        return abstract

    def level_for_style(self, num_id: str, style_id: str) -> int:
        """The level a style's ``w:numPr`` without ``w:ilvl`` means: the one naming the style, else 0."""
        key = (num_id, style_id)
        if key not in self.style_levels:
            self.style_levels[key] = self._level_for_style(num_id, style_id)
        return self.style_levels[key]

    def _level_for_style(self, num_id: str, style_id: str) -> int:
        abstract = self._abstract_of(num_id)
        for ilvl, level in sorted(self.abstracts.get(abstract or "", {}).items()):
            if level.style == style_id:
                return ilvl
        return 0

    def _levels(self, num_id: str, abstract: str) -> dict[int, Level]:
        levels = dict(self.abstracts.get(abstract, {}))
        instance = self.instances[num_id]
        levels.update(instance.level_overrides)
        return levels

    def render(self, num_id: str, ilvl: int) -> Rendered | None:
        """Advance the counters for a paragraph numbered ``(num_id, ilvl)`` and render its label.

        ``None`` when the numbering names no list this document defines (Word shows no number)."""
        abstract = self._abstract_of(num_id)
        if abstract is None or abstract not in self.abstracts:
            return None
        levels = self._levels(num_id, abstract)
        if not levels:
            return None
        ilvl = max(0, min(ilvl, 8))
        level = levels.get(ilvl, Level())
        instance = self.instances[num_id]
        own = bool(instance.start_overrides or instance.level_overrides)
        key = f"{abstract}/{num_id}" if own else abstract
        counters = self.counters.setdefault(key, {})
        if num_id not in self.used_instances:
            self.used_instances.add(num_id)
            for over_level, start in sorted(instance.start_overrides.items()):
                counters[over_level] = start - 1
            for over_level, lvl in sorted(instance.level_overrides.items()):
                if over_level not in instance.start_overrides:
                    counters[over_level] = lvl.start - 1
        previous = counters.get(ilvl)
        value = level.start if previous is None else previous + 1
        counters[ilvl] = value
        for deeper in sorted(levels):
            if deeper <= ilvl:
                continue
            restart = levels[deeper].restart
            after = deeper if restart is None else restart  # 1-based: restart after level `after`
            if after != 0 and ilvl < after:
                counters.pop(deeper, None)
        if level.fmt in BULLET_FORMATS:
            return Rendered("", True, key, ilvl, value, level.indent, marker=bool(level.text.strip()))

        def number(match: re.Match[str]) -> str:
            index = int(match.group(1)) - 1
            lvl = levels.get(index, Level())
            shown = counters.get(index)
            if shown is None:
                shown = lvl.start
            fmt = "decimal" if level.legal and lvl.fmt not in ("none", "bullet") else lvl.fmt
            return format_number(shown, fmt)

        label = _PLACEHOLDER.sub(number, level.text)
        return Rendered(label.strip(), False, key, ilvl, value, level.indent, marker=bool(label.strip()))


def style_num_ids(styles: Iterable) -> dict[str, str]:  # type: ignore[type-arg]
    """Each numbering style's own ``w:numId`` (a list defined through a style)."""
    out: dict[str, str] = {}
    for style in styles:
        style_id = style.get(W + "styleId")
        num_pr = child(child(style, "pPr"), "numPr")
        num_id = attr(child(num_pr, "numId"))
        if style_id and num_id:
            out[style_id] = num_id
    return out
