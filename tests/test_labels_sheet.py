"""Decision sheets: render from labels, parse, compile back to the same rows; statuses, shapes, totality."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from alignbench.errors import AlignbenchError
from alignbench.labels.check import check_file
from alignbench.labels.compile import parse_by
from alignbench.labels.io import ROW_SECTIONS, dump_labels, load_labels
from alignbench.labels.workflow import compile_sheet, write_sheet
from labels_fixtures.support import blocks_json_reader, copy_pair

PAIR = "fixture-terms"
AGENT = {"kind": "agent", "id": "sheet-tester"}
# The fixture's decisions as `label sheet` writes them (S3/S4 swapped places in the test).
FIXTURE_DECISIONS = [
    "S1 = T1",
    "S2 = T2",
    "S3 = T4  # payment clause: 1.2 became 1.3",
    "S4 = T3 move",
    "S6 = T6",
    "S7 = T7",
    "S8 = T8",
    "- = T5",
    "S5 = -",
]


def _sheet(tmp_path: Path) -> tuple[Path, str]:
    """The fixture pair copied to ``tmp_path`` and its rendered sheet text."""
    labels = copy_pair(tmp_path)
    outcome = write_sheet(tmp_path, labels, reader=blocks_json_reader)
    return outcome.path, outcome.path.read_text(encoding="utf-8")


def _decisions(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _with_decisions(text: str, decisions: list[str]) -> str:
    kept = [line for line in text.splitlines() if line.startswith("#")]
    return "\n".join(kept + decisions) + "\n"


def _compile(tmp_path: Path, text: str, draft: bool = True, by: dict[str, str] = AGENT) -> dict:
    sheet = tmp_path / "edited.txt"
    sheet.write_text(text, encoding="utf-8")
    out = tmp_path / "compiled.yaml"
    compile_sheet(
        tmp_path,
        PAIR,
        sheet,
        by,
        draft_path=tmp_path / "labels.yaml" if draft else None,
        out=out,
        force=True,
        reader=blocks_json_reader,
    )
    return load_labels(out)


def test_sheet_lists_every_block_and_one_decision_per_row(tmp_path: Path) -> None:
    _, text = _sheet(tmp_path)
    assert _decisions(text) == FIXTURE_DECISIONS
    assert (
        "# S3 /section[1]/list_item[2] list_item 1.2 | Payment is due within sixty days of the invoice."
        in text
    )
    assert "# T8 /section[1]/table[1]/row[1]/cell[2] cell - | 120" in text
    assert text.startswith("#! format: alignbench/label-sheet/v1\n#! pair: fixture-terms\n")


def test_round_trip_gives_identical_rows_and_statuses(tmp_path: Path) -> None:
    _, text = _sheet(tmp_path)
    original = load_labels(tmp_path / "labels.yaml")
    compiled = _compile(tmp_path, text)
    for section in ROW_SECTIONS:
        assert compiled[section] == original[section], section
    assert compiled["provenance"] == original["provenance"]
    assert compiled["review"]["labelled_by"] == AGENT
    assert compiled["move_verdicts"] == []  # dropped: the content was recompiled


def test_statuses_confirmed_corrected_and_added(tmp_path: Path) -> None:
    labels = copy_pair(tmp_path)
    draft = load_labels(labels)
    for section in ("correspondences", "inserted", "deleted"):
        for row in draft[section]:
            row["status"] = "proposed"
            row["proposed_by"] = "exact"
    labels.write_text(dump_labels(draft), encoding="utf-8")
    text = write_sheet(tmp_path, labels, reader=blocks_json_reader).path.read_text(encoding="utf-8")
    edited = [d for d in _decisions(text) if d not in ("S5 = -", "- = T5")]
    edited += ["S5 = T5  # the governing-law paragraph became clause 1.4"]  # replaces a deletion + insertion
    # a `move` flag on a link that kept its reading order: flags follow the links (issue #27), so the
    # row stays what the rule says and is not a correction
    edited = [d.replace("S2 = T2", "S2 = T2 move") for d in edited]
    compiled = _compile(tmp_path, _with_decisions(text, edited))
    by_source = {r["source"]: r for r in compiled["correspondences"]}
    heading = by_source["/section[1]/heading[1]"]
    assert (heading["status"], heading["proposed_by"]) == ("confirmed", "exact")
    moved = by_source["/section[1]/list_item[1]"]
    assert (moved["kind"], moved["status"]) == ("same", "confirmed")
    added = by_source["/section[1]/paragraph[1]"]
    assert (added["test"], added["status"], added["note"]) == (
        "/section[1]/list_item[4]",
        "corrected",
        "the governing-law paragraph became clause 1.4",
    )
    assert compiled["inserted"] == [] and compiled["deleted"] == []


def test_move_flags_and_kinds_are_derived_from_the_links(tmp_path: Path) -> None:
    """Flags follow the links (issue #27): with or without the sheet's `move` tokens, the swapped pair's
    later clause is the move, the other a renumber."""
    _, text = _sheet(tmp_path)
    for edited in (
        [d.replace(" move", "") for d in FIXTURE_DECISIONS],
        [d.replace("S3 = T4", "S3 = T4 move").replace("S4 = T3 move", "S4 = T3") for d in FIXTURE_DECISIONS],
    ):
        rows = {r["source"]: r for r in _compile(tmp_path, _with_decisions(text, edited))["correspondences"]}
        assert rows["/section[1]/list_item[3]"]["kind"] == "move"  # 1.3 -> 1.2: later in the source
        assert rows["/section[1]/list_item[2]"]["kind"] == "renumber"  # 1.2 -> 1.3
        assert rows["/section[1]/list_item[1]"]["kind"] == "same"


def test_split_merge_and_unscored_rows(tmp_path: Path) -> None:
    _, text = _sheet(tmp_path)
    edited = [
        "S1 = T1",
        "S2 S3 = T2 merge",
        "S4 = T3 T4 split  # clause 1.3 was divided",
        "S5 = -",
        "- = T5",
        "S6 S7 T6 T7 unscored: table header reshaped",
        "S8 T8 unscored: fee cell",
    ]
    compiled = _compile(tmp_path, _with_decisions(text, edited))
    assert compiled["merges"] == [
        {
            "source": ["/section[1]/list_item[1]", "/section[1]/list_item[2]"],
            "test": ["/section[1]/list_item[1]"],
            "status": "corrected",
        }
    ]
    assert compiled["splits"] == [
        {
            "source": ["/section[1]/list_item[3]"],
            "test": ["/section[1]/list_item[2]", "/section[1]/list_item[3]"],
            "status": "corrected",
            "note": "clause 1.3 was divided",
        }
    ]
    assert [(u["source"], u["test"], u["reason"]) for u in compiled["unscored"]] == [
        (
            ["/section[1]/table[1]/row[1]", "/section[1]/table[1]/row[1]/cell[1]"],
            ["/section[1]/table[1]/row[1]", "/section[1]/table[1]/row[1]/cell[1]"],
            "table header reshaped",
        ),
        (["/section[1]/table[1]/row[1]/cell[2]"], ["/section[1]/table[1]/row[1]/cell[2]"], "fee cell"),
    ]
    # the compiled file passes the full check against the documents (totality included)
    assert check_file(tmp_path / "compiled.yaml", root=tmp_path, reader=blocks_json_reader).problems == []


def test_totality_error_names_every_missing_and_doubled_block(tmp_path: Path) -> None:
    _, text = _sheet(tmp_path)
    # S7/T7 and T5 dropped, T3 used twice (S4 = T3 stays, S5 now also claims it)
    edited = [d for d in FIXTURE_DECISIONS if d not in ("S7 = T7", "- = T5", "S5 = -")] + ["S5 = T3"]
    with pytest.raises(AlignbenchError) as err:
        _compile(tmp_path, _with_decisions(text, edited))
    message = str(err.value)
    assert "not total" in message
    assert "source: 1 block(s) in no decision: S7 /section[1]/table[1]/row[1]/cell[1]" in message
    assert (
        "test: 2 block(s) in no decision: T5 /section[1]/list_item[4]; T7 /section[1]/table[1]/row[1]/cell[1]"
        in message
    )
    assert "test: 1 block(s) in more than one decision: T3 /section[1]/list_item[2] (lines" in message


def test_bad_lines_are_all_listed_with_their_line_numbers(tmp_path: Path) -> None:
    _, text = _sheet(tmp_path)
    edited = [
        *FIXTURE_DECISIONS,
        "S99 = T1",
        "T2 = S2",
        "S1 = T1 T2",
        "S1 = T1 split",
        "S1 = - move",
        "S1 unscored:",
    ]
    with pytest.raises(AlignbenchError) as err:
        _compile(tmp_path, _with_decisions(text, edited))
    message = str(err.value)
    assert "7 problem(s) in the sheet" in message  # T2 = S2 is wrong on both sides
    for expected in (
        "S99 does not exist (the source has 8 labelled blocks)",
        "T2 is a test block but stands on the source side of '='",
        "several test blocks: end the line with 'split' (got no flag)",
        "'split' needs several blocks on one side",
        "'move' applies to a correspondence, not to an insertion or deletion",
        "unscored needs a reason after 'unscored:'",
    ):
        assert expected in message
    first_bad = len([line for line in text.splitlines() if line.startswith("#")]) + len(FIXTURE_DECISIONS) + 1
    assert f"line {first_bad}: S99 does not exist" in message


def test_a_sheet_for_other_documents_or_another_pair_is_refused(tmp_path: Path) -> None:
    _, text = _sheet(tmp_path)
    stale = text.replace("#! pair: fixture-terms", "#! pair: other-pair")
    with pytest.raises(AlignbenchError, match="not a sheet for the current documents of fixture-terms"):
        _compile(tmp_path, stale)
    (tmp_path / "test.blocks.json").write_text(
        (tmp_path / "test.blocks.json").read_text().replace("120", "130"), encoding="utf-8"
    )
    with pytest.raises(AlignbenchError, match="the test document is now"):
        _compile(tmp_path, text)


def test_a_draft_of_another_pair_is_refused(tmp_path: Path) -> None:
    _, text = _sheet(tmp_path)
    sheet = tmp_path / "edited.txt"
    sheet.write_text(text, encoding="utf-8")
    with pytest.raises(AlignbenchError, match="labels pair 'fixture-terms', not 'mini'"):
        compile_sheet(
            tmp_path, "mini", sheet, AGENT, draft_path=tmp_path / "labels.yaml", reader=blocks_json_reader
        )


@pytest.mark.parametrize(
    "value", ["engine:alignbench", "generator:alignbench.generate/1", "agent", "robot:x", "agent:"]
)
def test_by_refuses_machines_and_malformed_identities(value: str) -> None:
    with pytest.raises(AlignbenchError, match="--by"):
        parse_by(value, env={})


def test_by_refuses_human_from_an_automated_session() -> None:
    assert parse_by("agent:primary", env={}) == {"kind": "agent", "id": "primary"}
    assert parse_by("human:alice", env={}) == {"kind": "human", "id": "alice"}
    with pytest.raises(AlignbenchError, match="refusing to record a human labeller"):
        parse_by("human:alice", env={"ALIGNBENCH_AGENT": "1"})


def test_no_sheet_from_labels_that_no_longer_match_the_documents(tmp_path: Path) -> None:
    labels = copy_pair(tmp_path)
    doc = tmp_path / "source.blocks.json"
    doc.write_text(doc.read_text().replace("Payment is due", "Payment falls due"), encoding="utf-8")
    data = load_labels(labels)
    data["source"]["sha256"] = hashlib.sha256(doc.read_bytes()).hexdigest()
    labels.write_text(dump_labels(data), encoding="utf-8")  # same file hash, but one block's text changed
    with pytest.raises(AlignbenchError) as err:
        write_sheet(tmp_path, labels, reader=blocks_json_reader)
    assert "run `alignbench label reanchor fixture-terms`" in str(err.value)
    assert "source /section[1]/list_item[2]" in str(err.value)
    assert not (tmp_path / "sheet.txt").exists()
