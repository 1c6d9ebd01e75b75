"""Operators for the engine failure classes of issue #29: revisions a flat diff gets right and the engine
did not, each reproduced with known truth.

Like the other operator modules, each draws only from explicitly ordered lists with the pair's
``random.Random``, mutates the document in place and returns a :class:`Record`, or ``None`` when the
document offers no target. The stage re-reads every rendering, so an edit the reader would group
otherwise is rolled back, never mislabelled.

- ``demote_heading`` (classes 1 and 6): an unlabelled heading becomes a plain line, its words
  unchanged. Its section dissolves: the line and the section's blocks join the section open before it
  in reading order, as a Markdown reader sees them. Nothing changes place in reading order, so the
  truth has no move; the blocks are re-parented (``Document.reparented``).
- ``promote_line`` (class 6): a short plain line becomes a heading of a new sub-section holding the
  blocks after it, up to the next section: the reverse, again with no move.
- ``rename_heading`` (class 2): a heading reworded ("Cross-border data transfers" becomes
  "International data transfers"), so a renamed section must be found by its content;
  ``section_rewrite``: a section that moved is renamed and half of its text blocks reworded
  (``reworded``: all of them, a third to a half of their words each).
- ``insert_before_edit`` (class 4): a new clause inserted in front of a clause of a numbered run,
  taking its number, and the displaced clause reworded: the old 8.2 (edited, now 8.3) must pair by
  its text, not with the new 8.2 by its label.
- ``row_reorder`` (class 5): a table body row moved two or more rows away (``distant_edit``: and one
  of its cells edited): rows pair by content, not by position.
"""

from __future__ import annotations

from random import Random

from alignbench.generate import banks
from alignbench.generate.model import Document, Unit
from alignbench.generate.operator_kit import (
    Record,
    _cite_changes,
    _entries,
    _labels,
    _new_sentence,
    _runs,
    _shift,
)
from alignbench.generate.reworded_cases import reword_text
from alignbench.generate.text_edits import _clip, _edit_number_pair, _edit_word_substitute, edit_text

PROMOTE_MAX_WORDS = 6  # a line that reads as a title, not a sentence
# Heading rewordings: (word as written, its replacement). Ordered; the first that occurs is used.
HEADING_REWORDS: tuple[tuple[str, str], ...] = (
    ("Cross-border", "International"),
    ("Collect", "Gather"),
    ("Share", "Disclose"),
    ("Sharing", "Disclosure"),
    ("Information", "Data"),
    ("Data", "Information"),
    ("Rights", "Choices"),
    ("Payment", "Billing"),
    ("Term", "Duration"),
    ("Termination", "Ending this Agreement"),
    ("Schedule", "Annex"),
    ("Definitions", "Defined Terms"),
    ("General", "Miscellaneous"),
    ("Supply", "Delivery"),
    ("Price", "Fees"),
    ("Confidentiality", "Confidential Information"),
    ("Liability", "Limits of Liability"),
    ("Security", "Safeguards"),
    ("Contact", "Reach"),
)
HEADING_QUALIFIERS: tuple[str, ...] = ("Our", "General", "Further", "Other")


def _section_depth(doc: Document) -> dict[str, int]:
    """Section uid -> its depth (a top-level section is 1), as the renderer ranks its heading."""
    depth: dict[str, int] = {}

    def visit(unit: Unit, level: int) -> None:
        for child in unit.children:
            if child.kind == "section":
                depth[child.uid] = level + 1
                visit(child, level + 1)
            else:
                visit(child, level)

    visit(doc.root, 0)
    return depth


def _open_section(parent: Unit, index: int) -> Unit:
    """The section the blocks of ``parent.children[index]`` join if its heading is gone: the deepest
    last section of the sibling before it, else ``parent`` itself (in the section's place)."""
    if index == 0 or parent.children[index - 1].kind != "section":
        return parent
    target = parent.children[index - 1]
    while target.children and target.children[-1].kind == "section":
        target = target.children[-1]
    return target


def _block_before(parent: Unit, index: int) -> Unit | None:
    """The block just before ``parent.children[index]`` among its siblings, if any."""
    return parent.children[index - 1] if index else None


