"""The trust section of REPORT.md: who labelled each tier, how much was overridden, blind agreement."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from alignbench.report.markdown import rows_table
from alignbench.report.values import assessed, value
from alignbench.score.ratios import fmt


def trust_lines(latest: Mapping[str, Any], labels_json: Mapping[str, Any] | None) -> list[str]:
    """Per tier trust, the label_check figures, the real tier per pair, and the move verdicts."""
    out: list[str] = []
    out += ["## How much to trust the labels", ""]
    rows = []
    for tier, data in latest["tiers"].items():
        t = data["trust"]
        kinds = ", ".join(f"{k}: {v}" for k, v in t["labelled_by"].items()) or "none"
        rows.append(
            [
                tier,
                t["pairs"],
                kinds,
                t["rows"],
                t["proposed"],
                t["confirmed"],
                t["corrected"],
                fmt(t["override_rate"]),
                t["signed_pairs"],
                t["human_signed_pairs"],
                assessed(t),
            ]
        )
    out += [
        rows_table(
            [
                "tier",
                "pairs",
                "labelled by",
                "rows",
                "proposed",
                "confirmed",
                "corrected",
                "override rate",
                "signed pairs",
                "human-signed pairs",
                "status",
            ],
            rows,
        ),
        "",
    ]
    if not any(d["trust"]["human_signed_pairs"] for d in latest["tiers"].values()):
        kinds = sorted(
            {k for d in latest["tiers"].values() for k, n in d["trust"]["labelled_by"].items() if n}
        )
        out += [
            "**No human has reviewed any label.** Labeller kinds present: "
            + ", ".join(kinds)
            + ". A tier whose rows are still engine-proposed measures the engine agreeing with itself; "
            "a tier reviewed only by agents is evidence, but not human evidence, and its gates "
            "stay not assessed.",
            "",
        ]
    if labels_json is not None:
        out += [
            "As recorded by the `label_check` stage (`results/labels.json`):",
            "",
            _labels_json(labels_json),
            "",
        ]
        out += _real_pair_trust(labels_json)
    for tier, data in latest["tiers"].items():
        verdicts = data["move_verdicts"]
        if data["trust"]["labelled_by"].get("generator") == data["trust"]["pairs"]:
            # Generated truth is complete by construction: an unlabelled engine move is a false positive.
            parts = [f"{b}: {v['unlabelled']} engine moves not in the labels" for b, v in verdicts.items()]
            out += [
                f"- Engine moves, {tier}: " + "; ".join(parts) + " (false positives by construction, "
                "counted in move precision; verdicts apply to hand-labelled tiers only)."
            ]
            continue
        parts = [
            f"{b}: {v['unlabelled']} unlabelled engine moves, {v['wrong']} ruled wrong, "
            f"{v['acceptable']} acceptable, {v['unreviewed']} unreviewed"
            for b, v in verdicts.items()
        ]
        out += [f"- Move verdicts, {tier}: " + "; ".join(parts) + "."]
    return out


def _agreement_cell(agreement: Mapping[str, Any] | None, what: str) -> str:
    if not agreement:
        return ""
    block = agreement[what]
    denominator = block["a"] + block["b"]
    return "n/a" if not denominator else fmt(2 * block["agreed"] / denominator)


def _real_pair_trust(labels_json: Mapping[str, Any]) -> list[str]:
    """Per real pair: who labelled, override rate, signature, and the blind pass's agreement."""
    pairs = [p for p in labels_json.get("pairs", []) if p.get("tier") == "real"]
    if not pairs:
        return []
    rows = [
        [
            p["pair"],
            p["labelled_by"],
            p["rows"],
            p["corrected"],
            fmt(p["override_rate"]),
            "yes" if p["signed"] else "no",
            _agreement_cell(p.get("agreement"), "correspondences"),
            _agreement_cell(p.get("agreement"), "moves"),
            _agreement_cell(p.get("agreement"), "renumbers"),
            "" if not p.get("agreement") else p["agreement"]["disagreements"],
        ]
        for p in pairs
    ]
    header = [
        "pair",
        "labelled by",
        "rows",
        "corrected",
        "override rate",
        "signed",
        "blind F1: links",
        "moves",
        "renumbers",
        "disagreements",
    ]
    out = [
        "Real tier, per pair. The override rate is corrected / status-bearing rows. The blind columns are "
        "the second labeller's agreement with the primary labeller, measured from a blank scaffold and "
        "frozen before adjudication (`agreement.json`); empty where the pair was not in the blind subset.",
        "",
        rows_table(header, rows),
        "",
    ]
    rates = [p["override_rate"] for p in pairs if p["override_rate"] is not None]
    low = sum(1 for r in rates if r < 0.02)
    if rates and low:
        out += [
            f"**{low} of {len(rates)} real pairs have an override rate under 2%.** Seed 000 reads an "
            "implausibly low override rate as the symptom of a labeller who agreed with everything. Here "
            "most of those pairs are near-identical revisions (markup, a typo, one clause), where the "
            "engine's draft was right; the labellers' notes in each `labels.yaml` say what changed. Read "
            "the real-tier numbers with that in mind.",
            "",
        ]
    agents = sorted({p["labelled_by"] for p in pairs})
    if agents == ["agent"]:
        out += [
            "Both the primary and the blind labellers are AI agents (instances of one model family, with "
            "separate briefs and no access to each other's files). Their agreement is therefore not the "
            "agreement of independent human annotators and overstates how reproducible the labels are. "
            "**No human has reviewed these labels.**",
            "",
        ]
    return out


def _labels_json(data: Mapping[str, Any]) -> str:
    """The scalar per-tier figures of results/labels.json, whatever their names, in file order."""
    tiers = data.get("tiers") if isinstance(data.get("tiers"), Mapping) else data
    rows = []
    for tier, figures in tiers.items():
        if not isinstance(figures, Mapping):
            continue
        for key, figure in figures.items():
            if isinstance(figure, Mapping):
                figure = ", ".join(f"{k}: {v}" for k, v in figure.items())
            elif isinstance(figure, list):
                continue
            rows.append([tier, key, value(figure)])
    return rows_table(["tier", "figure", "value"], rows) if rows else "(no per-tier figures)"
