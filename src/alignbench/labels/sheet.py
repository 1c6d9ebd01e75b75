"""The decision sheet: a compact plain-text view of one pair's labels that a labeller edits by hand.

Editing ``labels.yaml`` directly means typing addresses, digests, ids and kinds, which is slow and
error-prone on a 600-block pair. The sheet names every labelled block by a short id (``S1..Sn`` for
the source, ``T1..Tm`` for the test, in document order), lists them with their text as comments, and
holds one decision per line; ``alignbench label compile`` turns it back into a schema-valid, total
``labels.yaml``. The ``#!`` lines bind a sheet to the exact documents it was made from, because the
short ids shift silently when a document changes.

A blank sheet (for the blind second pass) is rendered from the two documents alone: nothing here
reads the engine or any existing labels unless a label document is passed in explicitly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from alignbench.blocks import Block
from alignbench.errors import AlignbenchError
from alignbench.labels.documents import SIDES, Side

SHEET_FORMAT = "alignbench/label-sheet/v1"
PREFIX = {"source": "S", "test": "T"}
FLAGS: tuple[str, ...] = ("move", "split", "merge")
_EXCERPT = 100
_ID = re.compile(r"^([ST])([1-9][0-9]*)$")
_META = re.compile(r"^#!\s*([a-z_]+):\s*(.*?)\s*$")

HEADER = """\
# Syntax: one decision per line; every labelled block of both sides appears in exactly one decision.
# Name blocks by their short id (S3, T7) or by full address (left of '=' is the source, right is
# the test; elsewhere write source:/address or test:/address). '#' starts a comment; text after '#'
# on a decision line is kept as the row's note.
#   S3 = T3                  S3 became T3 (same or renumber is derived from the two labels)
#   S4 = T9 move             S4 became T9 and moved (parents do not correspond, or it crossed siblings)
#   S5 = -                   S5 was deleted (several ids allowed: S5 S6 = -)
#   - = T4                   T4 was inserted (several ids allowed: - = T4 T5)
#   S6 = T6 T7 split         one source block became several test blocks
#   S8 S9 = T8 merge         several source blocks became one test block
#   S10 T11 unscored: why    blocks that truly cannot be judged, with the reason (also: S10 unscored: why)
# Compile with: alignbench label compile PAIR SHEET --by KIND:ID [--draft labels.yaml] [--out PATH]
"""


@dataclass(frozen=True)
class Catalogue:
    """The short ids of one pair's labelled blocks, both directions, in document order."""

    blocks: dict[str, list[Block]]
    positions: dict[str, dict[str, int]]

    @classmethod
    def from_sides(cls, sides: dict[str, Side]) -> Catalogue:
        blocks = {side: sides[side].labelled() for side in SIDES}
        positions = {side: {b.address: i for i, b in enumerate(blocks[side])} for side in SIDES}
        return cls(blocks, positions)

    def short_id(self, side: str, address: str) -> str:
        return f"{PREFIX[side]}{self.positions[side][address] + 1}"

    def position(self, side: str) -> dict[str, int]:
        """Address -> 0-based index in document order (shared; do not mutate)."""
        return self.positions[side]

    def describe(self, side: str, address: str) -> str:
        """``S12 /section[1]/list_item[3]``: how a block is named in every message."""
        index = self.position(side).get(address)
        return address if index is None else f"{PREFIX[side]}{index + 1} {address}"


@dataclass
class Decision:
    """One parsed decision line; ``what`` is correspondence|inserted|deleted|split|merge|unscored."""

    line: int
    what: str
    source: list[str]
    test: list[str]
    move: bool = False
    reason: str | None = None
    note: str | None = None


@dataclass
class Sheet:
    """A parsed sheet: its ``#!`` metadata and its decisions in line order."""

    meta: dict[str, str] = field(default_factory=dict)
    decisions: list[Decision] = field(default_factory=list)


