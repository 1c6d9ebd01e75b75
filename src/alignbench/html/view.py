"""The redline as data: one merged reading order of both documents, with every change anchored once.

The new document is walked in order. Under each paired block, the old block's children that did not
stay there (deleted, or moved elsewhere) are shown as "ghosts" right after the sibling they followed
in the old version, so a reader sees a deletion where it was and a move at both ends. Each change of
the Alignment gets exactly one anchor line (``c-N``, N its 1-based position in the JSON change list);
a move also anchors its old position (``c-N-from``), and the two link to each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from alignbench.alignment.model import AlignedPair, Alignment, Change
from alignbench.blocks import Block, BlockTree, normalise
from alignbench.html.locate import Locator, heading_name, section_heading
from alignbench.html.wordiff import Segment, word_diff
from alignbench.readers.drops import dropped_changes, notes
from alignbench.visible import hidden_only

# Indent by clause nesting only: sections are shown by their headings, not by indentation.
_INDENTING = frozenset({"list_item", "table", "row"})


@dataclass
class ChangeView:
    number: int
    kind: str
    source: str | None
    test: str | None
    source_label: str | None
    test_label: str | None
    old_location: str | None
    new_location: str | None
    modified: bool = False  # the engine's flag: an edit, whatever the kind (a renumber can be one too)
    hidden_only: bool = False  # its text changed only in characters nobody can see

    @property
    def anchor(self) -> str:
        return f"c-{self.number}"

    @property
    def from_anchor(self) -> str:
        return f"c-{self.number}-from"

    @property
    def label_change(self) -> str:
        """ "1.3 → 1.2"; a missing label is named, never printed as None or "-"."""
        return f"{self.source_label or '(no label)'} → {self.test_label or '(no label)'}"

    @property
    def also_edited(self) -> bool:
        """An edit the kind would hide: a moved or renumbered block whose content changed too."""
        return self.modified and self.kind in ("move", "renumber")

    @property
    def title(self) -> str:
        """The tooltip: the addresses, for someone matching the page against the JSON."""
        return f"old {self.source or '(none)'} → new {self.test or '(none)'}"


@dataclass
class Line:
    """One row of the page; ``old``/``new`` are the blocks shown on each side (None: that side is empty)."""

    status: str  # same | modify | renumber | insert | delete | move-src | move-dst
    within: str  # "" or the status of the changed subtree this line sits inside
    indent: int
    kind: str
    old: Block | None
    new: Block | None
    old_text: list[Segment] = field(default_factory=list)
    new_text: list[Segment] = field(default_factory=list)
    merged: list[Segment] | None = None  # the inline view's word diff, when the text changed
    change: ChangeView | None = None  # the change anchored on this line
    move: ChangeView | None = None  # the move this line is one end of
    end: str = ""  # "src" or "dst" when ``move`` is set
    line_id: str | None = None
    carried: str = ""  # "section" when this heading line also stands for its section's change
    hidden_only: bool = False  # the two texts differ only in invisible characters (alignbench.visible)

    @property
    def css(self) -> str:
        """The line's classes: its status, the changed subtree it sits in, its kind, a heading level."""
        classes = ["line", f"st-{self.status}"]
        if self.within:
            classes.append(f"in-{self.within}")
        classes.append(f"k-{self.kind}")
        block = self.new or self.old
        if block is not None and block.kind == "heading":
            classes.append(f"h{block.level}")
        return " ".join(classes)

    @property
    def inline_side(self) -> str:
        """Which cell the inline view shows: the merged diff, the old text or the new text."""
        if self.merged is not None or (self.old and self.new and self.old.label != self.new.label):
            return "merged"
        return "new" if self.new is not None else "old"


@dataclass
class Redline:
    old_name: str
    new_name: str
    result: Alignment
    summary: dict[str, Any]  # Alignment.summary(): the counts compare and the JSON print
    changes: list[ChangeView]  # in page order
    lines: list[Line]
    # What each reader dropped (one note per kind and side) and where dropped content differs
    # (readers.drops): shown on the page, never folded into "same".
    drop_notes: list[str] = field(default_factory=list)
    dropped_changes: list[dict[str, Any]] = field(default_factory=list)


def caption(block: Block) -> str:
    """What a container line says: a section by its heading, a table or row by its kind."""
    if block.kind == "section":
        heading = section_heading(block)
        return "section " + heading_name(heading) if heading is not None else "section"
    return block.kind


