"""check: digests re-derived from the documents, totality, ids and kinds, signatures; figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from alignbench.errors import AlignbenchError
from alignbench.labels.check import check_file, verdict_for
from alignbench.labels.io import dump_labels, load_labels
from alignbench.labels.sign import content_digest, sign
from labels_fixtures.support import FIXTURES, blocks_json_reader, copy_pair


def _check(path: Path):
    return check_file(path, root=path.parent, reader=blocks_json_reader, expect=("real", "fixture-terms"))


def _rewrite(path: Path, mutate) -> None:
    data = load_labels(path)
    mutate(data)
    path.write_text(dump_labels(data), encoding="utf-8")


def test_golden_passes_with_figures() -> None:
    result = _check(FIXTURES / "labels.yaml")
    assert result.problems == []
    figures = result.figures
    assert figures["rows"] == 9
    assert (figures["proposed"], figures["confirmed"], figures["corrected"]) == (0, 8, 1)
    assert figures["override_rate"] == round(1 / 9, 4)
    assert figures["renumbers"] == 2
    assert figures["labelled_by"] == "human"
    assert figures["signed"] is False


def test_stale_digest_lists_every_address_with_the_reanchor_hint(tmp_path: Path) -> None:
    path = copy_pair(tmp_path)
    doc = json.loads((tmp_path / "test.blocks.json").read_text())
    items = doc["root"]["children"][0]["children"]
    items[1]["text"] = "The supplier delivers the goods within ten days of the order."
    items[3]["text"] = "Payment is due within ninety days of the invoice."
    (tmp_path / "test.blocks.json").write_text(json.dumps(doc))
    problems = _check(path).problems
    stale = [p for p in problems if p.startswith("labels stale")]
    assert len(stale) == 1
    assert "labels stale for 2 address(es)" in stale[0]
    assert "test /section[1]/list_item[1]" in stale[0] and "test /section[1]/list_item[3]" in stale[0]
    assert stale[0].endswith("run `alignbench label reanchor fixture-terms`")
    assert any(p.startswith("$.test.sha256: test.blocks.json changed since labelling") for p in problems)


def test_missing_block(tmp_path: Path) -> None:
    path = copy_pair(tmp_path)
    _rewrite(path, lambda d: d.update(deleted=[]))
    assert _check(path).problems == [
        "source: 1 labelled block(s) missing from every row section: /section[1]/paragraph[1]; "
        "add each to correspondences, inserted, deleted, splits, merges or unscored"
    ]


def test_duplicated_block(tmp_path: Path) -> None:
    path = copy_pair(tmp_path)
    row = {"source": ["/section[1]/list_item[1]"], "test": [], "reason": "twice on purpose"}
    _rewrite(path, lambda d: d["unscored"].append(row))
    assert _check(path).problems == [
        "source: 1 block(s) labelled more than once: /section[1]/list_item[1]; keep exactly one row per block"
    ]


def test_unknown_address_used_twice_is_listed_not_crashed(tmp_path: Path) -> None:
    path = copy_pair(tmp_path)
    rows = [{"source": [], "test": ["/section[1]/list_item[9]"], "reason": f"ghost {i}"} for i in (1, 2)]
    _rewrite(path, lambda d: d["unscored"].extend(rows))
    problems = _check(path).problems
    assert len(problems) == 2
    assert problems[0].startswith("test: 1 block(s) labelled more than once: /section[1]/list_item[9]")
    assert problems[1].startswith("test: 2 address(es) name no labelled block of test.blocks.json")


def test_address_of_no_block(tmp_path: Path) -> None:
    path = copy_pair(tmp_path)
    row = {"source": [], "test": ["/section[1]/list_item[9]"], "reason": "no such block"}
    _rewrite(path, lambda d: d["unscored"].append(row))
    (problem,) = _check(path).problems
    assert "test: 1 address(es) name no labelled block of test.blocks.json: $.unscored[0].test[0]" in problem


def test_kind_must_agree_with_labels_and_ids_with_addresses(tmp_path: Path) -> None:
    path = copy_pair(tmp_path)

    def mutate(d: dict) -> None:
        d["correspondences"][2]["kind"] = "same"
        d["inserted"][0]["id"] = "i-000000000000"

    _rewrite(path, mutate)
    problems = _check(path).problems
    assert (
        "$.correspondences[2].kind: 'same' but the number changed ('1.2' -> '1.3'); use renumber (or move)"
        in problems
    )
    assert any(
        p.startswith("$.inserted[0].id: is i-000000000000 but the row's addresses give i-") for p in problems
    )


def test_pair_and_tier_must_match_the_location() -> None:
    result = check_file(
        FIXTURES / "labels.yaml", root=FIXTURES, reader=blocks_json_reader, expect=("synthetic", "x")
    )
    assert "$.tier: is 'real' but the file lives at tier 'synthetic'; fix it" in result.problems
    assert "$.pair: is 'fixture-terms' but the file lives at pair 'x'; fix it" in result.problems


def test_proposed_row_blocks_signing() -> None:
    data = load_labels(FIXTURES / "labels.yaml")
    data["correspondences"][4]["status"] = "proposed"
    with pytest.raises(
        AlignbenchError, match=r"cannot sign while 1 row\(s\) are still proposed \(correspondences\[4\]\)"
    ):
        sign(data, "ada", "human", "labeller", "labels.yaml", env={})


@pytest.mark.parametrize(
    ("signer", "env", "why"),
    [
        ("agent:labeller-1", {}, "starts with 'agent:'"),
        ("engine:0.1.0", {}, "starts with 'engine:'"),
        ("ada", {"ALIGNBENCH_AGENT": "1"}, "environment variable ALIGNBENCH_AGENT is set"),
    ],
)
def test_agent_cannot_sign_as_human(signer: str, env: dict, why: str) -> None:
    data = load_labels(FIXTURES / "labels.yaml")
    with pytest.raises(AlignbenchError, match="refusing to sign as human") as err:
        sign(data, signer, "human", "reviewer", "labels.yaml", env=env)
    assert why in str(err.value)
    signed = sign(data, signer, "agent", "reviewer", "labels.yaml", env=env)
    assert signed["review"]["signatures"][0]["kind"] == "agent"


def test_signature_survives_resign_and_is_broken_by_an_edit(tmp_path: Path) -> None:
    path = copy_pair(tmp_path)
    data = sign(load_labels(path), "ada", "human", "labeller", str(path), env={})
    data = sign(data, "bob", "human", "reviewer", str(path), env={})
    path.write_text(dump_labels(data), encoding="utf-8")
    result = _check(path)
    assert result.problems == []
    assert result.figures["signed"] is True
    assert data["review"]["signatures"][0]["content_digest"] == content_digest(data)

    _rewrite(path, lambda d: d["correspondences"][0].update(status="corrected"))
    problems = _check(path).problems
    assert len(problems) == 2
    assert all("does not match the label content" in p for p in problems)
    assert "$.review.signatures[0]: signature by ada (labeller)" in problems[0]


def test_tampered_signature_and_forged_human_kind(tmp_path: Path) -> None:
    path = copy_pair(tmp_path)
    data = sign(load_labels(path), "agent:x", "agent", "reviewer", str(path), env={})
    data["review"]["signatures"][0]["kind"] = "human"  # forged by hand
    data["review"]["signatures"][0]["content_digest"] = "0" * 64
    path.write_text(dump_labels(data), encoding="utf-8")
    problems = _check(path).problems
    assert any("does not match the label content" in p and "tampered" in p for p in problems)
    assert any("claims kind human but id 'agent:x' starts with 'agent:'" in p for p in problems)


def test_verdict_for_matches_the_move_and_both_digests() -> None:
    """A verdict rules on the move itself (issue #27): it carries across engine builds and stops
    applying as soon as either block's digest changes."""
    data = load_labels(FIXTURES / "labels.yaml")
    src, tst = "/section[1]/list_item[2]", "/section[1]/list_item[3]"
    assert verdict_for(data, src, tst, "aeef68e85455183f", "a3b69fb832e308c8") == "wrong"
    assert verdict_for(data, src, tst, "aeef68e85455183f", "ffffffffffffffff") is None
    assert verdict_for(data, tst, src, "aeef68e85455183f", "a3b69fb832e308c8") is None


def test_a_renumber_needs_two_labels_and_a_migration_carries_a_signature(tmp_path: Path) -> None:
    """'renumber' with a label on one side only is refused; a signature made before a recorded
    migration is carried, and stops being carried when the migration record is tampered with."""
    from alignbench.labels.documents import open_pair
    from alignbench.labels.migrate import migrate_moves
    from alignbench.labels.sign import sign

    path = copy_pair(tmp_path)

    def one_sided(d: dict) -> None:
        d["correspondences"][0]["test_label"] = None
        d["correspondences"][0]["kind"] = "renumber"

    _rewrite(path, one_sided)
    assert any("a renumber needs two different labels" in p for p in _check(path).problems)

    path = copy_pair(tmp_path)
    data = load_labels(path)
    data["correspondences"][3]["kind"] = "renumber"  # the old rule's flags: a swap with no move
    old = sign(data, "fixture-reviewer", "human", "reviewer", str(path))
    sides = open_pair(old, tmp_path, blocks_json_reader)
    migrated, changed = migrate_moves(old, sides)
    assert changed == [{"id": "c-4afcaedd31eb", "from": "renumber", "to": "move"}]
    path.write_text(dump_labels(migrated), encoding="utf-8")
    assert _check(path).problems == []  # the signature is carried through the recorded migration
    migrated["migrations"][0]["rows"][0]["from"] = "same"
    path.write_text(dump_labels(migrated), encoding="utf-8")
    problems = _check(path).problems
    assert any("undoing the listed rows does not give it back" in p for p in problems)
    assert any("does not match the label content" in p for p in problems)


def test_schema_problem_is_collected_not_raised(tmp_path: Path) -> None:
    path = tmp_path / "labels.yaml"
    path.write_text("schema: alignbench/labels/v1\n", encoding="utf-8")
    result = _check(path)
    assert not result.ok
    assert "schema problem(s)" in result.problems[0]
