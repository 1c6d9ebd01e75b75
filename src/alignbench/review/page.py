"""``alignbench review PAIR``: one self-contained HTML page for reviewing a real pair's draft labels.

The page is the sheet (:mod:`alignbench.labels.sheet`) made clickable: it carries the same decisions
(one per draft row), the two documents, and the evidence a reviewer needs to judge a row (the pass
that proposed it, the engine's own pairing, a similarity and a word diff). It exports the decisions
as JSON bound to the draft's and documents' sha256, which :mod:`alignbench.review.decisions` turns
back into ``labels.yaml`` through the sheet's compile path.

Everything is inlined (CSS, JS, data) so the page opens from disk with no network request. Moves are
decided cold: the page's first step shows the documents alone; the engine's moves and every draft
link are only drawn after the reviewer finishes that step (they are in the embedded data, so a
reviewer who reads the page source can see them; the UI never shows them early).
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path
from typing import Any

from alignbench.blocks import Block, parse_address
from alignbench.errors import AlignbenchError
from alignbench.labels.check import digest_problems, totality_problems
from alignbench.labels.documents import SIDES, Side, open_pair
from alignbench.labels.init import REAL_DOCUMENTS, REAL_LABELS
from alignbench.labels.io import load_labels
from alignbench.labels.sheet import PREFIX
from alignbench.textout import word_segments
from alignbench.visible import hidden_only, show

PAGE_FORMAT = "alignbench/review-page/v1"
_OP_MARKS = {"equal": "=", "delete": "-", "insert": "+"}  # the page's colour classes


def draft_path(root: Path, pair: str) -> Path:
    """The draft a page is made from and an export is compiled against: the pair's labels.yaml."""
    path = root / REAL_LABELS / pair / "labels.yaml"
    if path.is_file():
        return path
    if not (root / REAL_LABELS).is_dir():
        raise AlignbenchError(
            f"{root.resolve()}: not an alignbench repository (no {REAL_LABELS}); run inside the repository "
            "or pass --root PATH to it; to review two documents of your own: `alignbench review OLD NEW`"
        )
    if (root / REAL_DOCUMENTS / pair).is_dir():
        raise AlignbenchError(
            f"{REAL_LABELS}/{pair}/labels.yaml: not found; seed a draft with `alignbench label init {pair}`"
        )
    raise AlignbenchError(
        f"pair {pair!r}: no such real pair (no {REAL_LABELS}/{pair}); give a directory name under "
        f"{REAL_LABELS}, or two documents: `alignbench review OLD NEW`"
    )


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def open_draft(
    root: Path, pair: str, draft: Path | None = None
) -> tuple[Path, dict[str, Any], dict[str, Side]]:
    """The draft, its documents as the readers see them now; refuses a draft the documents outgrew."""
    path = draft_path(root, pair) if draft is None else draft
    data = load_labels(path)
    sides = open_pair(data, root)
    stale = digest_problems(data, sides) + [
        p for p in totality_problems(data, sides) if "name no labelled" in p or "missing" in p
    ]
    if stale:
        fix = (
            f"`alignbench label reanchor {pair}` (or `alignbench label init {pair} --force`)"
            if draft is None
            else f"`alignbench label reanchor {path}` (or move {path} away to seed a new draft)"
        )
        raise AlignbenchError(
            f"{path}: the draft no longer matches its documents ({stale[0][:200]}); run {fix} first"
        )
    return path, data, sides


def _display_text(block: Block) -> str:
    return block.normalised_text.replace("\x1f", " | ")


def _blocks(side: Side, name: str) -> list[dict[str, Any]]:
    # What the page prints is the text as shown (alignbench.visible): a hidden character is a glyph
    # ``⟨U+202E⟩`` that the page marks, never a raw override the browser would obey.
    return [
        {
            "a": b.address,
            "k": b.kind,
            "l": None if b.label is None else show(b.label),
            "t": show(_display_text(b)),
            "d": len(parse_address(b.address)),
            "n": f"{PREFIX[name]}{i}",
        }
        for i, b in enumerate(side.labelled(), start=1)
    ]


