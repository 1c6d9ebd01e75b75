"""``alignbench compare``'s text summary: what a reader of a terminal needs to find each change.

Every block is named as the HTML redline names it, by heading path and clause label ("§4 Payment ›
4.5", :mod:`alignbench.html.locate`); an address means nothing without its document, so addresses
appear only with ``--verbose``. A change that edited text shows its word diff whatever else it is:
the engine's ``modified`` flag says so for every change, a moved or renumbered clause included, and
the first line's counts are :meth:`Alignment.summary`'s, as in the JSON and on the redline page. A
run of renumbered siblings prints as one line (``4.2–4.9 → 4.1–4.8``). Long text is cut at a word boundary
and marked with "…"; the changed words of a diff are never elided, only the unchanged words around them.

Document text reaches the output in three places only: heading paths (:class:`Namer`, from
``html.locate``), :func:`first_words` and :func:`render_diff`. Showing invisible or bidirectional
characters visibly is one call in each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from alignbench.alignment.similarity import SequenceMatcher  # cydifflib: the standard library's opcodes
from alignbench.blocks import Block, BlockTree, is_renumber, normalise, parse_address
from alignbench.html.locate import SEPARATOR, Locator

if TYPE_CHECKING:
    from alignbench.alignment.model import Alignment, Change

ELLIPSIS = "…"
SNIPPET_CHARS = 72  # the first words of an inserted, deleted or moved block
CONTEXT_WORDS = 6  # unchanged words kept on each side of a change in a word diff
DIFF_CHARS = 480  # a word diff longer than this is cut (at a word, markers closed); --json has all
ARROW = " → "
KINDS: tuple[str, ...] = ("move", "renumber", "insert", "delete", "modify")
# (op, words): op is "equal", "delete" or "insert"
Segment = tuple[str, list[str]]


def clip(text: str, width: int = SNIPPET_CHARS) -> str:
    """``text`` whole when it fits; else cut at the last word boundary before ``width``, plus "…"."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    cut = text[: width - 1]
    space = cut.rfind(" ")
    if space > width // 3:  # a word boundary not too far back; else one very long word is cut
        cut = cut[:space]
    return cut.rstrip(" ,;:") + ELLIPSIS


def body_text(block: Block) -> str:
    """A block's words and every block's words below it, without clause labels: what an edit changes.

    A renumber changes labels only, so labels are left out; a row reads as its cells with " | "."""
    parts: list[str] = []

    def visit(node: Block) -> None:
        if node.kind == "row":
            parts.append(" | ".join(normalise(c.text) for c in node.children if c.kind == "cell"))
            return
        if not node.is_container and node.text:
            parts.append(normalise(node.text))
        for child in node.children:
            visit(child)

    visit(block)
    return " ".join(part for part in parts if part)


def own_text(block: Block) -> str:
    """A block's own words without its label (a row: its cells); a container other than a row has none."""
    if block.kind == "row":
        return " | ".join(normalise(c.text) for c in block.children if c.kind == "cell")
    return normalise(block.text)


def first_words(block: Block, width: int = SNIPPET_CHARS) -> str:
    """What a block says, for a line that names it: its text; a section's words after its heading
    (the heading is already in the block's name); the number of blocks when there are no words."""
    if block.kind == "section":
        body = [child for child in block.children if child.kind != "heading"]
        text = " ".join(filter(None, (body_text(child) for child in body)))
    else:
        text = body_text(block)
    if not text:
        return f"({len(block.children)} blocks, no text)" if block.children else "(no text)"
    return clip(text, width)


def word_segments(old: str, new: str) -> list[Segment]:
    """Whole-word diff of two texts: runs of equal, deleted and inserted words, in reading order."""
    a, b = old.split(), new.split()
    segments: list[Segment] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            segments.append(("equal", a[i1:i2]))
            continue
        if op in ("delete", "replace"):
            segments.append(("delete", a[i1:i2]))
        if op in ("insert", "replace"):
            segments.append(("insert", b[j1:j2]))
    return segments


