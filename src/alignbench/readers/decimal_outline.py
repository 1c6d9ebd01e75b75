"""A direct builder for the commonest Markdown shape: ``## 3. Title`` headings over ``3.1 Text`` clauses.

A document made only of ATX headings labelled ``N.`` and one-line paragraphs labelled ``N.M`` (blank
lines between paragraphs, no inline markup) is what a generated contract looks
like, and what the benchmark reads. The general path asks about it line by line: a block scan, a
label match, a unit record, a sequence check and the clause grammar per line. For this shape every
answer is known in advance, so one regex pass over the whole text yields each line's parts and the
tree is built from them directly:

- a heading ``#{r} N. Title`` is a section of rank ``r``, labelled ``N`` (the first label rule reads
  ``N.`` as a one-component decimal, which the profile lets head a heading); it closes every open
  section of rank >= r and every open clause, as in :mod:`.nesting`;
- a clause ``A.B Text`` is a two-component decimal, level 2. Only such clauses occur, so an open clause
  is always of the same style as the next one, which therefore closes it and becomes a child of the
  innermost section (or of the document before any heading): clauses never nest here;
- :func:`~.label_grammar.continues_a_sequence` is applied to the whole document at once; when it would
  turn any label back into text, the shape is left to the general path.

Anything else (another character, a second line in a paragraph, a label the first rule would not read
exactly so, a profile whose first rule is not that decimal rule) returns ``None`` and the general
path reads the document; a property test holds the two equal on generated documents.
"""

from __future__ import annotations

import re
from operator import itemgetter

from alignbench.blocks import EMPTY_ATTRS, Block
from alignbench.readers.markdown import _has_inline_markup
from alignbench.readers.nesting import _Node
from alignbench.readers.profiles import Profile

# The first label rule this builder's reading of ``N.`` and ``A.B`` stands for (profiles.yaml).
DECIMAL_RULE = r"(?P<num>[0-9]+(?:\.[0-9]+)*)\.?(?=\s|$)"
# A line's last character: printable and not a space, so stripping leaves the line as it is; in a
# heading not a `#` either (a closing `#` run is markdown-it's business). Inside a line any character
# but a newline is kept as it is by both paths (the document has no inline markup, checked once for
# the whole text), and ``[^\n]*`` is the one class the regex engine counts with no lookup.
_END = "!-~"
_HEADING_END = '!-"$-~'
# Text after a label: a letter or a digit first (the separator rule then takes exactly one space).
_REST = r"[A-Za-z0-9](?:[^\n]*[{}])?"
_LINE = re.compile(
    # a heading line, then blank lines or the end
    f"(#{{1,6}}) ([0-9]+)\\. ({_REST.format(_HEADING_END)})(?:\\n+|\\Z)"
    # a clause line, then a blank line, a heading line or the end
    f"|(([0-9]+)\\.([0-9]+)) ({_REST.format(_END)})(?:\\n\\n+|\\n(?=#)|\\n?\\Z)"
    # anything else: one character, which sends the document to the general path
    "|([\\s\\S])"
)
_NUMBER, _LABEL, _HEAD, _OTHER = itemgetter(1), itemgetter(3), itemgetter(4), itemgetter(7)


def applies_to(profile: Profile) -> bool:
    """Whether ``profile`` reads these lines as this builder does: its first rule is the decimal rule,
    and a decimal label can head a heading."""
    rules = profile.labels
    return (
        bool(rules)
        and rules[0].kind == "decimal"
        and rules[0].pattern.pattern == DECIMAL_RULE
        and rules[0].pattern.flags == re.UNICODE
        and "decimal" in profile.headings.labelled_kinds
    )


def decimal_outline(text: str, profile: Profile) -> Block | None:
    """The document block of ``text`` (addresses included), or ``None`` when it is not of this shape."""
    if _has_inline_markup(text):
        return None
    start = len(text) - len(text.lstrip("\n"))
    lines = _LINE.findall(text, start)
    if not lines or any(map(_OTHER, lines)) or not applies_to(profile):
        return None
    if not _all_continue_a_sequence(lines):
        return None
    return _build(lines)


