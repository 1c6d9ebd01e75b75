"""The one tree builder: sections from headings, clause nesting from labels, continuations attached.

Both readers feed it the same unit stream, so tree shape is decided in exactly one place.

- A heading of rank r closes every open section of rank >= r and opens a section holding the
  heading as its first child. Sections come from nothing else.
- A labelled paragraph becomes a ``list_item``. Its numbering style decides its place: a style that
  is already open makes it a sibling of that clause (closing the deeper ones); a decimal label nests
  under the open decimal whose number prefixes it (``3.1`` under ``3``); a new style nests inside
  the innermost open clause.
- ``(i)``/``I.`` resolve to a letter when they continue an open letter sequence (``(h)`` -> ``(i)``)
  and to a roman numeral otherwise (``(i)`` under ``7.2``).
- Unlabelled paragraphs and tables attach to the innermost open clause, or to the section; in text, a
  paragraph indented less than open clauses first closes them (CC 3.0's closing words of clause 3),
  and one at or left of a bullet's column closes the bullet (profile
  ``closed_by_outdented_paragraph``): a paragraph after a bullet list is not in its last item, while
  a flush-left paragraph after a numbered clause still continues that clause.
- In Markdown, containment is CommonMark's: an unlabelled block, a heading or a list item closes
  every open clause whose list item or block quote does not hold it (a paragraph after a list is
  not inside its last item). The first block of a list item is that item: the sibling of an open
  item of the same style at the same list depth, else nested in the innermost clause still open.
  A labelled paragraph is placed by the clause grammar, as in its text twin.
- A bullet makes a list item with no label. A candidate label that starts or continues no sequence in
  the document (``label_grammar.continues_a_sequence``) is read as text.
- Nesting deeper than ``MAX_DEPTH`` levels fails with an error naming the line, so no consumer of a
  tree ever meets a recursion limit.

``level`` is the depth in the document's own numbering: a heading's depth in the outline of
sections (ranks only order headings, so a profile may space them freely); a decimal label's
component count; otherwise one deeper than the enclosing clause (or the heading's decimal depth,
which reset headings such as Schedule set back to 0).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from alignbench.blocks import EMPTY_ATTRS, Block
from alignbench.errors import AlignbenchError
from alignbench.readers.label_grammar import LabelMatch, Style, continues_a_sequence
from alignbench.readers.profiles import Profile
from alignbench.readers.tree_nodes import Node, adopt, make_node
from alignbench.readers.units import MAX_DEPTH, Unit, numbering_of

_DIGITS = re.compile(r"[0-9]+")


# An open clause: a plain tuple, read by position, made once per clause read and never changed (a named
# tuple's construction, through ``tuple.__new__``'s slot wrapper, cost twice a plain tuple's).
_OpenClause = tuple[
    Node,  # NODE
    Style,  # STYLE
    int | None,  # INDENT
    tuple[int, ...] | None,  # PATH: the Markdown containers holding the clause (its own item included)
    int | None,  # ITEM_DEPTH: for a Markdown list item, how many list items hold it (itself included)
]
NODE, STYLE, INDENT, PATH, ITEM_DEPTH = range(5)


# An open section: a plain tuple, read by position, made once per heading and never changed.
_OpenSection = tuple[
    Node,  # NODE
    int,  # RANK
    int,  # BASE_LEVEL
    Style | None,  # DECIMAL: the numbering of a decimal-labelled heading (``1. Definitions``)
]
RANK, BASE_LEVEL, DECIMAL = 1, 2, 3


def resolve_style(label: LabelMatch, open_clauses: list[_OpenClause]) -> Style:
    """Pick letter or roman for an ambiguous label from the numbering already open."""
    if len(label.candidates) == 1:
        return label.candidates[0]
    for candidate in label.candidates:
        for clause in reversed(open_clauses):
            if clause[STYLE].key == candidate.key and clause[STYLE].ordinal == candidate.ordinal - 1:
                return candidate
    alpha = next(c for c in label.candidates if c.key.endswith(":alpha"))
    roman = next(c for c in label.candidates if c.key.endswith(":roman"))
    if roman.ordinal == 1:
        return roman
    for clause in reversed(open_clauses):
        if clause[STYLE].key == roman.key:
            return roman
        if clause[STYLE].key == alpha.key:
            return alpha
    return alpha


class _Builder:
    def __init__(self, profile: Profile, source: str) -> None:
        self.profile = profile
        self.source = source
        self.root = make_node("document")
        self.root.children = []
        self.sections: list[_OpenSection] = []
        self.clauses: list[_OpenClause] = []

    def _container(self) -> Node:
        return self.sections[-1][NODE] if self.sections else self.root

    def _base_level(self) -> int:
        return self.sections[-1][BASE_LEVEL] if self.sections else 0

    def build(self, stream: list[Unit]) -> None:
        """Place every unit of ``stream``, in order; the list is consumed (see :func:`build_tree`).

        The whole per-unit path is this one loop, the builder's state in locals: it runs once per block
        of every document read, and a method call per step was a third of the time of building a tree.
        A clause (the common unit) is placed here; rarer units go to their methods.
        """
        seen, numbers = numbering_of(stream)
        clauses = self.clauses
        sections = self.sections
        continues = continues_a_sequence
        stream.reverse()  # popped from the end, in document order
        pop = stream.pop
        while stream:
            unit = pop()
            # One unpacking, not a lookup per field: a named tuple's field is a descriptor lookup.
            # A unit is read by position only: the simple Markdown path hands plain tuples (units.Unit).
            kind, text, label, rank, _, path, structural, item_depth, indent, _, _, attrs = unit
            # (structural: a Markdown list item, which CommonMark already placed)
            if label is not None:
                # The label's fields in one unpacking (a named tuple's field name is a descriptor call).
                written, label_kind, candidates, _, _, _, decimal_depth, _, _ = label
                # A decimal sub-clause that is the first of its number or whose parent number is in the
                # document (``3.2`` with ``3``) continues a sequence: continues_a_sequence's commonest
                # answer, known here without its call. Any other label is asked; a list item's marker
                # labels it whatever follows (structural).
                if not structural and not (
                    decimal_depth > 1
                    and label_kind == "decimal"
                    and (candidates[0][1] == 1 or written.rpartition(".")[0] in numbers)
                ):
                    styles = continues(label, seen, numbers)
                    if styles is not candidates and styles != candidates:
                        label, text = _narrowed(label, styles, text)
                        if label is not None:
                            written, label_kind, candidates, _, _, _, decimal_depth, _, _ = label
            if path is not None and (label is None or structural):
                # A labelled paragraph outside a list is placed by the clause grammar instead, as in its
                # text twin: a flush-left `a.` after `6. Subprocessors.` is still clause 6's `a`.
                self._close_outside(path)
            if label is None or kind != "paragraph":
                if kind == "heading":
                    self._heading(text, label, rank, attrs)
                    if len(sections) + len(clauses) >= MAX_DEPTH and stream:
                        raise self._too_deep(stream[-1])
                elif kind == "table":
                    self._attach(self._table(unit))
                else:  # an unlabelled paragraph
                    self._close_indented_deeper(indent, slack=0)
                    self._close_outdented_items(indent)
                    self._attach(make_node("paragraph", text=text, attrs=dict(attrs)))
                continue
            # A clause (its label's fields unpacked above). Open records' fields are read by index.
            decimal = 0 if structural else decimal_depth
            style = candidates[0]
            top = clauses[-1] if clauses else None
            if (
                top is not None
                and top[1][0] == style[0]  # top.style.key == style.key
                and len(candidates) == 1
                and (
                    top[4] == item_depth  # (ITEM_DEPTH)
                    if structural
                    else indent is None or indent - 1 <= _indent(top) <= indent + 1
                )
            ):
                # The next sibling of the innermost open clause, the commonest clause of all: the sections
                # stay open, no clause is indented deeper than this one's slack, and the search below
                # would find that clause first, so the outcome is known. Only the search is skipped; the
                # clause is made and placed as any other.
                del clauses[-1]
                sibling = True
            else:
                sibling = False
                if (
                    decimal
                    and sections
                    and sections[-1][DECIMAL] is not None
                    and not (clauses and clauses[-1][STYLE].key == style.key)
                ):  # (an open clause of the same style keeps the sections open)
                    self._close_numbered_sections(style)
                if indent is not None:
                    # One column of slack: right-aligned numerals (`` ii.``/``iii.``) and sloppy text.
                    self._close_indented_deeper(indent, slack=1)
                if len(candidates) > 1:
                    style = resolve_style(label, clauses)
                key = style.key
                same = None
                for index in range(len(clauses) - 1, -1, -1):
                    clause = clauses[index]
                    if clause[STYLE].key != key:
                        continue
                    if structural and clause[ITEM_DEPTH] != item_depth:
                        continue  # a list item's sibling is an item of the same style at the same list depth
                    if indent is not None and _indent(clause) < indent - 1:
                        continue  # the same style further out is an ancestor (CC licences: a. > 1. > a.)
                    same = index
                    break
                if same is not None:
                    del clauses[same:]
                elif decimal:
                    self._close_to_shallower_decimal(label)
            level = decimal or (clauses[-1][0].level if clauses else self._base_level()) + 1
            # make_node("list_item", ...) without the call: its slots filled directly, once per clause read.
            node = Node()
            node.kind = "list_item"
            node.label = None if label_kind == "bullet" else written  # label.block_label, inline
            node.text = text
            node.level = level
            node.attrs = dict(attrs) if attrs else EMPTY_ATTRS
            node.children = ()  # type: ignore[assignment]  # a list once it adopts a child (adopt)
            if clauses:  # adopt(clauses[-1].node, node), inline: once per nested clause read
                parent = clauses[-1][0]  # .node
                if parent.children.__class__ is list:
                    parent.children.append(node)
                else:
                    parent.children = [node]
            else:  # the section's or the document's own clause (self._container(), inline: commonest)
                (sections[-1][0] if sections else self.root).children.append(node)  # (.node)
            clauses.append((node, style, indent, path, item_depth if structural else None))  # (_OpenClause)
            # Only a heading or a clause that is not a sibling can deepen the tree: the depth is checked
            # there, naming the unit that would go deeper, not once per unit.
            if not sibling and len(sections) + len(clauses) >= MAX_DEPTH and stream:
                raise self._too_deep(stream[-1])

    def _too_deep(self, unit: Unit) -> AlignbenchError:
        return AlignbenchError(
            f"{self.source}: line {unit[4]}: nesting deeper than {MAX_DEPTH} levels; "
            "a legal document nests a dozen at most, so check that this is the right file"
        )

    def _close_outside(self, path: tuple[int, ...]) -> None:
        """Close the clauses whose Markdown list item or block quote does not hold ``path``."""
        while self.clauses:
            held = self.clauses[-1][PATH]
            if held is None or path[: len(held)] == held:
                return
            self.clauses.pop()

    def _attach(self, node: Node) -> None:
        if self.clauses:
            adopt(self.clauses[-1][NODE], node)
        else:
            self._container().children.append(node)

    def _heading(self, text: str, label: LabelMatch | None, rank: int, attrs: Mapping[str, Any]) -> None:
        sections = self.sections
        while sections and sections[-1][RANK] >= rank:
            sections.pop()
        self.clauses.clear()
        depth = len(sections) + 1
        # The heading and its section made without Node's keyword call (once per section read); empty
        # attrs are the shared empty mapping freezing would give them.
        heading = Node()
        heading.kind = "heading"
        heading.label = label.block_label if label else None
        heading.text = text
        heading.level = depth
        heading.attrs = dict(attrs) if attrs else EMPTY_ATTRS
        heading.children = ()  # type: ignore[assignment]
        section = Node()
        section.kind = "section"
        section.label = None
        section.text = ""
        section.level = depth
        section.attrs = EMPTY_ATTRS
        section.children = [heading]
        (sections[-1][NODE] if sections else self.root).children.append(section)
        if label is None or (label.word and label.word in self.profile.reset_words):
            base = 0
        elif label.decimal_depth:
            base = label.decimal_depth
        else:
            base = self._base_level() + 1
        decimal = label.candidates[0] if label is not None and label.decimal_depth else None
        sections.append((section, rank, base, decimal))  # (_OpenSection)

    def _close_indented_deeper(self, indent: int | None, slack: int) -> None:
        """Text indented ``indent`` columns, less than open clauses (beyond ``slack``), closes them."""
        if indent is not None:
            while self.clauses and _indent(self.clauses[-1]) > indent + slack:
                self.clauses.pop()

    def _close_outdented_items(self, indent: int | None) -> None:
        """A text paragraph at or left of a bullet's column closes it (profile
        ``closed_by_outdented_paragraph``), and any clause it leaves indented deeper than the paragraph.
        """
        closing = self.profile.closed_by_outdented_paragraph
        if indent is None or not closing:
            return
        while self.clauses:
            clause = self.clauses[-1]
            deeper = _indent(clause) > indent
            closed_here = _indent(clause) == indent and _style_in(clause[STYLE].key, closing)
            if not (deeper or closed_here):
                return
            self.clauses.pop()

    def _close_numbered_sections(self, style: Style) -> None:
        """A clause that continues a heading's numbering is that heading's sibling, not its child.

        CC BY 3.0 heads ``1. Definitions`` but writes ``2. Fair Dealing Rights. Nothing ...`` as a
        clause: the clause closes section ``1`` (and what it holds). Only sections headed by decimal
        labels are searched, innermost first, and only when no clause of the same style is open.
        """
        if not self.sections or self.sections[-1][DECIMAL] is None:
            return
        key = style.key
        for clause in self.clauses:
            if clause[STYLE].key == key:
                return
        for index in range(len(self.sections) - 1, -1, -1):
            numbering = self.sections[index][DECIMAL]
            if numbering is None:
                return
            if numbering.key == style.key:
                if numbering.ordinal < style.ordinal:
                    del self.sections[index:]
                    self.clauses.clear()
                return

    def _close_to_shallower_decimal(self, label: LabelMatch) -> None:
        """Keep open only the decimal clause whose number prefixes this one (``3`` for ``3.1``)."""
        if not self.clauses:
            return  # (a section's first clause: nothing to close)
        numbers = _numbers(label.label)
        decimal_levels = [i for i, c in enumerate(self.clauses) if c[STYLE].key.startswith(f"{label.kind}:")]
        parents = [
            i
            for i in decimal_levels
            if numbers[: len(_numbers(self.clauses[i][NODE].label))] == _numbers(self.clauses[i][NODE].label)
            and len(_numbers(self.clauses[i][NODE].label)) < len(numbers)
        ]
        if parents:
            del self.clauses[parents[-1] + 1 :]
        elif decimal_levels:
            del self.clauses[decimal_levels[0] :]

    @staticmethod
    def _table(unit: Unit) -> Node:
        table = make_node("table", attrs={"columns": max((len(r) for r in unit.rows), default=0)})
        for index, cells in enumerate(unit.rows):
            row = make_node("row", attrs={"header": True} if unit.header and index == 0 else None)
            if cells:
                row.children = [make_node("cell", text=text) for text in cells]
            adopt(table, row)
        return table


def _style_in(key: str, entries: frozenset[str]) -> bool:
    """Whether a numbering style (``closed:lower:roman``) is named by an entry: its kind (``closed``)
    or its kind and more of its key (``closed:lower``)."""
    return any(key == entry or key.startswith(entry + ":") for entry in entries)


def _numbers(label: str | None) -> list[str]:
    return _DIGITS.findall(label or "")


def _indent(clause: _OpenClause) -> int:
    indent = clause[INDENT]
    return indent if indent is not None else 0


def _narrowed(label: LabelMatch, styles: tuple[Style, ...], text: str) -> tuple[LabelMatch | None, str]:
    """A unit's label and text once its candidate label is narrowed to ``styles``, the ones that
    continue a sequence (:func:`continues_a_sequence`), or read as text when none does."""
    if styles:
        return label._replace(candidates=styles), text
    return None, label.text or text


def build_tree(units: Iterable[Unit], profile: Profile, source: str = "<text>") -> Block:
    """Turn a unit stream into the document block, addresses included.

    A list is consumed (left empty): each unit is dropped from it once placed, so a long document's
    units (their label matches, styles and source lines) are freed as its tree grows, not all held
    at its peak.
    """
    stream = units if isinstance(units, list) else list(units)
    del units
    builder = _Builder(profile, source)
    builder.build(stream)
    return builder.root.freeze()