def demote_heading(doc: Document, rng: Random, style: str = "plain") -> Record | None:
    """An unlabelled heading of a section with no sub-sections becomes a plain line (see the module)."""
    locked = set(doc.locked)
    depth = _section_depth(doc)
    choices: list[tuple[Unit, int]] = []
    for parent, index, section in _entries(doc, ("section",)):
        kids = section.children
        if parent.kind != "section" or not kids or kids[0].kind != "heading":
            continue  # a top-level heading stays: with it gone the reader would have no section at all
        heading = kids[0]
        if heading.label or not heading.text.strip() or heading.uid in locked:
            continue
        if any(child.kind == "section" for child in kids) or depth[section.uid] < 2:
            continue
        target = _open_section(parent, index)
        last = target.children[-1] if target is not parent else _block_before(parent, index)
        if last is not None and (last.kind == "list_item" or last.label or last.children):
            continue  # a plain line after a clause reads as that clause's continuation
        choices.append((parent, index))
    if not choices:
        return None
    parent, index = rng.choice(choices)
    target = _open_section(parent, index)
    section = parent.children.pop(index)
    heading = section.children[0]
    heading.kind = "paragraph"
    heading.level = 0
    if target is parent:
        parent.children[index:index] = section.children
    else:
        target.children.extend(section.children)
    doc.reparented.extend(child.uid for child in section.children)
    return Record(
        "demote_heading", style, {"heading": heading.uid, "text": _clip(heading.text), "into": target.uid}
    )


def promote_line(doc: Document, rng: Random, style: str = "heading") -> Record | None:
    """A short plain line inside a section becomes the heading of a new sub-section (see the module)."""
    locked = set(doc.locked)
    depth = _section_depth(doc)
    choices: list[tuple[Unit, int]] = []
    for _grand, _i, section in _entries(doc, ("section",)):
        if depth[section.uid] >= 5:
            continue  # the new heading's rank must stay within Markdown's six
        for k, child in enumerate(section.children):
            if k == 0 or child.kind != "paragraph" or child.label or child.children or child.uid in locked:
                continue
            text = " ".join(child.text.split())
            if not 1 <= len(text.split()) <= PROMOTE_MAX_WORDS or text.endswith((".", ";", ",")):
                continue
            choices.append((section, k))
    if not choices:
        return None
    section, k = rng.choice(choices)
    end = k + 1
    while end < len(section.children) and section.children[end].kind != "section":
        end += 1
    line = section.children[k]
    body = section.children[k + 1 : end]
    line.kind = "heading"
    line.level = depth[section.uid] + 1
    new = Unit(doc.new_uid(), "section", None, "", 0, {}, [line, *body])
    section.children[k:end] = [new]
    doc.reparented.extend([line.uid, *(unit.uid for unit in body)])
    return Record("promote_line", style, {"heading": line.uid, "text": _clip(line.text), "blocks": len(body)})


def _reworded(text: str, rng: Random) -> str:
    words = text.split()
    for old, new in HEADING_REWORDS:
        hits = [i for i, word in enumerate(words) if word.strip(",:;") == old]
        if hits:
            i = rng.choice(hits)
            words[i] = words[i].replace(old, new)
            return " ".join(words)
    return f"{rng.choice(HEADING_QUALIFIERS)} {text}"


def rename_heading(doc: Document, rng: Random, style: str = "reword") -> Record | None:
    """A section heading of two words or more reworded (one word replaced, or a qualifier added)."""
    locked = set(doc.locked) | set(doc.reparented)
    headings = [
        unit
        for _p, _i, unit in _entries(doc, ("heading",))
        if len(unit.text.split()) >= 2 and unit.uid not in locked
    ]
    if not headings:
        return None
    heading = rng.choice(headings)
    before = " ".join(heading.text.split())
    heading.text = _reworded(before, rng)
    return Record(
        "rename_heading",
        style,
        {"heading": heading.uid, "before": _clip(before), "after": _clip(heading.text)},
    )


def _reword_block(unit: Unit, rng: Random, style: str) -> None:
    """Edit one block's text in ``style`` (edit_text's), or add a sentence when the style finds nothing."""
    probe = Document(Unit("probe", "document", children=[Unit("probe-1", unit.kind, None, unit.text)]))
    if edit_text(probe, rng, style) is None:
        unit.text = unit.text + " " + _new_sentence(rng)
    else:
        unit.text = probe.root.children[0].text


def _reword_throughout(unit: Unit, rng: Random) -> bool:
    """A third to a half of the block's words replaced by spliced phrases; False when it is too short."""
    result = reword_text(unit.text, rng, "light")
    if result is None:
        return False
    unit.text = result[0]
    return True