_new = object.__new__


def _leaf(kind: str, label: str, text: str, level: int, address: str) -> Block:
    """A finished leaf block: a node's slots filled once each, then frozen in place (see ``_Node``)."""
    node = _new(_Node)
    node.kind = kind
    node.label = label
    node.text = text
    node.level = level
    node.attrs = EMPTY_ATTRS
    node.children = ()  # type: ignore[assignment]
    node.address = address
    node._digest = None
    node.__class__ = Block  # type: ignore[assignment]
    return node  # type: ignore[return-value]


def _container(kind: str, level: int, address: str) -> _Node:
    node = _new(_Node)
    node.kind = kind
    node.label = None
    node.text = ""
    node.level = level
    node.attrs = EMPTY_ATTRS
    node.address = address
    node._digest = None
    return node


def _build(lines: list[tuple[str, ...]]) -> Block:
    """The tree of an outline's lines, each block addressed as it is made (``_Node.freeze``'s
    addresses: a kind's count among its siblings). Clauses join the innermost open section, so a
    section's clause count restarts at its heading; a section is frozen when a heading closes it."""
    root = _container("document", 0, "/")
    # Open containers, outermost first: [rank, node, children, address prefix, sections so far].
    opened: list[list] = [[0, root, [], "", 0]]  # type: ignore[type-arg]
    kids: list[Block] = opened[0][2]
    prefix = ""
    count = 0  # clauses so far in the innermost container
    new = _new
    node_class, block_class, empty = _Node, Block, EMPTY_ATTRS
    for hashes, number, title, label, _head, _last, rest, _other in lines:
        if label:
            count += 1
            node = new(node_class)
            node.kind = "list_item"
            node.label = label
            node.text = rest
            node.level = 2
            node.attrs = empty
            node.children = ()  # type: ignore[assignment]
            node.address = f"{prefix}/list_item[{count}]"
            node._digest = None
            node.__class__ = block_class  # type: ignore[assignment]
            kids.append(node)
            continue
        rank = len(hashes)
        while opened[-1][0] >= rank:  # the root's rank 0 is never reached: ranks are 1 to 6
            _close(opened.pop())
        parent = opened[-1]
        parent[4] += 1
        depth = len(opened)
        prefix = f"{parent[3]}/section[{parent[4]}]"
        section = _container("section", depth, prefix)
        parent[2].append(section)
        kids = [_leaf("heading", number, title, depth, f"{prefix}/heading[1]")]
        opened.append([rank, section, kids, prefix, 0])
        count = 0
    while opened:
        _close(opened.pop())
    return root  # type: ignore[return-value]


def _close(entry: list) -> None:  # type: ignore[type-arg]
    node = entry[1]
    node.children = tuple(entry[2])
    node.__class__ = Block


def _all_continue_a_sequence(lines: list[tuple[str, ...]]) -> bool:
    """Whether :func:`~.label_grammar.continues_a_sequence` keeps every label of the document.

    A heading ``N`` (style ``decimal:1``, ordinal ``int(N)``) is kept when it is the first or a
    neighbouring ordinal is also a heading's (clauses are of style ``decimal:2``); a clause ``A.B``
    when ``A`` is a decimal label of the document (its heading: the common case, asked of all clauses
    at once), or ``B`` is 1, or ``A.(B-1)`` or ``A.(B+1)`` is a label too."""
    heading_numbers = set(map(_NUMBER, lines))
    heading_numbers.discard("")
    ordinals = set(map(int, heading_numbers))
    for n in ordinals:
        if n != 1 and n - 1 not in ordinals and n + 1 not in ordinals:
            return False
    numbers = set(map(_LABEL, lines))
    numbers.discard("")
    numbers |= heading_numbers
    heads = set(map(_HEAD, lines))
    heads.discard("")
    if heads <= numbers:
        return True
    for _hashes, _number, _title, label, head, last, *_ in lines:
        if label and head not in numbers:
            ordinal = int(last)
            if (
                ordinal != 1
                and f"{head}.{ordinal - 1}" not in numbers
                and f"{head}.{ordinal + 1}" not in numbers
            ):
                return False
    return True