def _excerpt(block: Block) -> str:
    text = block.normalised_text.replace("\x1f", " / ")
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 1] + "…"


def catalogue_lines(catalogue: Catalogue, sides: dict[str, Side]) -> list[str]:
    """The sheet's block list, one comment line per labelled block of each side."""
    lines: list[str] = []
    for side in SIDES:
        blocks = catalogue.blocks[side]
        lines += ["#", f"# {side.capitalize()} blocks of {sides[side].file} ({len(blocks)}):"]
        for i, block in enumerate(blocks, start=1):
            label = "-" if block.label is None else block.label
            lines.append(f"# {PREFIX[side]}{i} {block.address} {block.kind} {label} | {_excerpt(block)}")
    return lines


def _refs(catalogue: Catalogue, side: str, addresses: list[str], qualified: bool = False) -> str:
    position = catalogue.position(side)
    refs = []
    for address in addresses:
        if address in position:
            refs.append(catalogue.short_id(side, address))
        else:  # not a labelled block now: kept verbatim so compile names it
            refs.append(f"{side}:{address}" if qualified else address)
    return " ".join(refs) or "-"


def _note(row: dict[str, Any]) -> str:
    note = row.get("note")
    return "" if not note else "  # " + " ".join(str(note).split())


# A draft row the engine placed by its move pass, or flagged as moved, would show the labeller the
# moved block's partner before the labeller has decided moves cold. Positional and sequence rows (guesses
# by place) are withheld the same way, so a withheld row cannot be told apart from a weak guess.
WITHHELD = "?"
_WITHHELD_NOTE = "withheld until you rule: find its partner and decide if it moved (move_worksheet.md)"


def withheld(row: dict[str, Any]) -> bool:
    """A proposed draft row whose partner the sheet hides (no pass shown, or a guess by place)."""
    return row.get("status") == "proposed" and row.get("proposed_by") in (None, "positional", "sequence")


def decision_lines(data: dict[str, Any], catalogue: Catalogue) -> list[str]:
    """One line per row of ``data``, in the order of its sections."""
    lines: list[str] = []
    for row in data["correspondences"]:
        if withheld(row):
            lines.append(f"{_refs(catalogue, 'source', [row['source']])} = {WITHHELD}  # {_WITHHELD_NOTE}")
            lines.append(f"{WITHHELD} = {_refs(catalogue, 'test', [row['test']])}  # {_WITHHELD_NOTE}")
            continue
        flag = " move" if row["kind"] == "move" else ""
        lines.append(
            f"{_refs(catalogue, 'source', [row['source']])} = {_refs(catalogue, 'test', [row['test']])}"
            f"{flag}{_note(row)}"
        )
    lines += [f"- = {_refs(catalogue, 'test', [r['test']])}{_note(r)}" for r in data["inserted"]]
    lines += [f"{_refs(catalogue, 'source', [r['source']])} = -{_note(r)}" for r in data["deleted"]]
    for section, flag in (("splits", "split"), ("merges", "merge")):
        for row in data[section]:
            lines.append(
                f"{_refs(catalogue, 'source', row['source'])} = {_refs(catalogue, 'test', row['test'])} "
                f"{flag}{_note(row)}"
            )
    for row in data["unscored"]:
        refs = " ".join(r for r in (_refs(catalogue, s, row[s], qualified=True) for s in SIDES) if r != "-")
        reason = " ".join(row["reason"].replace("#", "no.").split())
        lines.append(f"{refs} unscored: {reason}{_note(row)}")
    return lines


