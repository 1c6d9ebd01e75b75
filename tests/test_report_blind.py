"""The blind pass in REPORT.md: bars and per-stratum agreement recomputed, hardest quotes checked."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from alignbench.atomic import load_yaml
from alignbench.errors import AlignbenchError
from alignbench.labels.agree import AGREEMENT_KINDS
from alignbench.labels.blind_summary import blind_pass_summary
from alignbench.labels.hardest import HARDEST_FILE, load_hardest
from alignbench.report.blind import blind_lines

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "corpus/labels/real"


def test_strata_pool_every_agreement_record_and_every_ruling() -> None:
    summary = blind_pass_summary(ROOT)
    subset = load_yaml(REAL / "blind-subset.yaml")
    pending = set(subset.get("pending") or [])  # drawn, blind pass not done: no agreement to pool
    pairs = [p for p in (*subset["kept"], *subset["drawn"]) if p not in pending]
    whole = next(s for s in summary["strata"] if s["stratum"] == "all")
    assert whole["pairs"] == len(pairs) == sum(s["pairs"] for s in summary["strata"][:-1])
    for kind in AGREEMENT_KINDS:
        records = [json.loads((REAL / p / "agreement.json").read_text()) for p in pairs]
        assert whole["kinds"][kind]["agreed"] == sum(r[kind]["agreed"] for r in records if kind in r)
        assert whole["kinds"][kind]["missing"] == sum(1 for r in records if kind not in r)
    rulings = [
        a["ruling"] for p in pairs for a in load_yaml(REAL / p / "labels.yaml")["review"]["adjudications"]
    ]
    assert sum(whole["rulings"].values()) == len(rulings)
    assert whole["rulings"]["b"] == rulings.count("b")
    bars = {b["bar"]: b for b in summary["bars"]}
    assert bars["at least 30% of real pairs"]["held"] == len(pairs) + len(pending)  # the draw holds them
    assert all(b["met"] for b in summary["bars"])


def test_blind_lines_print_na_for_a_kind_no_pair_recorded() -> None:
    empty = {"pairs": 0, "missing": 2, "a": 0, "b": 0, "agreed": 0}
    kinds = {k: {"pairs": 2, "missing": 0, "a": 10, "b": 8, "agreed": 8} for k in AGREEMENT_KINDS}
    kinds["splits_merges"] = empty
    row = {"stratum": "all", "pairs": 2, "kinds": kinds, "disagreements": 2, "pairs_with_disagreements": 1}
    summary = {
        "version": 2,
        "seed": "s",
        "fraction": 0.3,
        "rule": ["keep"],
        "kept": 1,
        "drawn": 1,
        "pending": [],
        "bars": [{"bar": "b", "needed": 1, "held": 0, "of": 3, "met": False}],
        "strata": [{**row, "rulings": {"a": 1, "b": 1, "neither": 0}}],
    }
    text = "\n".join(blind_lines(summary, []))
    assert "| all | 2 | 0.8889 (8 of 10 / 8) | 0.8889 (8 of 10 / 8) | 0.8889 (8 of 10 / 8) | n/a |" in text
    assert "| b | 1 | 0 of 3 | **missed** |" in text
    assert "2 pair(s) have no `splits_merges` record" in text


def test_hardest_quotes_the_committed_rulings() -> None:
    hardest = load_hardest(ROOT)
    assert [h["pair"] for h in hardest] == [
        "gh-aup-2019-11-to-2019-12",
        "wpcom-terms-2020-10-to-2021-01",
        "gh-aup-2021-07-to-2022-02",
    ]
    assert [len(h["ids"]) for h in hardest] == [13, 13, 2]
    text = "\n".join(blind_lines(blind_pass_summary(ROOT), hardest))
    assert "(13 ids, e.g. `x-75ff5df3bb71`, `x-89166a1a221e`)" in text
    assert "**Ruling b (blind):** T14 is plainly S20's wording." in text


def test_a_misquoted_ruling_is_refused(tmp_path: Path) -> None:
    pair = "gh-aup-2021-07-to-2022-02"
    (tmp_path / "corpus/labels/real" / pair).mkdir(parents=True)
    for name in ("agreement.json", "labels.yaml"):
        shutil.copy(REAL / pair / name, tmp_path / "corpus/labels/real" / pair / name)
    text = (ROOT / HARDEST_FILE).read_text(encoding="utf-8")
    entry = text[text.index(f"- pair: {pair}") :].replace("ruling: b", "ruling: a")
    (tmp_path / HARDEST_FILE).write_text("hardest:\n" + entry, encoding="utf-8")
    with pytest.raises(AlignbenchError, match=r"hardest\[0\]: ids\[0\] x-788fc57406d7 was ruled 'b'"):
        load_hardest(tmp_path)
    (tmp_path / HARDEST_FILE).write_text("hardest:\n" + entry.replace("x-788fc57406d7", "x-000000000000"))
    with pytest.raises(AlignbenchError, match="x-000000000000 is not a disagreement"):
        load_hardest(tmp_path)


def test_moves_are_re_run_under_the_current_rule_beside_the_frozen_records() -> None:
    """Issue #27: move agreement recomputed from today's labels (flags by the move rule on both sides),
    pooled over every blind-labelled pair of the subset; the frozen agreement.json stays as it is."""
    from alignbench.labels.agree import agree
    from alignbench.labels.io import load_labels
    from alignbench.report.blind import blind_lines

    summary = blind_pass_summary(ROOT)
    now = summary["moves_now"]
    subset = load_yaml(REAL / "blind-subset.yaml")
    measured = set((*subset["kept"], *subset["drawn"])) - set(subset.get("pending") or [])
    # A family may blind-label pairs the draw did not pick (spdx-licence-texts did all eight): they
    # have agreement records, but the subset's pooled figures are over the drawn pairs only.
    blind = sorted(p.parent.name for p in REAL.glob("*/blind-labels.yaml") if p.parent.name in measured)
    moves = [
        agree(load_labels(REAL / p / "labels.yaml"), load_labels(REAL / p / "blind-labels.yaml"))["moves"]
        for p in blind
    ]
    assert now["pairs"] == len(blind) > 0
    assert (now["a"], now["b"], now["agreed"]) == tuple(
        sum(m[k] for m in moves) for k in ("a", "b", "agreed")
    )
    assert any(line.startswith("Moves re-run under today's move rule") for line in blind_lines(summary))
