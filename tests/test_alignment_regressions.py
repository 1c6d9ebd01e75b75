"""The regression cases seed 001 names: each was a silent wrong answer in a prototype."""

from __future__ import annotations

from alignbench.alignment import AlignmentConfig, align
from alignment_fixtures.build import doc, h, li, p, row, sec, table, words

MOVED = "Supplier may terminate this Agreement on thirty days written notice only."
NEWCOMER = "Customer shall pay this invoice after thirty days written receipt today."  # 0.3636 vs MOVED


def pair_map(alignment):
    return {pr.source_path: pr for pr in alignment.pairs}


def test_table_is_paired_structurally_so_rows_and_cells_are_compared():
    source = doc(
        p("Intro text."), table(row("Name", "Role"), row("Alice", "Supplier"), row("Bob", "Customer"))
    )
    test = doc(p("Intro text."), table(row("Name", "Role"), row("Alice", "Vendor"), row("Bob", "Customer")))
    result = align(source, test)
    pairs = pair_map(result)
    assert pairs["/table[1]"].matched_by == "structural"
    assert pairs["/table[1]/row[1]"].matched_by == "exact"
    assert pairs["/table[1]/row[2]"].test_path == "/table[1]/row[2]"
    assert pairs["/table[1]/row[2]/cell[2]"].matched_by == "positional"  # the cell rule
    assert [c.kind for c in result.changes] == ["modify"]
    assert result.changes[0].source == "/table[1]/row[2]/cell[2]"
    assert not result.moves()


def test_surplus_cells_become_inserts_and_a_row_still_matches():
    source = doc(table(row("a", "b", "c"), row("d", "e", "f")))
    test = doc(table(row("a", "b"), row("d", "e", "f", "g")))
    result = align(source, test)
    assert result.deleted == ("/table[1]/row[1]/cell[3]",)
    assert result.inserted == ("/table[1]/row[2]/cell[4]",)
    assert pair_map(result)["/table[1]/row[1]"].test_path == "/table[1]/row[1]"


def test_move_pass_never_moves_cells_rows_or_sections():
    long_cell = words(3, 12)
    source = doc(
        sec(h("One", "1"), table(row("Supplier", long_cell))),
        sec(p(words(9, 10))),
    )
    test = doc(
        sec(h("Two", "2"), table(row("Customer", "x"), row("Supplier", long_cell))),
        sec(p(words(11, 10))),
    )
    result = align(source, test)
    moved_kinds = {pr.source_path.rsplit("/", 1)[-1].split("[")[0] for pr in result.pairs if pr.moved}
    assert not moved_kinds & {"cell", "row", "section", "table"}
    assert all(pr.matched_by != "move" for pr in result.pairs)


def test_move_pass_enforces_min_tokens_on_fuzzy_moves():
    """Seed 001's guard, narrowed by issue #14: short *exact* unique text moves, short fuzzy text does not."""
    short = "Notices go to the registered office."  # 6 tokens: below move_min_tokens
    edited = "Notices go to the registered address."
    long = words(5, 9)
    source = doc(sec(h("A", "1"), p(short), p(long)), sec(h("B", "2"), p("Other text entirely here.")))
    test = doc(sec(h("A", "1")), sec(h("B", "2"), p("Other text entirely here."), p(edited), p(long)))
    result = align(source, test)
    pairs = pair_map(result)
    assert pairs["/section[1]/paragraph[2]"].matched_by == "move"
    assert pairs["/section[1]/paragraph[2]"].moved
    assert "/section[1]/paragraph[1]" in result.deleted
    assert "/section[2]/paragraph[2]" in result.inserted
    loose = align(source, test, AlignmentConfig(move_min_tokens=3))
    assert pair_map(loose)["/section[1]/paragraph[1]"].matched_by == "move"


def test_exact_runs_before_label_so_identical_text_under_a_new_number_is_a_renumber():
    kept = "The Supplier warrants that the Services will be performed with reasonable skill."
    source = doc(sec(h("Warranties", "3"), li(kept, "3.3"), li("Nothing else is warranted here.", "3.4")))
    test = doc(
        sec(
            h("Warranties", "3"),
            li("A brand new clause about audits and records.", "3.3"),
            li(kept, "3.4"),
            li("Nothing else is warranted here.", "3.5"),
        )
    )
    result = align(source, test)
    pr = pair_map(result)["/section[1]/list_item[1]"]
    assert (pr.test_path, pr.matched_by, pr.renumbered, pr.moved) == (
        "/section[1]/list_item[2]",
        "exact",
        True,
        False,
    )
    kinds = [(c.kind, c.source_label, c.test_label) for c in result.changes]
    assert kinds == [("renumber", "3.3", "3.4"), ("renumber", "3.4", "3.5"), ("insert", None, "3.3")]


def _label_floor_pair():
    source = doc(
        sec(h("Payment", "5"), li(words(1, 10), "5.1"), li(words(2, 10), "5.2")),
        sec(h("Termination", "7"), li(MOVED, "7.1"), li(words(4, 10), "7.2")),
    )
    test = doc(
        sec(h("Payment", "5"), li(words(1, 10), "5.1"), li(words(2, 10), "5.2"), li(MOVED, "5.3")),
        sec(h("Termination", "7"), li(NEWCOMER, "7.1"), li(words(4, 10), "7.2")),
    )
    return source, test