def draft_decisions(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The draft's rows as page decisions, in the same shapes as the sheet's decision lines."""
    out: list[dict[str, Any]] = []

    def add(what: str, source: list[str], test: list[str], row: dict[str, Any], move: bool = False) -> None:
        out.append(
            {
                "what": what,
                "source": source,
                "test": test,
                "move": move,
                "note": row.get("note"),
                "reason": row.get("reason"),
                "status": row.get("status"),
            }
        )

    for row in data["correspondences"]:
        add("correspondence", [row["source"]], [row["test"]], row, move=row["kind"] == "move")
    for row in data["inserted"]:
        add("inserted", [], [row["test"]], row)
    for row in data["deleted"]:
        add("deleted", [row["source"]], [], row)
    for section, what in (("splits", "split"), ("merges", "merge"), ("unscored", "unscored")):
        for row in data[section]:
            add(what, list(row["source"]), list(row["test"]), row)
    return out


def word_diff_ops(old: str, new: str) -> list[list[str]]:
    """``[op, words]`` runs with op ``=``, ``-`` or ``+``: what the page colours."""
    return [[_OP_MARKS[op], " ".join(words)] for op, words in word_segments(old, new)]


def _similarity(old: str, new: str) -> float:
    from alignbench.alignment.similarity import (
        Vocabulary,
        ratio_function,
        resolve_backend,
        tokenise,
    )

    vocabulary = Vocabulary()
    ratio = ratio_function(resolve_backend("auto"))
    return round(ratio(vocabulary.encode(tokenise(old)), vocabulary.encode(tokenise(new))), 3)


def engine_alignment(root: Path, sides: dict[str, Side]) -> dict[str, Any]:
    """The engine's alignment of the two documents, with ``root``'s params.yaml if it has one."""
    from alignbench.alignment import AlignmentConfig, align
    from alignbench.atomic import load_yaml

    params = load_yaml(root / "params.yaml", "params") if (root / "params.yaml").is_file() else {}
    config = AlignmentConfig.from_params((params or {}).get("align"), similarity="auto")
    return align(sides["source"].tree, sides["test"].tree, config).to_dict()


def evidence(
    data: dict[str, Any], sides: dict[str, Side], alignment: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """Per draft or engine pair (``source \\x1f test``): passes, engine pairing, similarity, word diff."""
    engine_pairs = {(p["source"], p["test"]): p for p in alignment["pairs"]}
    wanted: dict[tuple[str, str], str | None] = {}
    for row in data["correspondences"]:
        wanted[(row["source"], row["test"])] = row.get("proposed_by")
    source_tree, test_tree = sides["source"].tree, sides["test"].tree
    for src, tst in engine_pairs:
        s, t = source_tree.get(src), test_tree.get(tst)
        if s is not None and t is not None and s.address != "/" and s.kind == t.kind:
            wanted.setdefault((src, tst), None)
    found: dict[str, dict[str, Any]] = {}
    for (src, tst), proposed_by in sorted(wanted.items()):
        s, t = source_tree.get(src), test_tree.get(tst)
        if s is None or t is None or s.is_container or t.is_container:
            continue
        old, new = _display_text(s), _display_text(t)
        engine = engine_pairs.get((src, tst))
        found[f"{src}\x1f{tst}"] = {
            "proposed_by": proposed_by,
            "engine": None
            if engine is None
            else {"pass": engine["matched_by"], "confidence": engine["confidence"], "moved": engine["moved"]},
            "similarity": _similarity(old, new),
            "diff": None if old == new else [[op, show(words)] for op, words in word_diff_ops(old, new)],
            "hidden_only": hidden_only(old, new),
        }
    return found


def engine_moves(alignment: dict[str, Any], sides: dict[str, Side]) -> list[dict[str, Any]]:
    """The engine's move changes, each with the first labelled block of each side (what the page selects)."""
    firsts = {side: [b.address for b in sides[side].labelled()] for side in SIDES}

    def first_labelled(side: str, address: str) -> str | None:
        prefix = "" if address == "/" else address
        for candidate in firsts[side]:
            if candidate == address or candidate.startswith(prefix + "/"):
                return candidate
        return None

    return [
        {
            "source": c["source"],
            "test": c["test"],
            "source_label": c["source_label"],
            "test_label": c["test_label"],
            "source_block": first_labelled("source", c["source"]),
            "test_block": first_labelled("test", c["test"]),
        }
        for c in alignment["changes"]
        if c["kind"] == "move"
    ]


def page_data(root: Path, pair: str, draft: Path | None = None) -> dict[str, Any]:
    """Everything the page shows, as one JSON-ready mapping (deterministic: no clock, no host).

    ``draft`` is a labels file outside the corpus (``alignbench review OLD NEW``); without it the
    pair's ``corpus/labels/real/PAIR/labels.yaml``."""
    path, data, sides = open_draft(root, pair, draft)
    alignment = engine_alignment(root, sides)
    shown = f"{REAL_LABELS}/{pair}/labels.yaml" if draft is None else draft.name
    return {
        "format": PAGE_FORMAT,
        "pair": pair,
        "draft": {"file": shown, "sha256": file_sha256(path)},
        "labelled_by": data["review"]["labelled_by"],
        "documents": {
            side: {
                "file": sides[side].file,
                "sha256": sides[side].sha256,
                "blocks": _blocks(sides[side], side),
            }
            for side in SIDES
        },
        "decisions": draft_decisions(data),
        "evidence": evidence(data, sides, alignment),
        "engine": {"version": alignment["engine"]["version"], "moves": engine_moves(alignment, sides)},
    }


def _asset(name: str) -> str:
    return resources.files("alignbench.review").joinpath("templates", name).read_text(encoding="utf-8")


INCLUDE = "  // @include review-keys.js\n"


def _script() -> str:
    """review.js with the keyboard part (review-keys.js) put in place: one closure, two files."""
    script = _asset("review.js")
    if script.count(INCLUDE) != 1:
        raise AlignbenchError("review.js: expected one '@include review-keys.js' line (package damaged)")
    return script.replace(INCLUDE, _asset("review-keys.js"))


def render_page(data: dict[str, Any]) -> str:
    """The HTML text: the Jinja2 template with the CSS, the JS and the data inlined."""
    import jinja2

    environment = jinja2.Environment(
        loader=jinja2.FunctionLoader(_asset), autoescape=True, keep_trailing_newline=True
    )
    # JSON inside <script> must not close the element: escape '<', '>' and '&' as \u escapes.
    blob = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    blob = blob.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return environment.get_template("review.html.j2").render(
        pair=data["pair"],
        css=jinja2.filters.Markup(_asset("review.css")),
        js=jinja2.filters.Markup(_script()),
        data=jinja2.filters.Markup(blob),
    )


def write_page(root: Path, pair: str, out: Path, draft: Path | None = None, *, force: bool = False) -> str:
    """Build and write the page atomically, never onto its inputs; returns the one-line summary."""
    from alignbench.outputs import check_output, write_output

    inputs = [draft if draft is not None else draft_path(root, pair), root / "params.yaml"]
    check_output(out, inputs=inputs, force=force, flag="--out")
    data = page_data(root, pair, draft)
    inputs += [root / data["documents"][side]["file"] for side in SIDES]
    write_output(out, render_page(data), inputs=inputs, force=force, flag="--out")
    counts = {side: len(data["documents"][side]["blocks"]) for side in SIDES}
    return (
        f"wrote {out}: review page for {pair} ({len(data['decisions'])} draft rows, "
        f"{counts['source']} source and {counts['test']} test blocks); open it in a browser"
    )
