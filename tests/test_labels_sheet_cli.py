"""The sheet workflow end to end on the real-tier fixture: blank sheet, blind compile, agree, adjudicate."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from alignbench.cli import main as alignbench_main
from alignbench.labels.io import dump_labels, load_labels
from alignbench.labels.sign import sign
from labels_fixtures.support import FIXTURES

PAIR_DIR = Path("corpus/labels/real/mini")
_CATALOGUE = re.compile(r"^# ([ST])(\d+) (\S+) (\S+) (\S+) \| (.*)$")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for marker in ("ALIGNBENCH_AGENT", "CLAUDECODE", "CODEX_SANDBOX", "AIDER_MODEL"):
        monkeypatch.delenv(marker, raising=False)
    shutil.copytree(FIXTURES / "repo", tmp_path, dirs_exist_ok=True)
    return tmp_path


def _run(repo: Path, *args: str) -> int:
    return alignbench_main(["label", *args, "--root", str(repo)])


def _decide_by_text(sheet: str) -> list[str]:
    """Decisions read off the catalogue alone: equal text links, leftovers pair up by kind, else -/+."""
    blocks: dict[str, list[tuple[str, str, str]]] = {"S": [], "T": []}
    for line in sheet.splitlines():
        m = _CATALOGUE.match(line)
        if m:
            blocks[m.group(1)].append((f"{m.group(1)}{m.group(2)}", m.group(4), m.group(6)))
    decisions, used = [], set()
    for sid, _, text in blocks["S"]:
        match = next((t for t in blocks["T"] if t[2] == text and t[0] not in used), None)
        if match:
            used.add(match[0])
            decisions.append(f"{sid} = {match[0]}")
    linked = {d.split(" = ")[0] for d in decisions}
    for sid, kind, _ in blocks["S"]:
        if sid in linked:
            continue
        match = next(
            (t for t in blocks["T"] if t[1] == kind and t[0] not in used and kind != "paragraph"), None
        )
        if match:
            used.add(match[0])
            decisions.append(f"{sid} = {match[0]}")
        else:
            decisions.append(f"{sid} = -")
    decisions += [f"- = {t[0]}" for t in blocks["T"] if t[0] not in used]
    return decisions


def _write_decisions(sheet_path: Path, decisions: list[str]) -> None:
    text = sheet_path.read_text(encoding="utf-8")
    sheet_path.write_text(text + "\n".join(decisions) + "\n", encoding="utf-8")


def test_blank_sheet_reads_only_the_documents(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pair_dir = repo / PAIR_DIR
    pair_dir.mkdir(parents=True)
    # an engine draft that is not even valid YAML: a blank sheet must never open it
    (pair_dir / "labels.yaml").write_text("proposed_by: exact\n  - {kind: engine\n", encoding="utf-8")
    assert _run(repo, "sheet", "mini", "--blank") == 0
    assert "blank, 11 source and 11 test blocks" in capsys.readouterr().out
    text = (pair_dir / "blind-sheet.txt").read_text(encoding="utf-8")
    assert [line for line in text.splitlines() if line.strip() and not line.startswith("#")] == []
    for engine_word in ("proposed", "exact", "fuzzy", "positional", "structural", "engine", "confirmed"):
        assert not re.search(rf"\b{engine_word}\b", text), engine_word
    assert "# S2 /section[1]/list_item[1] list_item 1 | The supplier delivers the goods" in text
    # without --blank the sheet comes from labels.yaml, so the broken draft is reported, not used
    assert _run(repo, "sheet", "mini") == 2
    assert "labels.yaml" in capsys.readouterr().err


@dataclass
class TwoPasses:
    pair_dir: Path
    blank: str
    primary_sheet: Path
    primary: Path
    blind: Path
    decisions: list[str]
    blind_decisions: list[str]


def _primary_and_blind(repo: Path) -> TwoPasses:
    """A primary labelling by text and a blind one that reads clauses 2 and 3 as renumbered in place."""
    pair_dir = repo / PAIR_DIR
    assert _run(repo, "sheet", "mini", "--blank") == 0
    blank = (pair_dir / "blind-sheet.txt").read_text(encoding="utf-8")
    decisions = _decide_by_text(blank)
    primary_sheet = pair_dir / "primary-sheet.txt"
    shutil.copyfile(pair_dir / "blind-sheet.txt", primary_sheet)
    _write_decisions(primary_sheet, decisions)
    primary = pair_dir / "labels.yaml"
    assert (
        _run(repo, "compile", "mini", str(primary_sheet), "--by", "agent:primary", "--out", str(primary)) == 0
    )
    blind_decisions = [{"S3 = T4": "S3 = T3", "S4 = T3": "S4 = T4"}.get(d, d) for d in decisions]
    _write_decisions(pair_dir / "blind-sheet.txt", blind_decisions)
    assert _run(repo, "compile", "mini", str(pair_dir / "blind-sheet.txt"), "--by", "agent:blind") == 0
    return TwoPasses(
        pair_dir, blank, primary_sheet, primary, pair_dir / "blind-labels.yaml", decisions, blind_decisions
    )


def test_primary_and_blind_passes_agree_and_adjudications_are_checked(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    passes = _primary_and_blind(repo)
    pair_dir, primary, blind = passes.pair_dir, passes.primary, passes.blind
    assert "S3 = T4" in passes.decisions and "- = T5" in passes.decisions  # clause 2 -> 3; clause 4 is new
    assert _run(repo, "check", "mini") == 0
    data = load_labels(primary)
    assert data["provenance"]["origin"] == "written for the alignbench label tests"  # from the manifest
    assert {r["status"] for s in ("correspondences", "inserted", "deleted") for r in data[s]} == {"confirmed"}
    # the blind labeller read clauses 2 and 3 as renumbered in place: exactly two disagreements
    capsys.readouterr()
    agreement = pair_dir / "agreement.json"
    assert alignbench_main(["label", "agree", str(primary), str(blind), "--json", str(agreement)]) == 0
    report = json.loads(agreement.read_text(encoding="utf-8"))
    assert (report["a"]["labelled_by"]["id"], report["b"]["labelled_by"]["id"]) == ("primary", "blind")
    assert len(report["disagreements"]) == 2
    assert report["correspondences"]["f1"] < 1.0
    first = report["disagreements"][0]["id"]

    def adjudicate(items: list[dict]) -> None:
        labels = load_labels(primary)
        labels["review"]["adjudications"] = items
        primary.write_text(dump_labels(labels), encoding="utf-8")

    ruling = {"ruling": "a", "reason": "clause 2 is the payment clause in both versions"}
    adjudicate([{"disagreement": first, **ruling, "by": {"kind": "human", "id": "adjudicator"}}])
    assert _run(repo, "check", "mini") == 0
    capsys.readouterr()
    adjudicate(
        [
            {"disagreement": "x-000000000000", **ruling, "by": {"kind": "human", "id": "adjudicator"}},
            {"disagreement": first, **ruling, "by": {"kind": "agent", "id": "primary"}},
        ]
    )
    assert _run(repo, "check", "mini") == 1
    err = capsys.readouterr().err
    assert (
        "$.review.adjudications[0].disagreement: x-000000000000 is not a disagreement id of agreement.json"
        in err
    )
    assert "$.review.adjudications[1].by: primary labelled this pair in the agreement" in err
    agreement.unlink()
    assert _run(repo, "check", "mini") == 1
    assert "no agreement.json next to the labels" in capsys.readouterr().err


def test_recompiling_keeps_untouched_evidence_and_refuses_a_blind_overwrite(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pair_dir = repo / PAIR_DIR
    assert _run(repo, "sheet", "mini", "--blank", "--out", str(repo / "s.txt")) == 0
    _write_decisions(repo / "s.txt", _decide_by_text((repo / "s.txt").read_text(encoding="utf-8")))
    primary = pair_dir / "labels.yaml"
    assert (
        _run(repo, "compile", "mini", str(repo / "s.txt"), "--by", "agent:primary", "--out", str(primary))
        == 0
    )
    data = load_labels(primary)
    data["move_verdicts"] = [
        {
            "source": data["correspondences"][2]["source"],
            "test": data["correspondences"][2]["test"],
            "source_digest": data["correspondences"][2]["source_digest"],
            "test_digest": data["correspondences"][2]["test_digest"],
            "verdict": "wrong",
            "reason": "a renumber, not a move",
            "by": {"kind": "agent", "id": "primary"},
        }
    ]
    signed_text = dump_labels(sign(data, "primary", "agent", "labeller", "t", env={}))
    primary.write_text(signed_text, encoding="utf-8")
    capsys.readouterr()

    blind_over_primary = [
        "compile",
        "mini",
        str(repo / "s.txt"),
        "--by",
        "agent:primary",
        "--out",
        str(primary),
    ]
    assert _run(repo, *blind_over_primary) == 2
    assert "no --draft was given" in capsys.readouterr().err
    assert (
        _run(repo, "compile", "mini", str(repo / "s.txt"), "--by", "agent:primary", "--draft", str(primary))
        == 0
    )
    captured = capsys.readouterr()
    # The same sheet again changes nothing: the signature and the verdict stand.
    assert "dropped" not in captured.err and "0 corrected" in captured.out
    assert primary.read_text(encoding="utf-8") == signed_text

    # Unlinking one row drops the signature (it covers the whole file) and only the verdict on that row.
    lines = (repo / "s.txt").read_text(encoding="utf-8").splitlines()
    address = {f"{m.group(1)}{m.group(2)}": m.group(3) for m in map(_CATALOGUE.match, lines) if m}
    ruled = (data["move_verdicts"][0]["source"], data["move_verdicts"][0]["test"])
    decisions = _decide_by_text((repo / "s.txt").read_text(encoding="utf-8"))
    for touched in (False, True):

        def is_target(line: str, touched: bool = touched) -> bool:
            left, _, right = line.partition(" = ")
            hit = (address.get(left), address.get(right)) == ruled
            return " " not in left and " " not in right and "-" not in line and hit == touched

        target = next(line for line in decisions if is_target(line))
        left, _, right = target.partition(" = ")
        changed = [line for line in decisions if line != target] + [f"{left} = -", f"- = {right}"]
        sheet = repo / f"changed-{touched}.txt"
        blank = [line for line in lines if not line.strip() or line.startswith("#")]
        sheet.write_text("\n".join(blank) + "\n", encoding="utf-8")
        _write_decisions(sheet, changed)
        primary.write_text(signed_text, encoding="utf-8")
        assert (
            _run(repo, "compile", "mini", str(sheet), "--by", "agent:primary", "--draft", str(primary)) == 0
        )
        err = capsys.readouterr().err
        assert "dropped 1 signature(s) by primary (labeller)" in err
        again = load_labels(primary)
        assert again["review"]["signatures"] == []
        assert again["move_verdicts"] == ([] if touched else data["move_verdicts"])
        assert ("dropped 1 move verdict(s)" in err) == touched

    assert (
        _run(
            repo, "compile", "mini", str(repo / "s.txt"), "--by", "engine:alignbench", "--draft", str(primary)
        )
        == 2
    )
    assert "generator and engine never label through a sheet" in capsys.readouterr().err


def test_rule_and_reviewer_compile_record_an_adjudication_without_renaming_the_labeller(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    passes = _primary_and_blind(repo)
    primary, primary_sheet = passes.primary, passes.primary_sheet
    agreement = passes.pair_dir / "agreement.json"
    assert alignbench_main(["label", "agree", str(primary), str(passes.blind), "--json", str(agreement)]) == 0
    first, second = (d["id"] for d in json.loads(agreement.read_text(encoding="utf-8"))["disagreements"])

    # a labeller may not rule on its own pair; the third party may, once per disagreement
    assert _run(repo, "rule", "mini", first, "--ruling", "a", "--reason", "x", "--by", "agent:blind") == 2
    for ident in (first, second):
        args = ("rule", "mini", ident, "--ruling", "b", "--reason", "clauses renumbered in place")
        assert _run(repo, *args, "--by", "agent:adjudicator") == 0
    # applying ruling b: the adjudicator corrects the primary's rows as a reviewer
    primary_sheet.write_text(passes.blank, encoding="utf-8")
    _write_decisions(primary_sheet, passes.blind_decisions)
    compile_args = (
        "compile",
        "mini",
        str(primary_sheet),
        "--by",
        "agent:adjudicator",
        "--draft",
        str(primary),
    )
    assert _run(repo, *compile_args, "--as-reviewer") == 0
    data = load_labels(primary)
    assert data["review"]["labelled_by"] == {"kind": "agent", "id": "primary"}
    assert data["review"]["reviewed_by"] == [{"kind": "agent", "id": "adjudicator", "role": "reviewer"}]
    assert sorted(a["disagreement"] for a in data["review"]["adjudications"]) == sorted([first, second])
    corrected = [r for r in data["correspondences"] if r["status"] == "corrected"]
    assert len(corrected) == 2
    assert _run(repo, "check", "mini") == 0