def test_label_floor_keeps_two_different_clauses_sharing_a_number_apart():
    source, test = _label_floor_pair()
    for backend in ("difflib", "rapidfuzz"):
        result = align(source, test, AlignmentConfig(similarity=backend))
        pr = pair_map(result)["/section[2]/list_item[1]"]
        assert (pr.test_path, pr.matched_by, pr.moved) == ("/section[1]/list_item[3]", "move", True)
        assert result.inserted == ("/section[2]/list_item[1]",)
        assert [(c.kind, c.source_label, c.test_label) for c in result.moves()] == [("move", "7.1", "5.3")]


def test_label_floor_at_the_old_value_would_have_eaten_the_move():
    source, test = _label_floor_pair()
    result = align(source, test, AlignmentConfig(label_min_similarity=0.35))
    pr = pair_map(result)["/section[2]/list_item[1]"]
    assert (pr.test_path, pr.matched_by) == ("/section[2]/list_item[1]", "label")
    assert round(pr.confidence, 4) == 0.3636
    assert not result.moves()


def test_nearness_tie_break_on_thirty_identical_paragraphs_with_one_edited():
    same = "The Supplier shall deliver the Goods to the Delivery Location on the Delivery Date."
    edited = "The Supplier shall deliver the Goods to the Delivery Location before the Delivery Date."
    source = doc(*[p(same) for _ in range(30)])
    test = doc(*[p(edited if i == 14 else same) for i in range(30)])
    result = align(source, test)
    pairs = [pr for pr in result.pairs if pr.source_path != "/"]
    assert [(pr.source_path, pr.test_path) for pr in pairs] == [
        (f"/paragraph[{i}]", f"/paragraph[{i}]") for i in range(1, 31)
    ]
    assert pairs[14].matched_by == "fuzzy"
    assert sum(pr.matched_by == "exact" for pr in pairs) == 29
    assert not result.moves() and not result.inserted and not result.deleted
    assert [c.kind for c in result.changes] == ["modify"]


def test_nearness_uses_absolute_distance_and_stays_order_preserving():
    same = "Each Party shall keep the other Party's Confidential Information secret."
    # ten identical paragraphs become twenty by inserting ten in one place, after the fourth
    source = doc(*[p(same) for _ in range(10)])
    test = doc(*[p(same) for _ in range(20)])
    result = align(source, test)
    got = [(pr.source_path, pr.test_path) for pr in result.pairs if pr.source_path != "/"]
    assert got == [(f"/paragraph[{i}]", f"/paragraph[{i}]") for i in range(1, 11)]
    assert len(result.inserted) == 10 and not result.moves()


def test_crossing_exact_anchors_are_moves():
    a, b, c = words(1, 10), words(2, 10), words(3, 10)
    result = align(doc(p(a), p(b), p(c)), doc(p(c), p(a), p(b)))
    assert [(m.source, m.test) for m in result.moves()] == [("/paragraph[3]", "/paragraph[1]")]
    assert all(pr.matched_by in ("root", "exact") for pr in result.pairs)


def test_moved_subtree_is_reported_once_and_children_align_inside_it():
    body = "The Customer may audit the Supplier's records once in any twelve month period."
    source = doc(sec(h("Audit", "4"), li(body, "4.1")), sec(h("Law", "5"), p(words(7, 10))))
    test = doc(sec(h("Law", "5"), p(words(7, 10))), sec(h("Audit", "4"), li(body + " Extra.", "4.1")))
    result = align(source, test)
    # two sections of two blocks swap: a tie, so the later one in the source is the move (issue #27)
    assert [(c.kind, c.source) for c in result.changes] == [
        ("modify", "/section[1]/list_item[1]"),
        ("move", "/section[2]"),
    ]


def test_label_only_headings_are_keyed_by_their_first_text_not_by_the_number_alone():
    """Bills write "SEC. 413." with the provision below it: when SEC. 413 is struck and SEC. 414
    becomes the new SEC. 413, the number alone must not pair the two different provisions."""
    h2a = "The Secretary shall admit H-2A agricultural workers under the program for two more years."
    asylum = "The asylum program fee shall be collected from each employer filing a petition this year."
    source = doc(
        sec(h("", label="SEC. 412"), p("Funds for the Office of Biometric Identity Management remain.")),
        sec(h("", label="SEC. 413"), p(h2a)),
        sec(h("", label="SEC. 414"), p(asylum)),
    )
    test = doc(
        sec(h("", label="SEC. 412"), p("Funds for the Office of Biometric Identity Management remain.")),
        sec(h("", label="SEC. 413"), p(asylum)),
    )
    pairs = pair_map(align(source, test))
    assert pairs["/section[3]"].test_path == "/section[2]"
    assert pairs["/section[3]/paragraph[1]"].test_path == "/section[2]/paragraph[1]"
    assert not pairs["/section[3]/paragraph[1]"].moved
    assert "/section[2]" not in pairs and "/section[2]/paragraph[1]" not in pairs
