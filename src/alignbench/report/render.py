"""Build REPORT.md from results/latest.json, results/tables/*.csv, results/labels.json and the inputs
the report stage reads beside them (the blind pass, the outside set, the reader changes).

The text is generated, byte-stable and carries no clock, host, duration or absolute path. Every
methodological rule is written where the number it affects is printed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from alignbench.engines.registry import Roster, info, roster
from alignbench.report.blind import blind_lines
from alignbench.report.calibration import calibration_notes
from alignbench.report.families import family_lines
from alignbench.report.limits import MOVE_CREDITING, not_claimed_lines
from alignbench.report.markdown import TextTable, read_csv_text, rows_table, table
from alignbench.report.outside import outside_lines
from alignbench.report.plugins import plugin_lines
from alignbench.report.reader_changes import reader_change_lines
from alignbench.report.trust import trust_lines
from alignbench.report.values import assessed, value
from alignbench.score.holdout import holdout_lines
from alignbench.score.ratios import fmt

HEADLINE_COLUMNS = (
    "precision",
    "spurious_rate",
    "recall",
    "f1",
    "f1_plain",
    "move_precision",
    "move_recall",
    "move_ceiling",
    "move_pair_recall",
    "renumber_recall",
)

METHODOLOGY = (
    "**Links only.** Precision and recall count (source, test) correspondences; inserted and deleted "
    "blocks are in neither denominator, so a long, mostly unchanged document cannot inflate F1 by "
    "correctly saying nothing. The **spurious-match rate** (reported pairs with one side labelled "
    "inserted or deleted, over reported pairs) is printed beside precision as the counterweight.",
    "**Excluded:** the root pair (a document matching itself) and containers (document, section, "
    "table). Rows are labelled blocks and are scored in the *all* column.",
    "**Splits, merges and `unscored` regions** are excluded from every denominator, on both sides, "
    "and their counts are printed under each tier.",
    "**Micro-averaged.** Counts are integers summed over the pairs of a tier; each ratio is computed "
    "once from the sums and F1 from the unrounded counts. Rounding happens only here. A zero "
    "denominator prints `n/a`, never 0.",
    "**Twins interchangeable.** `precision`, `recall` and `f1` credit a link when the engine paired the "
    "source block with any *twin* of the labelled partner: a run of byte-identical siblings standing "
    "next to each other (same parent, kind, label and text), which no document tells apart; credit is "
    "one to one within each twin class. `f1_plain` beside it credits the labelled block only. Copies "
    "separated by other content are not twins.",
    "**A move is a change of place in reading order** (`alignbench.moverule`): the correspondences off "
    "the longest in-order chain, marked once at the topmost block of what travelled. A parent change "
    "that keeps reading order (a heading inserted, deleted, promoted or demoted above a block; a list "
    "re-indented) is *reparented*, counted apart and never scored as a move. An engine that reports a "
    "different but equally small set of moves for the same links gets the same credit (tie sets, "
    "`alignbench.score.ties`).",
    "**Moves** are (source, test) pairs read off the engine's `changes` list, one per moved subtree, "
    "at its topmost block. A moved container has no label row, so its move is credited at its first "
    "labelled block in source order (a section's heading). **Move-pair recall** is the share of "
    "labelled moved blocks whose pair the engine got right, whatever its move flag says.",
    "**Renumbers** key on the four-tuple (source address, test address, source label, test label): a "
    "renumber reported with the wrong new label is not a hit. A move whose labels differ is also a "
    "renumber.",
    "**Move ceiling**: labelled moves whose moved text has a byte-identical twin among the leftovers "
    "(other moved blocks plus deleted blocks on the source side, inserted blocks on the test side) "
    "cannot be recovered by any content-based engine that refuses to guess; the ceiling is the best "
    "move recall left after removing them, printed beside move recall.",
    "**Two columns:** *all* = every labelled block; *flat* = rows and cells removed, the blocks a flat "
    "engine can address (like-for-like with the floor).",
    "**Confidence intervals**: 95% percentile bootstrap over pairs (resampled with replacement, "
    "fixed seed from `params.yaml` `score:`), the same resamples for every engine of a tier, so "
    "backend differences are paired. A resample with a zero denominator is left out of that interval.",
    "**Gates** are evaluated on the *all* column and are met only when every backend meets them. A "
    "tier whose labels include engine-proposed rows, or whose hand-labelled pairs carry no human "
    "signature, is **not assessed**, however high its number. Generator-made synthetic labels are "
    "truth by construction and need no signature; that is the one exemption.",
)


def _csv(tables: Mapping[str, str], name: str) -> TextTable:
    return read_csv_text(tables[name], f"results/tables/{name}.csv")


def _ci(block: Mapping[str, Any], metric: str) -> str:
    value = fmt(block["headline"][metric])
    ci = block["ci"][metric]
    return value if ci is None else f"{value} [{fmt(ci[0])}, {fmt(ci[1])}]"


def roster_of(latest: Mapping[str, Any]) -> Roster:
    """The engines scored in ``latest`` (the same in every tier), by role through the registry."""
    tiers = list(latest["tiers"].values())
    return Roster(tuple(tiers[0]["engines"]) if tiers else ())


def _headline(latest: Mapping[str, Any], tier: str, column: str, engines: Roster) -> str:
    data = latest["tiers"][tier]
    rows = []
    for engine in engines.headline:
        block = data["engines"][engine][column]
        rows.append([info(engine).display_name, *(_ci(block, m) for m in HEADLINE_COLUMNS)])
    return rows_table(["engine", *HEADLINE_COLUMNS], rows)


def render_report(
    latest: Mapping[str, Any],
    tables: Mapping[str, str],
    labels_json: Mapping[str, Any] | None,
    *,
    blind: Mapping[str, Any] | None = None,
    hardest: Sequence[Mapping[str, Any]] = (),
    outside: Mapping[str, Any] | None = None,
    reader_changes: Mapping[str, Any] | None = None,
    selected_peers: Sequence[str] | None = None,
    plugin_index: Mapping[str, Any] | None = None,
) -> str:
    """The whole REPORT.md text; a section whose input is absent is left out, never faked."""
    engines = roster_of(latest)
    counted = engines.reference or engines.headline[0]  # the labelled counts are the same in every row
    out: list[str] = [
        "# alignbench benchmark report",
        "",
        "Generated by `stages/report.py` from `results/latest.json`; do not edit by hand.",
        "",
    ]
    out += ["## Methodology", ""] + [f"- {line}" for line in (*METHODOLOGY, *MOVE_CREDITING)]
    for engine in engines.names:  # each engine's own word on how it is run (the floor's lifting rules)
        methodology = getattr(info(engine).engine, "methodology", None)
        if methodology is not None:
            out += methodology()
    out += [""]

    out += ["## Corpus", ""]
    rows = []
    for tier, data in latest["tiers"].items():
        c = data["engines"][counted]["all"]["counts"]
        rows.append(
            [
                tier,
                len(data["pairs"]),
                data.get("controls", "n/a"),
                c["labelled_links"],
                c["labelled_moves"],
                c["labelled_renumbers"],
                c["splits"],
                c["merges"],
                c["unscored"],
                assessed(data["trust"]),
            ]
        )
    out += [
        rows_table(
            [
                "tier",
                "pairs",
                "of which controls",
                "labelled links",
                "moves",
                "renumbers",
                "splits (skipped)",
                "merges (skipped)",
                "unscored (skipped)",
                "gates",
            ],
            rows,
        ),
        "",
        "*Controls* are pairs meant to change nothing that counts (real: `control: true` in the pair's "
        "manifest; synthetic: a declared control plan, never a byte-identical no-op). They are scored "
        "like every other pair and counted here apart, so a reader can see how much of a tier they are.",
        "",
    ]

    out += reader_change_lines(reader_changes, latest)

    out += ["## Headline", "", "Values with their 95% bootstrap interval over pairs.", ""]
    for tier, data in latest["tiers"].items():
        for column, title in (
            ("all", "all labelled blocks"),
            ("flat", "flat-addressable blocks (no rows, cells)"),
        ):
            out += [
                f"### {tier}: {title}",
                "",
                f"Tier status: {assessed(data['trust'])}.",
                "",
                _headline(latest, tier, column, engines),
                "",
            ]
        lost = data["engines"][counted]["all"]["counts"]["move_ceiling_lost"]
        moves = data["engines"][counted]["all"]["counts"]["labelled_moves"]
        floor_counts = data["engines"][counted]["all"]["counts"]
        reparented = ", ".join(
            f"{info(name).display_name} reports "
            f"{data['engines'][name]['all']['counts']['reported_reparented']}"
            for name in engines.subjects
            if name in data["engines"]
        )
        out += [
            f"Move ceiling: {lost} of {moves} labelled moves have a byte-identical twin among the "
            "leftovers and are unrecoverable by content.",
            "",
            f"Reparented (a parent change that kept reading order, never a move): "
            f"{floor_counts['labelled_reparented']} labelled links; {reparented}.",
            "",
        ]

    out += ["## Gates", ""]
    rows = [
        [
            g["name"],
            g["tier"],
            g["rule"],
            ", ".join(f"{b}: {value(v)}" for b, v in g["values"].items()),
            g["status"],
        ]
        for g in latest["gates"]
    ]
    out += [rows_table(["gate", "tier", "rule", "values", "status"], rows), ""]
    out += ["Gate tests live in `tests/test_gates.py`, marked `xfail(strict=True)` while unmet.", ""]

    out += [
        "## Per pass",
        "",
        "Pairs made, scored pairs (in scope), wrong scored pairs and **unique**: "
        "scored pairs the pass made that a re-run with the pass disabled does not contain. Only label, "
        "fuzzy and move can be disabled; the others print n/a.",
        "",
    ]
    out += [table(_csv(tables, "per_pass")), ""]

    out += family_lines(_csv(tables, "per_family") if "per_family" in tables else None)

    out += [
        "## Per plan",
        "",
        "All labelled blocks; pairs grouped by generator plan (hand-labelled pairs "
        "by tier). Per-pair figures are in `results/tables/per_pair.csv`.",
        "",
    ]
    out += [table(_csv(tables, "per_plan")), ""]

    delta = engines.compared
    if delta is not None:
        out += [f"## Backend Δ ({delta[1]} − {delta[0]})", ""]
        out += [table(_csv(tables, "backend_delta")), ""]

    leaderboard = _csv(tables, "leaderboard")
    out += ["## Leaderboard", "", *calibration_notes(latest, engines.names)]
    out += _leaderboard_notes(sorted(set(leaderboard["engine"])), selected_peers, plugin_index)
    out += [table(leaderboard), ""]

    out += trust_lines(latest, labels_json)
    out += ["", *blind_lines(blind, hardest)]
    out += holdout_lines(latest.get("holdout") or {})
    out += holdout_lines(latest.get("holdout_real") or {})
    out += outside_lines(outside)
    out += not_claimed_lines()
    return "\n".join(out) + "\n"


def _leaderboard_notes(
    engines: list[str], selected_peers: Sequence[str] | None, plugin_index: Mapping[str, Any] | None
) -> list[str]:
    """The rules under which the peers' rows were produced (each peer's plug-in gives its note; peers
    sharing one note print it once), and which selected peers are absent and why."""
    peers = list(Roster(tuple(selected_peers)).peers if selected_peers is not None else roster().peers)
    shown = [p for p in peers if p in engines]
    notes: list[Any] = []
    for peer in sorted(peers):
        note = getattr(info(peer).engine, "note", None)
        if note is not None and all(note is not n for n in notes):
            notes.append(note)
    lines: list[str] = []
    for note in notes:
        members = [p for p in sorted(peers) if getattr(info(p).engine, "note", None) is note]
        lines += note.lines([p for p in members if p in engines], [p for p in members if p not in engines])
    lines += plugin_lines([p for p in peers if info(p).third_party], engines, plugin_index)
    if shown:
        lines += [
            '**Move-pair recall** sits beside move precision and recall because which block "moved" '
            "is not unique when siblings reorder: an engine can flag other blocks than the labels and "
            "still pair every moved block correctly.",
            "",
        ]
    lines += [
        "**Time per pair is deliberately absent**: committed outputs carry no durations. It is measured "
        "by `python -m alignbench.peers.timing` (median per pair, every engine, on a fixed sample) "
        "and `python -m alignbench.bench`.",
        "",
    ]
    return lines
