"""Agreement between two independent labellings of one pair (seed 003's blind second pass).

Agreement is measured, not assumed: correspondence precision/recall/F1 of B against A, the same for
moves, renumbers and splits/merges, and a list of disagreements. A disagreement is one block whose
fate differs between A and B; its id (``x-`` + 12 hex of the canonical JSON of its content) is stable, so an
adjudication in ``review.adjudications`` can reference it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from alignbench.blocks import is_renumber
from alignbench.errors import AlignbenchError
from alignbench.score.ratios import fmt, ratio, rounded

Fate = dict[str, Any]
# The kinds agreement is measured on, in report order. Files frozen before splits/merges were
# measured lack that key; readers treat it as not measured rather than as agreement.
AGREEMENT_KINDS: tuple[str, ...] = ("correspondences", "moves", "renumbers", "splits_merges")


def set_agreement(a: set[tuple[Any, ...]], b: set[tuple[Any, ...]]) -> dict[str, Any]:
    """Precision, recall and F1 of ``b`` against ``a``; two empty sets agree perfectly."""
    agreed = len(a & b)
    if not a and not b:
        precision = recall = f1 = 1.0
    else:
        precision, recall = rounded(ratio(agreed, len(b))), rounded(ratio(agreed, len(a)))
        f1 = round(2 * agreed / (len(a) + len(b)), 4)
    return {"a": len(a), "b": len(b), "agreed": agreed, "precision": precision, "recall": recall, "f1": f1}


def _links(data: dict[str, Any]) -> set[tuple[str, str]]:
    return {(r["source"], r["test"]) for r in data["correspondences"]}


def _moves(data: dict[str, Any]) -> set[tuple[str, str]]:
    return {(r["source"], r["test"]) for r in data["correspondences"] if r["kind"] == "move"}


def _renumbers(data: dict[str, Any]) -> set[tuple[str, str, str | None, str | None]]:
    return {
        (r["source"], r["test"], r["source_label"], r["test_label"])
        for r in data["correspondences"]
        if is_renumber(r["source_label"], r["test_label"])
    }


def _splits_merges(data: dict[str, Any]) -> set[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    return {
        (section, tuple(sorted(r["source"])), tuple(sorted(r["test"])))
        for section in ("splits", "merges")
        for r in data[section]
    }


def _fates(data: dict[str, Any], side: str) -> dict[str, Fate]:
    """What each labelled address of ``side`` became (first row wins; totality is check's job)."""
    other = "test" if side == "source" else "source"
    fates: dict[str, Fate] = {}
    for r in data["correspondences"]:
        fates.setdefault(r[side], {"as": "correspondence", other: r[other], "kind": r["kind"]})
    single = "deleted" if side == "source" else "inserted"
    for r in data[single]:
        fates.setdefault(r[side], {"as": single})
    for section in ("splits", "merges", "unscored"):
        for r in data[section]:
            for address in r[side]:
                fates.setdefault(address, {"as": section, other: sorted(r[other])})
    return fates


def _disagreement(side: str, address: str, fate_a: Fate | None, fate_b: Fate | None) -> dict[str, Any]:
    content = {"side": side, "address": address, "a": fate_a, "b": fate_b}
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return {"id": "x-" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12], **content}


def disagreements(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """One entry per source block whose fate differs, then per test block that neither side links.

    A test block linked in A or B is already covered by its source block's disagreement, so a swapped
    pair of links is exactly two disagreements, not four.
    """
    found: list[dict[str, Any]] = []
    src_a, src_b = _fates(a, "source"), _fates(b, "source")
    for address in sorted(set(src_a) | set(src_b)):
        if src_a.get(address) != src_b.get(address):
            found.append(_disagreement("source", address, src_a.get(address), src_b.get(address)))
    tst_a, tst_b = _fates(a, "test"), _fates(b, "test")
    for address in sorted(set(tst_a) | set(tst_b)):
        fa, fb = tst_a.get(address), tst_b.get(address)
        linked = any(f is not None and f["as"] == "correspondence" for f in (fa, fb))
        if fa != fb and not linked:
            found.append(_disagreement("test", address, fa, fb))
    return found


def agree(a: dict[str, Any], b: dict[str, Any], names: tuple[str, str] = ("A", "B")) -> dict[str, Any]:
    """The agreement report of ``b`` against ``a`` (both schema-valid labelings of the same pair)."""
    if (a["pair"], a["source"]["sha256"], a["test"]["sha256"]) != (
        b["pair"],
        b["source"]["sha256"],
        b["test"]["sha256"],
    ):
        raise AlignbenchError(
            f"{names[1]} labels pair {b['pair']!r} (or other document versions) but {names[0]} labels "
            f"{a['pair']!r}; agreement needs two labellings of the same two documents"
        )
    return {
        "pair": a["pair"],
        "a": {"labelled_by": a["review"]["labelled_by"]},
        "b": {"labelled_by": b["review"]["labelled_by"]},
        "correspondences": set_agreement(_links(a), _links(b)),
        "moves": set_agreement(_moves(a), _moves(b)),
        "renumbers": set_agreement(_renumbers(a), _renumbers(b)),
        "splits_merges": set_agreement(_splits_merges(a), _splits_merges(b)),
        "disagreements": disagreements(a, b),
    }


def _describe_fate(fate: Fate | None) -> str:
    if fate is None:
        return "(absent)"
    if fate["as"] == "correspondence":
        other = fate.get("test", fate.get("source"))
        return f"{fate['kind']} {other}"
    others = fate.get("test", fate.get("source"))
    return fate["as"] if others is None else f"{fate['as']} {', '.join(others) or '-'}"


def render_table(report: dict[str, Any]) -> str:
    """A readable Markdown summary: one line per figure, one table row per disagreement."""

    lines = [f"# Agreement for {report['pair']}", "", "| what | A | B | agreed | precision | recall | F1 |"]
    lines.append("|---|---:|---:|---:|---:|---:|---:|")
    for key in AGREEMENT_KINDS:
        if key not in report:
            continue
        r = report[key]
        lines.append(
            f"| {key} | {r['a']} | {r['b']} | {r['agreed']} | {fmt(r['precision'])} | "
            f"{fmt(r['recall'])} | {fmt(r['f1'])} |"
        )
    lines += ["", f"{len(report['disagreements'])} disagreement(s)", ""]
    if report["disagreements"]:
        lines += ["| id | side | address | A | B |", "|---|---|---|---|---|"]
        for d in report["disagreements"]:
            lines.append(
                f"| {d['id']} | {d['side']} | {d['address']} "
                f"| {_describe_fate(d['a'])} | {_describe_fate(d['b'])} |"
            )
    return "\n".join(lines) + "\n"