class _Builder:
    def __init__(self, result: Alignment, old: BlockTree, new: BlockTree) -> None:
        self.old, self.new = old, new
        self.s2t: dict[str, AlignedPair] = {p.source_path: p for p in result.pairs}
        self.t2s: dict[str, AlignedPair] = {p.test_path: p for p in result.pairs}
        old_at, new_at = Locator(old), Locator(new)
        self.views: dict[tuple[str, str | None, str | None], ChangeView] = {}
        self.by_source: dict[str, ChangeView] = {}
        self.by_test: dict[str, ChangeView] = {}
        for number, change in enumerate(result.changes, 1):
            view = _change_view(number, change, old_at, new_at)
            if change.source is not None:
                self.by_source[change.source] = view
            if change.kind == "insert" and change.test is not None:
                self.by_test[change.test] = view
        self.lines: list[Line] = []
        self.order: list[ChangeView] = []
        self.used_ids: set[str] = set()
        self.carry: Line | None = None  # a changed section, waiting to hand its change to its heading

    # -- the new document, with ghosts of the old one interleaved
    def walk_new(self, block: Block, indent: int, within: str) -> None:
        pair = self.t2s.get(block.address)
        if pair is None:
            change = self.by_test.get(block.address)
            self.emit(Line("insert", within, indent, block.kind, None, block), change)
            self.children_new(block, indent, within or "insert")
            return
        source = self.old.find(pair.source_path)
        change = self.by_source.get(source.address)
        status = "same" if change is None else ("move-dst" if change.kind == "move" else change.kind)
        line = Line(status, within, indent, block.kind, source, block)
        if change is not None and change.kind == "move":
            line.move, line.end = change, "dst"
        if block.address != "/":
            self.emit(line, change)
        inner = "move-dst" if status == "move-dst" else within
        self.interleave(source, block, indent, inner)

    def children_new(self, block: Block, indent: int, within: str) -> None:
        step = indent + (block.kind in _INDENTING)
        for child in block.children:
            self.walk_new(child, step, within)

    def interleave(self, source: Block, target: Block, indent: int, within: str) -> None:
        """``target``'s children in order, each followed by the old children that used to follow it."""
        position = {child.address: i for i, child in enumerate(target.children)}
        ghosts: dict[int, list[Block]] = {}
        last = -1
        for child in source.children:
            pair = self.s2t.get(child.address)
            if pair is not None and not pair.moved and pair.test_path in position:
                last = position[pair.test_path]
            else:
                ghosts.setdefault(last, []).append(child)
        step = indent + (target.kind in _INDENTING) if target.address != "/" else indent
        for ghost in ghosts.get(-1, ()):
            self.walk_ghost(ghost, step, "")
        for i, child in enumerate(target.children):
            self.walk_new(child, step, within)
            for ghost in ghosts.get(i, ()):
                self.walk_ghost(ghost, step, "")

    # -- an old subtree shown where it used to be
    def walk_ghost(self, block: Block, indent: int, within: str) -> None:
        pair = self.s2t.get(block.address)
        if pair is not None and not pair.moved:
            return  # re-nested in place (a renumber, not a move): shown, with its subtree, at its partner
        change = self.by_source.get(block.address)
        line = Line("", within, indent, block.kind, block, None)
        if pair is not None and pair.moved:
            line.status, line.move, line.end = "move-src", change, "src"
            anchored = None  # a move is anchored at its destination; here only its from-anchor
        elif not within:
            line.status, anchored = "delete", change
        else:
            line.status, anchored = within, None
        self.emit(line, anchored)
        inner = within or line.status
        step = indent + (block.kind in _INDENTING)
        for child in block.children:
            self.walk_ghost(child, step, inner)

    def emit(self, line: Line, change: ChangeView | None) -> None:
        if line.status == "same" and line.kind in ("section", "table", "row") and not line.within:
            return  # an unchanged container has nothing to say beyond its children
        if change is not None and change.anchor not in self.used_ids:
            line.change, line.line_id = change, change.anchor
            self.order.append(change)
        elif line.end == "src" and line.move is not None and line.move.from_anchor not in self.used_ids:
            line.line_id = line.move.from_anchor
        if line.line_id is not None:
            self.used_ids.add(line.line_id)
        if self.carry is not None:
            carried, self.carry = self.carry, None
            if line.line_id is None and line.move is None:
                # A section's heading speaks for it: one line, not a caption and then the heading.
                line.change, line.line_id, line.move, line.end = (
                    carried.change,
                    carried.line_id,
                    carried.move,
                    carried.end,
                )
                line.carried = carried.kind
            else:
                self._texts(carried)
                self.lines.append(carried)
        block = line.new or line.old
        if block is not None and block.kind == "section" and _headed(block):
            self.carry = line
            return
        self._texts(line)
        self.lines.append(line)

    def _texts(self, line: Line) -> None:
        old_text = _text(line.old) if line.old is not None else None
        new_text = _text(line.new) if line.new is not None else None
        if old_text is not None and new_text is not None and old_text != new_text:
            diff = word_diff(old_text, new_text)
            line.merged, line.old_text, line.new_text = diff.merged, diff.old, diff.new
            if hidden_only(old_text, new_text):
                line.hidden_only = True
                if line.change is not None:
                    line.change.hidden_only = True
            return
        if old_text is not None:
            line.old_text = [("equal", old_text)] if old_text else []
        if new_text is not None:
            line.new_text = [("equal", new_text)] if new_text else []


def _headed(section: Block) -> bool:
    return bool(section.children) and section.children[0].kind == "heading"


def _text(block: Block) -> str:
    return caption(block) if block.is_container else normalise(block.text)


def _change_view(number: int, change: Change, old_at: Locator, new_at: Locator) -> ChangeView:
    return ChangeView(
        number=number,
        kind=change.kind,
        source=change.source,
        test=change.test,
        source_label=change.source_label,
        test_label=change.test_label,
        modified=change.modified,
        old_location=old_at.locate(change.source) if change.source is not None else None,
        new_location=new_at.locate(change.test) if change.test is not None else None,
    )


def build(result: Alignment, old: BlockTree, new: BlockTree, old_name: str, new_name: str) -> Redline:
    """The page's data; raises if a change could not be placed, so nothing is silently left out."""
    builder = _Builder(result, old, new)
    builder.walk_new(new.root, 0, "")
    if builder.carry is not None:  # a section's heading always follows it; never drop a line regardless
        builder._texts(builder.carry)
        builder.lines.append(builder.carry)
    placed = {view.number for view in builder.order}
    missing = [n for n in range(1, len(result.changes) + 1) if n not in placed]
    if missing:  # a broken invariant of the engine, not bad input: fail loudly
        raise AssertionError(f"redline: changes {missing} have no place on the page")
    return Redline(
        old_name=old_name,
        new_name=new_name,
        result=result,
        summary=result.summary(),
        changes=builder.order,
        lines=builder.lines,
        drop_notes=notes(old.drops, old_name) + notes(new.drops, new_name),
        dropped_changes=dropped_changes(old.drops, new.drops),
    )
