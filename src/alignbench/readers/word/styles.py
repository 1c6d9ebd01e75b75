"""Paragraph styles: what a style says about headings, numbering and indentation, through ``basedOn``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from alignbench.readers.word.xml import W, attr, child, children, int_attr, left_indent

_HEADING_NAME = re.compile(r"heading\s*([1-9])")
_MAX_CHAIN = 20  # a basedOn chain longer than this is a loop in a damaged file


@dataclass(frozen=True, slots=True)
class StyleInfo:
    """A paragraph style's resolved properties (its own, else its ancestors')."""

    rank: int | None  # heading rank (Title 0, Heading N / outline level N-1 -> N), None for body text
    num_id: str | None  # w:numPr/w:numId ("0" switches an inherited numbering off)
    ilvl: int | None
    indent: int | None
    numbered_by: str | None  # the style whose w:numPr applies (a level's w:pStyle names it)


class Styles:
    """The styles part, resolved lazily per style id and cached."""

    def __init__(self, root: Any) -> None:
        self._raw: dict[str, Any] = {}
        self.default_paragraph: str | None = None
        for style in children(root, "style"):
            if style.get(W + "type", "paragraph") not in ("paragraph", "numbering"):
                continue
            style_id = style.get(W + "styleId")
            if style_id is None:
                continue
            self._raw[style_id] = style
            if style.get(W + "type", "paragraph") == "paragraph" and attr(style, "default") in ("1", "true"):
                self.default_paragraph = style_id
        self._cache: dict[str | None, StyleInfo] = {}

    def elements(self) -> list[Any]:
        return [self._raw[key] for key in sorted(self._raw)]

    def info(self, style_id: str | None) -> StyleInfo:
        if style_id is None or style_id not in self._raw:
            style_id = self.default_paragraph
        cached = self._cache.get(style_id)
        if cached is not None:
            return cached
        rank = num_id = ilvl = indent = numbered_by = None
        rank_known = False
        current = style_id
        for _ in range(_MAX_CHAIN):
            style = self._raw.get(current) if current is not None else None
            if style is None:
                break
            name = (attr(child(style, "name")) or "").strip().lower()
            ppr = child(style, "pPr")
            if not rank_known:
                rank, rank_known = _rank_of(name, ppr)
            num_pr = child(ppr, "numPr")
            if num_id is None and num_pr is not None and child(num_pr, "numId") is not None:
                num_id = attr(child(num_pr, "numId"))
                ilvl = int_attr(child(num_pr, "ilvl"), None)
                numbered_by = current
            if indent is None:
                indent = left_indent(ppr)
            current = attr(child(style, "basedOn"))
        info = StyleInfo(rank, num_id, ilvl, indent, numbered_by)
        self._cache[style_id] = info
        return info


def _rank_of(name: str, ppr: Any) -> tuple[int | None, bool]:
    """``(rank, decided)``: a heading or title name decides; else a ``w:outlineLvl`` does."""
    if name == "title":
        return 0, True
    match = _HEADING_NAME.fullmatch(name)
    if match:
        return int(match.group(1)), True
    outline = int_attr(child(ppr, "outlineLvl"), None)
    if outline is not None:
        return (outline + 1 if 0 <= outline <= 8 else None), True
    return None, False


def outline_rank(ppr: Any) -> int | bool | None:
    """A paragraph's own ``w:outlineLvl`` as a rank, ``None`` for body text (9), ``False`` when unset."""
    outline = int_attr(child(ppr, "outlineLvl"), None)
    if outline is None:
        return False
    return outline + 1 if 0 <= outline <= 8 else None