_MARKS = {"delete": ("[-", "-]"), "insert": ("{+", "+}")}


def _elide(segments: list[Segment], context: int) -> list[Segment]:
    """Unchanged runs longer than the context shrink to the words next to a change, with "…"."""
    out: list[Segment] = []
    last = len(segments) - 1
    for k, (op, words) in enumerate(segments):
        if op != "equal":
            out.append((op, words))
            continue
        keep_head = context if k > 0 else 0  # words after the change before this run
        keep_tail = context if k < last else 0  # words before the change after this run
        if len(words) <= keep_head + keep_tail + 3:  # eliding fewer than three words saves nothing
            out.append((op, words))
            continue
        head = words[:keep_head]
        tail = words[len(words) - keep_tail :] if keep_tail else []
        out.append((op, [*head, ELLIPSIS, *tail]))
    return out


def render_diff(segments: list[Segment], width: int = DIFF_CHARS, context: int = CONTEXT_WORDS) -> str:
    """wdiff-style text (``[-removed-]``, ``{+added+}``), unchanged words around changes elided, cut
    at a word (an open marker closed) with "…" when longer than ``width``."""
    pieces: list[str] = []
    used = 0
    for op, words in _elide(segments, context):
        opening, closing = _MARKS.get(op, ("", ""))
        taken: list[str] = []
        for word in words:
            if used + len(word) + 1 > width:
                if taken:
                    pieces.append(opening + " ".join(taken) + closing)
                pieces.append(ELLIPSIS)
                return " ".join(pieces)
            taken.append(word)
            used += len(word) + 1
        if taken:
            pieces.append(opening + " ".join(taken) + closing)
    return " ".join(pieces)


def word_diff(old: str, new: str) -> str:
    """The whole word diff, nothing elided: ``pay within [-thirty-] {+forty+} days``."""
    return render_diff(word_segments(old, new), width=10**9, context=10**9)


@dataclass(frozen=True)
class Entry:
    """One change as printed: where it is on each side, and its word diff when its text changed."""

    change: Change
    old_path: str | None
    new_path: str | None
    edit: list[Segment] | None


class Namer:
    """Names blocks of both documents by heading path, and addresses them with ``--verbose``."""

    def __init__(self, old: BlockTree, new: BlockTree, verbose: bool) -> None:
        self.old, self.new, self.verbose = old, new, verbose
        self.old_at, self.new_at = Locator(old), Locator(new)

    def entry(self, change: Change) -> Entry:
        """The edit is over the block's own text, whatever the kind: each block under a moved or
        renumbered one that changed is a change of its own (with its own ``modified``), so an edit is
        shown and counted once."""
        old_path = self.old_at.locate(change.source) if change.source is not None else None
        new_path = self.new_at.locate(change.test) if change.test is not None else None
        edit = None
        if change.modified and change.source is not None and change.test is not None:
            edit = word_segments(own_text(self.old.find(change.source)), own_text(self.new.find(change.test)))
        return Entry(change, old_path, new_path, edit)

    def where(self, entry: Entry) -> str:
        """ "§4 Payment › 4.5 → §7 Fees › 7.2", the shared start of the two paths said once."""
        if entry.old_path is None or entry.new_path is None:
            return entry.old_path or entry.new_path or ""
        return shared_path(entry.old_path, entry.new_path)

    def addresses(self, change: Change) -> str:
        if not self.verbose:
            return ""
        if change.source is None or change.test is None:
            return f"  [{change.source or change.test}]"
        return f"  [{change.source}{ARROW}{change.test}]"


def shared_path(old: str, new: str) -> str:
    """Two heading paths as one: the steps they share, then where each ends (``§4 › 4.5 → 4.4``)."""
    if old == new:
        return old
    a, b = old.split(SEPARATOR), new.split(SEPARATOR)
    common = 0
    while common < min(len(a), len(b)) - 1 and a[common] == b[common]:
        common += 1
    head = SEPARATOR.join(a[:common])
    rest = SEPARATOR.join(a[common:]) + ARROW + SEPARATOR.join(b[common:])
    return f"{head}{SEPARATOR}{rest}" if head else rest


