"""Deterministic Markdown rendering of a unit tree, written so the markdown reader reads it back as-is.

One block per paragraph, blank lines between blocks, ATX headings whose rank is the section depth,
literal clause labels in front of the text, and pipe tables. The reader re-reads every rendering
(see :mod:`alignbench.generate.roundtrip`), so anything it would group differently is caught.
"""

from __future__ import annotations

from alignbench.generate.model import Unit


def label_prefix(label: str) -> str:
    """A label as written in front of its text: a terminator is added unless it already has one."""
    if label.endswith((")", ".", ":")):
        return label
    return label + "."


def render_markdown(root: Unit) -> str:
    """The whole document; ends with exactly one newline."""
    out: list[str] = []
    _render_children(root, 0, out)
    return "\n\n".join(out) + "\n"


def _render_children(unit: Unit, depth: int, out: list[str]) -> None:
    for child in unit.children:
        _render(child, depth, out)


def _render(unit: Unit, depth: int, out: list[str]) -> None:
    kind = unit.kind
    if kind == "section":
        _render_children(unit, depth + 1, out)
    elif kind == "heading":
        text = " ".join(unit.text.split())
        body = f"{label_prefix(unit.label)} {text}".strip() if unit.label else text
        out.append("#" * max(1, min(depth, 6)) + " " + body)
    elif kind in ("paragraph", "list_item"):
        text = "\n".join(line.strip() for line in unit.text.strip().splitlines())
        out.append(f"{label_prefix(unit.label)} {text}" if unit.label else text)
        if kind != "list_item":
            _render_children(unit, depth, out)
            return
        # An unlabelled paragraph that continues a clause is indented past the clause's marker: after
        # a CommonMark list item (`14. ...`) a flush-left paragraph would close the list.
        pad = " " * max(4, len(label_prefix(unit.label)) + 1 if unit.label else 4)
        for child in unit.children:
            if child.kind == "paragraph" and not child.label:
                mark = len(out)
                _render(child, depth, out)
                out[mark:] = ["\n".join(pad + line for line in block.split("\n")) for block in out[mark:]]
            else:
                _render(child, depth, out)
    elif kind == "table":
        out.append(_render_table(unit))
    else:  # a stray row or cell outside a table never comes out of the reader
        _render_children(unit, depth, out)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _render_table(table: Unit) -> str:
    rows = [row for row in table.children if row.kind == "row"]
    width = max((len(row.children) for row in rows), default=1)
    lines: list[str] = []
    for index, row in enumerate(rows):
        cells = [_cell(c.text) for c in row.children] + [""] * (width - len(row.children))
        lines.append("| " + " | ".join(cells) + " |")
        if index == 0:
            lines.append("|" + "---|" * width)
    return "\n".join(lines)