def section_rewrite(doc: Document, rng: Random, style: str = "partial") -> Record | None:
    """A section that moved is renamed and about half of its own text blocks reworded: the section
    must be found by what is left of its content, not by its place or its title. ``reworded``: every
    text block of ten words or more loses a third to a half of its words to spliced phrases
    (:func:`reworded_cases.reword_text`, ``light``), so no clause is left the move pass could take
    alone - a section moved and revised throughout, found only by its name and its body together."""
    moved = set(doc.section_moves)
    sections = [
        unit
        for _p, _i, unit in _entries(doc, ("section",))
        if unit.children and unit.children[0].uid in moved and unit.children[0].uid not in doc.locked
    ]
    if not sections:
        return None
    section = rng.choice(sections)
    heading = section.children[0]
    before = " ".join(heading.text.split())
    if before:
        heading.text = _reworded(before, rng)
    blocks = [c for c in section.children[1:] if c.kind in ("paragraph", "list_item") and c.words >= 8]
    if style == "reworded":
        chosen = [k for k, block in enumerate(blocks) if _reword_throughout(block, rng)]
    else:
        chosen = sorted(rng.sample(range(len(blocks)), (len(blocks) + 1) // 2)) if blocks else []
        for k in chosen:
            _reword_block(blocks[k], rng, rng.choice(("word_substitute", "sentence_insert")))
    return Record(
        "section_rewrite",
        style,
        {
            "heading": heading.uid,
            "before": _clip(before),
            "after": _clip(heading.text),
            "edited": len(chosen),
        },
    )


def insert_before_edit(doc: Document, rng: Random, style: str = "word_substitute") -> Record | None:
    """A new clause takes the number of a clause it is inserted before; that clause is reworded (its
    ``style`` is the edit_text style) and renumbered with the rest of its run. With ``lookalike`` the
    new clause is drafted from the old one (its first half, then a new sentence), so the label's pull
    toward it is backed by some text, while the reworded old clause still matches far better."""
    locked = set(doc.locked) | set(doc.moved)
    choices = [
        (parent, end, k)
        for parent, start, end in _runs(doc, min_len=2)
        for k in range(start, end)
        if parent.children[k].words >= 8 and parent.children[k].uid not in locked
    ]
    if not choices:
        return None
    parent, end, k = rng.choice(choices)
    before = _labels(doc)
    displaced = parent.children[k]
    label = displaced.label
    _shift(parent, k, end, +1)
    original = " ".join(displaced.text.split())
    _reword_block(displaced, rng, "word_substitute" if style == "lookalike" else style)
    text = _new_sentence(rng)
    if style == "lookalike":  # drafted from the clause it precedes: its first half, then new words
        words = original.split()
        text = " ".join(words[: len(words) // 2]) + " " + text
    new = Unit(doc.new_uid(), displaced.kind, label, text, displaced.level, {})
    parent.children.insert(k, new)
    cited = _cite_changes(doc, before, skip=(new.uid, displaced.uid))
    return Record(
        "insert_before_edit",
        style,
        {"unit": new.uid, "label": label, "displaced": displaced.uid, "to": displaced.label, "cited": cited},
    )


def row_reorder(doc: Document, rng: Random, style: str = "distant") -> Record | None:
    """A table body row moved at least two rows away, header rows staying first; with
    ``distant_edit`` one of its cells is also edited, so only its other cells can find it."""
    choices = []
    for _p, _i, table in _entries(doc, ("table",)):
        body = [
            i for i, row in enumerate(table.children) if row.kind == "row" and not row.attrs.get("header")
        ]
        rows = [table.children[i] for i in body]
        if len({tuple(" ".join(c.text.split()) for c in row.children) for row in rows}) != len(rows):
            continue  # identical rows cannot be told apart: the truth would be a guess
        choices += [
            (table, body, a, b) for a in range(len(body)) for b in range(len(body)) if abs(a - b) >= 2
        ]
    if not choices:
        return None
    table, body, a, b = rng.choice(choices)
    rows = [table.children[i] for i in body]
    row = rows.pop(a)
    rows.insert(b, row)
    for slot, moved in zip(body, rows, strict=True):
        table.children[slot] = moved
    doc.moved.append(row.uid)
    edited = None
    if style == "distant_edit":
        cells = [cell for cell in row.children if cell.text.strip()]
        if not cells:
            return None
        cell = rng.choice(cells)
        old = cell.text
        new = _edit_number_pair(old, rng) or _edit_word_substitute(old, rng)
        if new is None or new == old:
            new = rng.choice([word for word in banks.CELL_WORDS if word != old])
        cell.text, edited = new, cell.uid
    return Record("row_reorder", style, {"row": row.uid, "from": a + 1, "to": b + 1, "edited_cell": edited})


REVISION_OPERATORS = {
    "demote_heading": demote_heading,
    "promote_line": promote_line,
    "rename_heading": rename_heading,
    "section_rewrite": section_rewrite,
    "insert_before_edit": insert_before_edit,
    "row_reorder": row_reorder,
}
REVISION_STYLES: dict[str, tuple[str, ...]] = {
    "demote_heading": ("plain",),
    "promote_line": ("heading",),
    "rename_heading": ("reword",),
    "insert_before_edit": ("word_substitute", "sentence_insert", "lookalike"),
    "section_rewrite": ("partial", "reworded"),
    "row_reorder": ("distant", "distant_edit"),
}