def _parent_and_position(address: str) -> tuple[str, int]:
    steps = parse_address(address)
    return str(steps[:-1]), steps[-1][1]


def _follows(previous: Change, change: Change) -> bool:
    """Whether ``change`` renumbers the next sibling after ``previous``, on both sides."""
    if previous.source is None or previous.test is None or change.source is None or change.test is None:
        return False
    old_parent, old_at = _parent_and_position(previous.source)
    new_parent, new_at = _parent_and_position(previous.test)
    return (old_parent, old_at + 1) == _parent_and_position(change.source) and (
        new_parent,
        new_at + 1,
    ) == _parent_and_position(change.test)


def renumber_runs(entries: list[Entry]) -> list[list[Entry]]:
    """Renumbers of consecutive siblings on both sides, none of them edited, as one run each."""
    runs: list[list[Entry]] = []
    for entry in entries:
        previous = runs[-1][-1] if runs else None
        if (
            previous
            and entry.edit is None
            and previous.edit is None
            and _follows(previous.change, entry.change)
        ):
            runs[-1].append(entry)
            continue
        runs.append([entry])
    return runs


def _label(label: str | None) -> str:
    return label or "(no label)"


def _run_line(run: list[Entry], namer: Namer) -> str:
    """One renumber, or a run of them as ``§4 Payment › 4.2–4.9 → 4.1–4.8 (8 clauses)``."""
    first, last = run[0], run[-1]
    if len(run) == 1:
        return "  " + namer.where(first) + namer.addresses(first.change)
    old_steps = (first.old_path or "").split(SEPARATOR)
    new_steps = (first.new_path or "").split(SEPARATOR)
    old_range = f"{_label(first.change.source_label)}–{_label(last.change.source_label)}"
    new_range = f"{_label(first.change.test_label)}–{_label(last.change.test_label)}"
    old_name = SEPARATOR.join([*old_steps[:-1], old_range])
    new_name = SEPARATOR.join([*new_steps[:-1], new_range])
    blocks = "sections" if all(_is_heading(namer.new, e.change.test) for e in run) else "clauses"
    verbose = ""
    if namer.verbose:
        verbose = (
            f"  [{first.change.source}..{last.change.source}{ARROW}{first.change.test}..{last.change.test}]"
        )
    return f"  {shared_path(old_name, new_name)} ({len(run)} {blocks}){verbose}"


def _is_heading(tree: BlockTree, address: str | None) -> bool:
    return address is not None and tree.find(address).kind == "heading"


def summary_line(summary: dict[str, Any], hidden: int = 0) -> str:
    """``12 blocks paired, 1 moved, 5 renumbered, 1 inserted, 0 deleted, 3 modified, 1 of them also
    moved, 1 also renumbered``: ``modified`` counts every edit, the ones inside moves and renumbers too."""
    kinds = summary["kinds"]
    line = (
        f"{summary['paired']} blocks paired, {kinds['move']} moved, {kinds['renumber']} renumbered, "
        f"{kinds['insert']} inserted, {kinds['delete']} deleted, {summary['modified']} modified"
    )
    also = [
        f"{summary[key]} also {word}"
        for key, word in (("modified_moved", "moved"), ("modified_renumbered", "renumbered"))
        if summary[key]
    ]
    if also:  # "3 modified, 1 of them also moved, 2 also renumbered"
        line += ", " + ", ".join(also).replace(" also", " of them also", 1)
    if summary["reparented"]:  # a parent change that kept reading order (issue #27): not a move
        line += f", {summary['reparented']} reparented"
    if hidden:
        line += f", {hidden} changed in dropped content"
    return line


