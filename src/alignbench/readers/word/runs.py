"""The visible text of one Word paragraph, in the accepted or the original view of its revisions.

What a reader would not see as clause text is left out and counted, never lost silently:
tracked deletions (accepted view) or insertions (original view), hidden text, field instructions
(the field's result is kept: a cross-reference shows ``Section 4``), comment marks, footnote and
endnote reference marks, and text boxes floating beside the paragraph.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from alignbench.readers.word.xml import W, child, is_on

ACCEPTED = "accepted"
ORIGINAL = "original"
REVISION_VIEWS: tuple[str, ...] = (ACCEPTED, ORIGINAL)

_M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
# Containers whose children are the paragraph's own content, in order.
_TRANSPARENT = frozenset(
    W + name for name in ("hyperlink", "smartTag", "customXml", "dir", "bdo", "sdtContent", "fldSimple")
)
_INSERTED = frozenset({W + "ins", W + "moveTo"})
_DELETED = frozenset({W + "del", W + "moveFrom"})
_SPACE_LIKE = frozenset({W + "tab", W + "ptab"})
# A page or column break is layout; a line break (Shift+Enter) is a line of the paragraph's text.
_LAYOUT_BREAKS = frozenset({"page", "column"})
_NOTE_REFERENCES = {
    W + "footnoteReference": "footnote_reference",
    W + "endnoteReference": "endnote_reference",
}


class ParagraphText:
    """Collects one paragraph's text; ``dropped`` counts what it leaves out."""

    def __init__(self, view: str, dropped: Counter[str]) -> None:
        self.view = view
        self.dropped = dropped
        self.parts: list[str] = []
        self._in_instruction = 0  # depth of complex fields between begin and separate
        # Every visible character came from a bold run (``w:b``): a bold paragraph may act as a
        # heading, as in the Markdown reader (``headings.bold_paragraph_rank``).
        self.all_bold = True

    def text(self) -> str:
        """The paragraph's text: one line per line break (``w:br``), each line's spaces collapsed."""
        lines = (" ".join(line.split()) for line in "".join(self.parts).split("\n"))
        return "\n".join(line for line in lines if line)

    def walk(self, element: Any, deleted: bool = False) -> None:
        """Add the text of ``element``'s children (a paragraph, or a container inside one)."""
        for node in element:
            tag = node.tag
            if tag == W + "r":
                self._run(node, deleted)
            elif tag in _TRANSPARENT:
                if tag == W + "fldSimple":
                    self.dropped["field_code"] += 1
                self.walk(node, deleted)
            elif tag == W + "sdt":
                self.walk(
                    child(node, "sdtContent") if child(node, "sdtContent") is not None else node, deleted
                )
            elif tag in _INSERTED:
                if self.view == ACCEPTED:
                    self.walk(node, deleted)
                elif _has_text(node):
                    self.dropped["tracked_insertion"] += 1
            elif tag in _DELETED:
                if self.view == ORIGINAL:
                    self.walk(node, True)
                elif _has_text(node, deleted=True):
                    self.dropped["tracked_deletion"] += 1
            elif tag == _M + "oMathPara" or tag == _M + "oMath":
                self.parts.append("".join(t.text or "" for t in node.iter(_M + "t")))

    def _run(self, run: Any, deleted: bool) -> None:
        rpr = child(run, "rPr")
        hidden = rpr is not None and (is_on(child(rpr, "vanish")) or is_on(child(rpr, "specVanish")))
        # Bold and not also italic: the Markdown rule reads `**Payment Terms**`, not `***Payment Terms***`.
        bold = rpr is not None and is_on(child(rpr, "b")) and not is_on(child(rpr, "i"))
        for node in run:
            tag = node.tag
            if tag == W + "fldChar":
                kind = node.get(W + "fldCharType")
                if kind == "begin":
                    self._in_instruction += 1
                    self.dropped["field_code"] += 1
                elif kind in ("separate", "end") and self._in_instruction:
                    self._in_instruction -= 1
                continue
            if self._in_instruction or tag == W + "instrText" or tag == W + "delInstrText":
                continue
            if tag == W + "t" or (tag == W + "delText" and deleted):
                if hidden:
                    if node.text and node.text.strip():
                        self.dropped["hidden_text"] += 1
                    continue
                self.parts.append(node.text or "")
                if not bold and node.text and node.text.strip():
                    self.all_bold = False
            elif tag in _SPACE_LIKE:
                self.parts.append(" ")
            elif tag == W + "br":
                self.parts.append(" " if node.get(W + "type") in _LAYOUT_BREAKS else "\n")
            elif tag == W + "cr":
                self.parts.append("\n")
            elif tag == W + "noBreakHyphen":
                self.parts.append("-")
            elif tag == W + "sym":
                self._symbol(node)
            elif tag in _NOTE_REFERENCES:
                self.dropped[_NOTE_REFERENCES[tag]] += 1
            elif tag == W + "commentReference":
                continue  # the comment itself is counted from the comments part
            elif tag in (W + "drawing", W + "pict") or tag.endswith("}AlternateContent"):
                self._floating(node)

    def _symbol(self, node: Any) -> None:
        code = node.get(W + "char")
        try:
            value = int(code or "", 16)
        except ValueError:
            return
        # Symbol fonts map their glyphs to the private-use area F000-F0FF: the low byte is the character.
        self.parts.append(chr(value - 0xF000 if 0xF020 <= value <= 0xF0FF else value))

    def _floating(self, node: Any) -> None:
        """A drawing or picture: a text box in it is a separate frame, counted and left out."""
        boxes = list(node.iter(W + "txbxContent"))
        seen: set[int] = set()
        for box in boxes:
            if id(box) in seen:
                continue
            # mc:AlternateContent repeats the box as a VML fallback: count one frame per alternative set.
            seen.update(id(inner) for inner in box.iter(W + "txbxContent"))
            if "".join(t.text or "" for t in box.iter(W + "t")).strip():
                self.dropped["text_box"] += 1
                break


def _has_text(element: Any, deleted: bool = False) -> bool:
    name = W + ("delText" if deleted else "t")
    return any((t.text or "").strip() for t in element.iter(name))


def paragraph_text(paragraph: Any, view: str, dropped: Counter[str]) -> str:
    collector = ParagraphText(view, dropped)
    collector.walk(paragraph)
    return collector.text()
