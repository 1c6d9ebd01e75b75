"""The unit stream of a Word body: headings from styles, clauses from numbering, tables as tables.

It emits the stream the Markdown reader does (``readers.units``), so ``readers.nesting`` builds the
tree and a Word document gets the shape of its Markdown twin:

- a heading style (``Title`` rank 0, ``Heading N`` or outline level N-1 rank N) makes a heading; its
  label is its automatic number, else a heading label typed in its text (``1. Definitions``);
- an automatically numbered paragraph is a list item, as a Markdown list item is: its label is the
  number Word shows, its numbering style is its list and level, and its containers (``path``) are
  the list items it is nested under by level. A bullet level makes an item with no label;
- a paragraph indented at least as far as an open item's text continues that item (a second
  paragraph of a list item); otherwise it closes the lists, and a number typed in its text goes
  through the label grammar as any Markdown paragraph does;
- a table is a table of rows of cells, each cell's paragraphs joined (numbers included).

A paragraph whose mark is deleted (accepted view) or inserted (original view) runs on into the
next one, as Word shows it once the revision is accepted or rejected.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from alignbench.blocks import EMPTY_ATTRS
from alignbench.readers.label_grammar import LabelMatch, Style, bullet_match, match_label
from alignbench.readers.profiles import Profile
from alignbench.readers.units import Line, Unit, group_clause_lines, join_lines
from alignbench.readers.word.numbering import Numbering, Rendered
from alignbench.readers.word.runs import ACCEPTED, ORIGINAL, ParagraphText
from alignbench.readers.word.styles import Styles, outline_rank
from alignbench.readers.word.xml import W, attr, child, children, ind_left, int_attr, is_on

_RPR, _PPR_CHANGE, _PSTYLE, _OUTLINE, _NUMPR, _IND = (
    W + name for name in ("rPr", "pPrChange", "pStyle", "outlineLvl", "numPr", "ind")
)


def _by_tag(element: Any) -> dict[str, Any]:
    return {} if element is None else {node.tag: node for node in element}


# Twips of slack when a paragraph's indentation is compared with an item's text column.
_INDENT_SLACK = 36


@dataclass(slots=True)
class _OpenItem:
    key: str
    level: int
    text_indent: int
    item_id: int


class BodyReader:
    """One pass over a document body; numbering counters advance in reading order."""

    def __init__(
        self, styles: Styles, numbering: Numbering, profile: Profile, view: str, dropped: Counter[str]
    ) -> None:
        self.styles = styles
        self.numbering = numbering
        self.profile = profile
        self.view = view
        self.dropped = dropped
        self.units: list[Unit] = []
        self.open_items: list[_OpenItem] = []
        self.next_item = 0
        self.paragraph_number = 0
        self.carried = ""  # text of paragraphs whose mark the view removes, run on into the next
        self.shown: list[str] = []  # every number shown, as Word shows it (``•`` for a bullet)
        self.bold_candidates: list[int] = []  # units that are a short all-bold paragraph

    def read(self, body: Any) -> list[Unit]:
        self._blocks(body)
        if self.carried:
            self._paragraph_unit(self.carried, None, None, None, 0)
        self._bold_headings()
        return self.units

    def _bold_headings(self) -> None:
        """A short paragraph that is bold from end to end, followed by body text, is a heading: the rule
        the Markdown reader applies to ``**Payment Terms**`` (``headings.bold_paragraph_rank``), so a
        document reads the same from Markdown and from the Word file made of it."""
        rank = self.profile.headings.bold_paragraph_rank
        for index in self.bold_candidates:
            unit = self.units[index]  # read by position: a reader may hand a plain tuple (units.Unit)
            following = self.units[index + 1] if index + 1 < len(self.units) else None
            if (
                unit[0] == "paragraph"
                and unit[2] is None
                and following is not None
                and following[0] in ("paragraph", "table")
            ):
                self.units[index] = Unit("heading", text=unit[1], rank=rank, line=unit[4], path=())

    def _blocks(self, container: Any) -> None:
        for node in container:
            tag = node.tag
            if tag == W + "p":
                self._paragraph(node)
            elif tag == W + "tbl":
                self._table(node)
            elif tag == W + "sdt":
                content = child(node, "sdtContent")
                if content is not None:
                    self._blocks(content)
            elif tag in (W + "customXml", W + "ins", W + "moveTo"):
                if self.view == ACCEPTED or tag == W + "customXml":
                    self._blocks(node)
            elif tag in (W + "del", W + "moveFrom") and self.view == ORIGINAL:
                self._blocks(node)

    def _properties(self, paragraph: Any) -> dict[str, Any]:
        """The paragraph properties in this view, by tag (one pass over ``w:pPr``, then dict lookups:
        a paragraph asks for half a dozen of them)."""
        props = _by_tag(child(paragraph, "pPr"))
        if self.view == ORIGINAL:
            change = child(props.get(_PPR_CHANGE), "pPr")
            if change is not None:
                return {**_by_tag(change), _RPR: props.get(_RPR)}
        return props

    def _mark_removed(self, props: dict[str, Any]) -> bool:
        """Whether this view removes the paragraph's mark, running it on into the next paragraph."""
        rpr = props.get(_RPR)
        if rpr is None:
            return False
        return child(rpr, "del" if self.view == ACCEPTED else "ins") is not None

    def _paragraph(self, paragraph: Any) -> None:
        self.paragraph_number += 1
        collector = ParagraphText(self.view, self.dropped)
        collector.walk(paragraph)
        text = collector.text()
        props = self._properties(paragraph)
        if self._mark_removed(props):
            self.carried = f"{self.carried}\n{text}".strip("\n")
            return
        if self.carried:
            text = f"{self.carried}\n{text}".strip("\n")
            self.carried = ""
        style_id = attr(props.get(_PSTYLE))
        style = self.styles.info(style_id)
        rank = outline_rank(props.get(_OUTLINE))
        if rank is False:
            rank = style.rank
        rendered, text_indent = self._number(props, style_id, style)
        indent = ind_left(props.get(_IND))
        if indent is None:
            indent = text_indent if rendered is not None else style.indent
        if rendered is not None and not rendered.marker:
            rendered = None  # numbered with nothing shown: a continuation paragraph at the level's indent
        if rank is not None:
            self._heading_unit(" ".join(text.split("\n")), rendered, rank)
            return
        if rendered is None and collector.all_bold and self._bold_title(text):
            self.bold_candidates.append(len(self.units))
        self._paragraph_lines(text, rendered, text_indent, indent, self.paragraph_number)

    def _paragraph_lines(
        self, text: str, rendered: Rendered | None, text_indent: int, indent: int | None, line: int
    ) -> None:
        """A paragraph with line breaks is split into clauses as a Markdown paragraph's source lines are
        (``units.group_clause_lines``): a label at the start of a line after a sentence opens one."""
        lines = text.split("\n") if text else [""]
        if len(lines) == 1:
            self._paragraph_unit(lines[0], rendered, text_indent, indent, line)
            return
        groups = group_clause_lines([Line(0, part, line) for part in lines], self.profile)
        self._paragraph_unit(join_lines(groups[0]), rendered, text_indent, indent, line)
        path = tuple(item.item_id for item in self.open_items)
        for group in groups[1:]:
            joined = join_lines(group)
            label = match_label(joined, self.profile)
            if label is not None:
                self.units.append(Unit("paragraph", text=label.rest, label=label, line=line, path=path))
            else:
                self.units.append(Unit("paragraph", text=joined, line=line, path=path))

    def _bold_title(self, text: str) -> bool:
        """One short line that does not end a sentence: what a bold paragraph must be to head."""
        rules = self.profile.headings
        title = text.strip()
        return (
            bool(rules.bold_paragraph_rank)
            and bool(title)
            and "\n" not in title
            and not title.endswith((".", ",", ";", "!", "?"))
            and len(title) <= rules.max_chars
            and len(title.split()) <= rules.max_words
        )

    def _number(self, props: dict[str, Any], style_id: str | None, style: Any) -> tuple[Rendered | None, int]:
        """The paragraph's rendered number (advancing the counters) and its text column in twips."""
        num_pr = props.get(_NUMPR)
        num_id = attr(child(num_pr, "numId")) if num_pr is not None else None
        ilvl = int_attr(child(num_pr, "ilvl"), None) if num_pr is not None else None
        if num_id is None:
            num_id = style.num_id
            if ilvl is None:
                ilvl = style.ilvl
            if num_id is not None and ilvl is None:
                ilvl = self.numbering.level_for_style(num_id, style.numbered_by or style_id or "")
        if num_id is None or num_id == "0":
            return None, 0
        rendered = self.numbering.render(num_id, ilvl or 0)
        if rendered is None:
            return None, 0
        if rendered.marker:
            self.shown.append("•" if rendered.bullet else rendered.label)
        indent = ind_left(props.get(_IND))
        if indent is None:
            indent = rendered.indent if rendered.indent is not None else style.indent
        return rendered, indent or 0

    def _heading_unit(self, text: str, rendered: Rendered | None, rank: int) -> None:
        self.open_items.clear()
        if not text and (rendered is None or not rendered.label):
            return
        # A label typed in the text wins over the automatic number, as in a Markdown list item.
        label: LabelMatch | None = None
        typed = match_label(text, self.profile, heading=True) if text else None
        if typed is not None and typed.kind in self.profile.headings.labelled_kinds:
            label, text = typed, typed.rest
        elif rendered is not None and rendered.label:
            label = self._label(rendered, text, heading=True)
        self.units.append(
            Unit("heading", text=text, label=label, rank=rank, line=self.paragraph_number, path=())
        )

    def _label(self, rendered: Rendered, text: str, heading: bool = False) -> LabelMatch:
        """The label match of a rendered number: the grammar's reading when it reads the same label
        (so ``1.`` is the decimal ``1`` a typed number would be), in the list's own numbering style."""
        style = (Style(f"word:{rendered.list_key}:{rendered.level}", rendered.ordinal),)
        shown = rendered.label
        typed = match_label(f"{shown} {text}" if text else shown, self.profile, heading=heading)
        if typed is not None and typed.rest == text:
            return typed._replace(candidates=style, text=text)
        written = shown[:-1] if shown.endswith(".") and len(shown) > 1 else shown
        return LabelMatch(written, "word", style, text, text=text)

    def _paragraph_unit(
        self, text: str, rendered: Rendered | None, text_indent: int | None, indent: int | None, line: int
    ) -> None:
        if rendered is None:
            if not text:
                return
            while self.open_items and (indent or 0) + _INDENT_SLACK < self.open_items[-1].text_indent:
                self.open_items.pop()
            path = tuple(item.item_id for item in self.open_items)
            label = match_label(text, self.profile)
            if label is not None:
                self.units.append(Unit("paragraph", text=label.rest, label=label, line=line, path=path))
            else:
                self.units.append(Unit("paragraph", text=text, line=line, path=path))
            return
        while self.open_items and self.open_items[-1].level >= rendered.level:
            self.open_items.pop()
        self.next_item += 1
        self.open_items.append(_OpenItem(rendered.list_key, rendered.level, text_indent or 0, self.next_item))
        path = tuple(item.item_id for item in self.open_items)
        # A label typed at the start of the item's text wins over its automatic number or bullet, as
        # in a Markdown list item (``1. 1.1 Access and Use.``); the marker is kept in ``list_marker``.
        typed = match_label(text, self.profile) if text else None
        attrs: dict[str, str] | Any = EMPTY_ATTRS
        if typed is not None:
            label, text = typed, typed.rest
            attrs = {"list_marker": "•" if rendered.bullet else rendered.label}
        elif rendered.bullet:
            style = Style(f"word:{rendered.list_key}:{rendered.level}", 0)
            label = bullet_match("•", text)._replace(candidates=(style,))
        else:
            label = self._label(rendered, text)
        self.units.append(
            Unit(
                "paragraph",
                text=text,
                label=label,
                line=line,
                path=path,
                opens_item=True,
                item_depth=len(self.open_items),
                attrs=attrs,
            )
        )

    def _table(self, table: Any) -> None:
        self.open_items.clear()
        rows: list[tuple[str, ...]] = []
        header = False
        for index, row in enumerate(children(table, "tr")):
            if index == 0:
                header = is_on(child(child(row, "trPr"), "tblHeader"))
            rows.append(tuple(self._cell_text(cell) for cell in _cells(row)))
        if rows:
            self.units.append(
                Unit("table", rows=tuple(rows), header=header, line=self.paragraph_number + 1, path=())
            )

    def _cell_text(self, cell: Any) -> str:
        """A cell's paragraphs, numbers included, joined with spaces; nested tables flattened."""
        parts: list[str] = []
        for paragraph in cell.iter(W + "p"):
            collector = ParagraphText(self.view, self.dropped)
            collector.walk(paragraph)
            text = collector.text().replace("\n", " ")
            props = self._properties(paragraph)
            style_id = attr(props.get(_PSTYLE))
            rendered, _ = self._number(props, style_id, self.styles.info(style_id))
            if rendered is not None and rendered.label:
                text = f"{rendered.label} {text}".strip()
            if text:
                parts.append(text)
        return " ".join(parts)


def _cells(row: Any) -> list[Any]:
    """A row's cells, including those wrapped in content controls or custom XML."""
    cells = []
    for node in row:
        if node.tag == W + "tc":
            cells.append(node)
        elif node.tag in (W + "sdt", W + "customXml"):
            cells.extend(node.iter(W + "tc"))
    return cells