def _relabel(change: Change) -> str:
    """`` [label (no label) → 3]`` for a label gained or lost (an edit, not a renumber), else ""."""
    if change.source_label == change.test_label or is_renumber(change.source_label, change.test_label):
        return ""
    return f" [label {_label(change.source_label)}{ARROW}{_label(change.test_label)}]"


def _diff_line(entry: Entry, old: BlockTree, new: BlockTree) -> str:
    return "      " + _diff(entry, old, new)


def _diff(entry: Entry, old: BlockTree, new: BlockTree) -> str:
    """The word diff, flagged when the two texts differ only in characters nobody can see."""
    from alignbench.visible import hidden_only

    diff = render_diff(entry.edit or [])
    source, test = entry.change.source, entry.change.test
    if source is not None and test is not None and hidden_only(old.find(source).text, new.find(test).text):
        diff += "  [invisible characters only]"  # alignbench.visible: shown, never hidden
    return diff


def render(
    result: Alignment,
    old: BlockTree,
    new: BlockTree,
    verbose: bool = False,
    hidden: list[dict[str, Any]] | None = None,
) -> str:
    """The summary ``compare`` prints: counts, then moves, renumbers, inserts, deletes and edits, then
    ``hidden``: content the readers keep out of the tree (HTML, markup, link targets) that differs."""
    namer = Namer(old, new, verbose)
    by_kind: dict[str, list[Change]] = {kind: [] for kind in KINDS}
    for change in result.changes:
        by_kind[change.kind].append(change)
    modifies = by_kind["modify"]
    moves = [namer.entry(c) for c in by_kind["move"]]
    renumbers = [namer.entry(c) for c in by_kind["renumber"]]
    lines = [f"{summary_line(result.summary(), len(hidden or ()))} (backend {result.backend_resolved}"]
    lines[0] += ", comparison budget exhausted)" if result.budget_exhausted else ")"
    if moves:
        lines += ["", "Moved:"]
        for entry in moves:
            block = new.find(entry.change.test or "")
            if entry.edit is None:
                lines.append(f"  {namer.where(entry)}: {first_words(block)}{namer.addresses(entry.change)}")
            else:
                lines += [
                    f"  {namer.where(entry)}{_relabel(entry.change)}, edited:{namer.addresses(entry.change)}",
                    _diff_line(entry, old, new),
                ]
    if renumbers:
        lines += ["", "Renumbered:"]
        for run in renumber_runs(renumbers):
            lines.append(_run_line(run, namer))
            if run[0].edit is not None:
                lines[-1] += ", edited:"
                lines.append(_diff_line(run[0], old, new))
    for kind, title, mark in (("insert", "Inserted:", "+"), ("delete", "Deleted:", "-")):
        if by_kind[kind]:
            lines += ["", title]
            for change in by_kind[kind]:
                entry = namer.entry(change)
                if kind == "insert":  # an inserted block lives in the new version, a deleted one in the old
                    path, block = entry.new_path, new.find(change.test or "")
                else:
                    path, block = entry.old_path, old.find(change.source or "")
                lines.append(f"  {mark} {path}: {first_words(block)}{namer.addresses(change)}")
    if modifies:
        lines += ["", "Modified:"]
        for change in modifies:
            entry = namer.entry(change)
            relabel = _relabel(change)
            diff = _diff(entry, old, new)
            lines.append(f"  ~ {namer.where(entry)}{relabel}: {diff}{namer.addresses(change)}")
    if hidden:  # never "same" when a difference hides in what a reader dropped (issue 33 item 1)
        lines += ["", f"Dropped content changed ({len(hidden)}):"]
        for d in hidden:
            sides = (("old", "source_line"), ("new", "test_line"))
            where = ", ".join(f"{side} line {d[key]}" for side, key in sides if d[key])
            diff = word_diff(d["source_text"] or "", d["test_text"] or "")
            lines.append(f"  ! {d['kind']} {d['construct']}{' (' + where + ')' if where else ''}: {diff}")
    return "\n".join(lines) + "\n"