def render_sheet(
    pair: str, sides: dict[str, Side], data: dict[str, Any] | None = None, blank: bool = False
) -> str:
    """The sheet text; ``data`` (the current labels) supplies the decisions unless ``blank``."""
    if blank and data is not None:
        raise AlignbenchError("a blank sheet is rendered from the documents alone; pass no labels")
    catalogue = Catalogue.from_sides(sides)
    kind = "blank sheet (blind pass: no proposal, no existing labels)" if blank else "decision sheet"
    lines = [
        f"#! format: {SHEET_FORMAT}",
        f"#! pair: {pair}",
        *(f"#! {side}: {sides[side].file} sha256 {sides[side].sha256}" for side in SIDES),
        f"# {kind} for {pair}",
        *HEADER.rstrip("\n").split("\n"),
        *catalogue_lines(catalogue, sides),
        "#",
        "# Decisions:",
    ]
    if not blank:
        assert data is not None
        lines += decision_lines(data, catalogue)
    return "\n".join(lines) + "\n"


class _Problems:
    def __init__(self, where: str) -> None:
        self.where = where
        self.items: list[str] = []

    def add(self, line: int, message: str) -> None:
        self.items.append(f"line {line}: {message}")

    def raise_if_any(self, shown: int = 50) -> None:
        """One error listing the first ``shown`` problems (a wholesale mistake would list thousands)."""
        if self.items:
            listed = "\n".join(f"  {self.where} {p}" for p in self.items[:shown])
            more = f"\n  ... and {len(self.items) - shown} more" if len(self.items) > shown else ""
            raise AlignbenchError(
                f"{self.where}: {len(self.items)} problem(s) in the sheet; fix each:\n{listed}{more}"
            )


def _resolve(token: str, side: str | None, catalogue: Catalogue) -> tuple[str, str] | str:
    """``(side, address)`` for a reference token, or a message saying why it names nothing."""
    match = _ID.match(token)
    if match:
        ref_side = "source" if match.group(1) == "S" else "test"
        index = int(match.group(2)) - 1
        blocks = catalogue.blocks[ref_side]
        if index >= len(blocks):
            return f"{token} does not exist (the {ref_side} has {len(blocks)} labelled blocks)"
        if side is not None and ref_side != side:
            return f"{token} is a {ref_side} block but stands on the {side} side of '='"
        return ref_side, blocks[index].address
    explicit, _, rest = token.partition(":")
    if explicit in SIDES and rest.startswith("/"):
        if side is not None and explicit != side:
            return f"{token} is a {explicit} address but stands on the {side} side of '='"
        side, token = explicit, rest
    if token.startswith("/"):
        if side is None:
            return f"{token}: write source:{token} or test:{token} here"
        if token not in catalogue.position(side):
            return f"{token} is not a labelled block of the {side}"
        return side, token
    return f"{token!r} is neither a block id (S3, T7) nor an address"


def _refs_of(tokens: list[str], side: str, catalogue: Catalogue, line: int, problems: _Problems) -> list[str]:
    addresses = []
    for token in tokens:
        resolved = _resolve(token, side, catalogue)
        if isinstance(resolved, str):
            problems.add(line, resolved)
        else:
            addresses.append(resolved[1])
    return addresses


def _parse_unscored(
    body: str, note: str | None, line: int, catalogue: Catalogue, problems: _Problems
) -> Decision:
    refs_text, _, reason = body.partition("unscored:")
    found: dict[str, list[str]] = {side: [] for side in SIDES}
    for token in refs_text.split():
        resolved = _resolve(token, None, catalogue)
        if isinstance(resolved, str):
            problems.add(line, resolved)
        else:
            found[resolved[0]].append(resolved[1])
    if not refs_text.split():
        problems.add(line, "unscored needs at least one block id before 'unscored:'")
    if not reason.strip():
        problems.add(line, "unscored needs a reason after 'unscored:'")
    return Decision(line, "unscored", found["source"], found["test"], reason=reason.strip(), note=note)


def _parse_arrow(
    body: str, note: str | None, line: int, catalogue: Catalogue, problems: _Problems
) -> Decision | None:
    if body.count("=") != 1:
        problems.add(line, f"expected one '=' (e.g. 'S3 = T3'), got {body!r}")
        return None
    left, right = (part.split() for part in body.split("="))
    if WITHHELD in left + right:
        problems.add(
            line,
            "'?' is a withheld partner: replace it with the block this one became (or came from), "
            "'-' if it was deleted or inserted, and add 'move' if it moved",
        )
        return None
    flag = right.pop() if right and right[-1] in FLAGS else None
    if not left or not right:
        problems.add(line, "each side of '=' needs block ids or '-'")
        return None
    if left == ["-"] and right == ["-"]:
        problems.add(line, "'- = -' names no block")
        return None
    if (
        "-" in left[1:] + right[1:]
        or (left[0] == "-" and len(left) > 1)
        or (right[0] == "-" and len(right) > 1)
    ):
        problems.add(line, "'-' stands alone on its side of '='")
        return None
    if left == ["-"] or right == ["-"]:
        if flag:
            problems.add(line, f"'{flag}' applies to a correspondence, not to an insertion or deletion")
        if left == ["-"]:
            return Decision(
                line, "inserted", [], _refs_of(right, "test", catalogue, line, problems), note=note
            )
        return Decision(line, "deleted", _refs_of(left, "source", catalogue, line, problems), [], note=note)
    source = _refs_of(left, "source", catalogue, line, problems)
    test = _refs_of(right, "test", catalogue, line, problems)
    shape = (len(left) > 1, len(right) > 1)
    expected = {(False, False): None, (False, True): "split", (True, False): "merge"}.get(shape, "invalid")
    if expected == "invalid":
        problems.add(
            line, "several blocks on both sides is neither a split nor a merge; use unscored with a reason"
        )
        return None
    if expected is None:
        if flag not in (None, "move"):
            problems.add(
                line, f"'{flag}' needs several blocks on one side; a one-to-one link takes only 'move'"
            )
        return Decision(line, "correspondence", source, test, move=flag == "move", note=note)
    if flag != expected:
        side = "test" if expected == "split" else "source"
        problems.add(line, f"several {side} blocks: end the line with '{expected}' (got {flag or 'no flag'})")
        return None
    return Decision(line, expected, source, test, note=note)


def parse_sheet(text: str, catalogue: Catalogue, where: str) -> Sheet:
    """Every decision of ``text``; one :class:`AlignbenchError` lists every bad line."""
    sheet = Sheet()
    problems = _Problems(where)
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        meta = _META.match(stripped)
        if meta:
            sheet.meta[meta.group(1)] = meta.group(2)
            continue
        body, hashed, comment = stripped.partition("#")
        body = body.strip()
        if not body:
            continue
        note = " ".join(comment.split()) if hashed else None
        if "unscored:" in body:
            decision = _parse_unscored(body, note or None, number, catalogue, problems)
        else:
            decision = _parse_arrow(body, note or None, number, catalogue, problems)
        if decision is not None:
            sheet.decisions.append(decision)
    problems.raise_if_any()
    return sheet


def check_binding(sheet: Sheet, pair: str, sides: dict[str, Side], where: str) -> None:
    """Refuse a sheet made for another pair or other document versions (its short ids would lie)."""
    problems = []
    if sheet.meta.get("format") != SHEET_FORMAT:
        problems.append(f"'#! format: {SHEET_FORMAT}' line missing or different")
    if sheet.meta.get("pair") != pair:
        problems.append(f"the sheet is for pair {sheet.meta.get('pair')!r}, not {pair!r}")
    for side in SIDES:
        expected = f"{sides[side].file} sha256 {sides[side].sha256}"
        if sheet.meta.get(side) != expected:
            problems.append(
                f"the {side} document is now '{expected}' but the sheet says {sheet.meta.get(side)!r}"
            )
    if problems:
        raise AlignbenchError(
            f"{where}: not a sheet for the current documents of {pair} ({'; '.join(problems)}); "
            f"regenerate it with `alignbench label sheet {pair}` and carry your decisions over"
        )
