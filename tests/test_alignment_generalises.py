"""Issue #14's failure classes, each as the smallest tree that shows it (all fail on 3b334ad)."""

from __future__ import annotations

from alignbench.alignment import align
from alignment_fixtures.build import doc, h, li, p, sec, words


def pair_map(alignment):
    return {pr.source_path: pr for pr in alignment.pairs}


# -- 1. label-only headings ------------------------------------------------------------------------


def _schedules(body: str):
    return doc(
        sec(h("", "Schedule 1"), p(body), li("Fees.", "1"), li("Term.", "2"), li("Notices.", "3")),
        sec(h("", "Schedule 2"), p(words(7, 12)), li("Other.", "1")),
    )


def test_label_only_heading_pairs_through_its_label_and_the_children_it_keeps():
    result = align(_schedules(words(1, 40)), _schedules(words(2, 40)))
    pairs = pair_map(result)
    assert pairs["/section[1]"].test_path == "/section[1]"
    assert pairs["/section[1]/heading[1]"].test_path == "/section[1]/heading[1]"
    for k in (1, 2, 3):  # the short, unchanged children pair inside the paired container
        assert pairs[f"/section[1]/list_item[{k}]"].test_path == f"/section[1]/list_item[{k}]"
        assert not pairs[f"/section[1]/list_item[{k}]"].moved
    assert not result.moves()


def test_label_only_headings_with_different_labels_do_not_pair_by_kept_children():
    source = doc(sec(h("", "Schedule 1"), p(words(1, 40)), li("Fees.", "1"), li("Term.", "2")))
    test = doc(sec(h("", "Annex A"), p(words(2, 40)), li("Fees.", "1"), li("Term.", "2")))
    walk_pairs = pair_map(align(source, test))
    # whatever else pairs them, it is not the kept-children reading with a label it does not share
    assert walk_pairs.get("/section[1]") is None or walk_pairs["/section[1]"].matched_by != "label"


# -- 2. short byte-identical moved blocks -----------------------------------------------------------


def test_short_identical_block_unique_on_both_sides_moves():
    short = "Notices go to the registered office."  # 6 tokens, below move_min_tokens
    source = doc(sec(h("A", "1"), p(short), p(words(3, 12))), sec(h("B", "2"), p(words(4, 12))))
    test = doc(sec(h("A", "1"), p(words(3, 12))), sec(h("B", "2"), p(words(4, 12)), p(short)))
    result = align(source, test)
    moved = pair_map(result)["/section[1]/paragraph[1]"]
    assert (moved.test_path, moved.matched_by, moved.moved) == ("/section[2]/paragraph[2]", "move", True)


def test_short_text_with_a_twin_elsewhere_in_the_document_is_not_moved():
    short = "Reserved."
    source = doc(
        sec(h("A", "1"), p(short), p(words(3, 12))),
        sec(h("B", "2"), p(short), p(words(4, 12))),
        sec(h("C", "3"), p(words(5, 12))),
    )
    test = doc(
        sec(h("A", "1"), p(words(3, 12))),
        sec(h("B", "2"), p(short), p(words(4, 12))),
        sec(h("C", "3"), p(words(5, 12)), p(short)),
    )
    result = align(source, test)
    assert "/section[1]/paragraph[1]" in result.deleted
    assert not result.moves()


def test_move_min_tokens_still_guards_fuzzy_moves():
    short = "Notices go to the registered office."
    edited = "Notices go to the registered address."
    source = doc(sec(h("A", "1"), p(short), p(words(3, 12))), sec(h("B", "2"), p(words(4, 12))))
    test = doc(sec(h("A", "1"), p(words(3, 12))), sec(h("B", "2"), p(words(4, 12)), p(edited)))
    assert "/section[1]/paragraph[1]" in align(source, test).deleted


# -- 4. byte-identical runs ------------------------------------------------------------------------


def test_identical_run_pairs_are_flagged_ambiguous_and_no_move_is_guessed():
    x = "The Customer shall pay the fee set out in this Schedule on the due date."
    source = doc(sec(h("A", "1"), p(x), p(x), p(x), p(x), p(words(2, 10))), sec(h("B", "2"), p(words(5, 10))))
    test = doc(sec(h("A", "1"), p(x), p(x), p(x), p(words(2, 10))), sec(h("B", "2"), p(words(5, 10)), p(x)))
    result = align(source, test)
    pairs = pair_map(result)
    flagged = [k for k in range(1, 5) if f"/section[1]/paragraph[{k}]" in pairs]
    assert len(flagged) == 3
    assert all(pairs[f"/section[1]/paragraph[{k}]"].ambiguous for k in flagged)
    assert not pairs["/section[1]/paragraph[5]"].ambiguous
    assert not result.moves()  # which twin moved is a guess: stay silent
    data = result.to_dict()
    assert [p["ambiguous"] for p in data["pairs"]].count(True) == 3


def test_a_unique_text_is_never_flagged_ambiguous():
    source = doc(sec(h("A", "1"), p(words(1, 10)), p(words(2, 10))))
    result = align(source, source)
    assert not any(pr.ambiguous for pr in result.pairs)


# -- 3. a renumber inside corresponding parents is not a move ---------------------------------------


def _nested(*children):
    from alignbench.blocks import Block

    return lambda text, label: Block("list_item", label=label, text=text, children=tuple(children))


def test_an_item_renested_one_level_in_place_is_a_renumber_not_a_move():
    a, b, c = words(21, 12), words(22, 12), words(23, 12)
    head = words(20, 12)
    # source: (h) holds (i) and (ii); test: (i) was deleted, and the old (ii) - now "(i)" after "(h)" -
    # was read as a letter, one level up, right where it was in document order
    source = doc(sec(h("Terms", "1"), _nested(li(a, "(i)"), li(b, "(ii)"))(head, "(h)"), li(c, "(j)")))
    test = doc(sec(h("Terms", "1"), li(head, "(h)"), li(b, "(i)"), li(c, "(j)")))
    result = align(source, test)
    pairs = pair_map(result)
    renested = pairs["/section[1]/list_item[1]/list_item[2]"]
    assert renested.test_path == "/section[1]/list_item[2]"
    assert not renested.moved and renested.renumbered
    assert not result.moves()


def test_an_item_that_really_moves_to_another_parent_is_still_a_move():
    a, b, c = words(31, 12), words(32, 12), words(33, 12)
    source = doc(sec(h("One", "1"), li(a, "1.1"), li(b, "1.2")), sec(h("Two", "2"), li(c, "2.1")))
    test = doc(sec(h("One", "1"), li(a, "1.1")), sec(h("Two", "2"), li(c, "2.1"), li(b, "2.2")))
    assert [(m.source, m.test) for m in align(source, test).moves()] == [
        ("/section[1]/list_item[2]", "/section[2]/list_item[2]")
    ]


# -- 5. moved and edited ---------------------------------------------------------------------------


def test_a_moved_clause_that_gained_a_sentence_pairs_in_the_loose_round():
    moved = words(41, 14)
    grown = moved + " " + words(49, 12)  # similarity about 0.7: under move_min_similarity
    source = doc(
        sec(h("One", "1"), li(words(42, 12), "1.1"), li(moved, "1.2")),
        sec(h("Two", "2"), li(words(43, 12), "2.1")),
    )
    test = doc(
        sec(h("One", "1"), li(words(42, 12), "1.1")),
        sec(h("Two", "2"), li(words(43, 12), "2.1"), li(grown, "2.2")),
    )
    result = align(source, test)
    pr = pair_map(result)["/section[1]/list_item[2]"]
    assert (pr.test_path, pr.matched_by, pr.moved) == ("/section[2]/list_item[2]", "move", True)


def test_the_loose_round_refuses_a_candidate_with_a_close_runner_up():
    moved = words(41, 14)
    grown = moved + " " + words(49, 12)
    twin = moved + " " + words(48, 12)  # two equally good test candidates: silence
    source = doc(
        sec(h("One", "1"), li(words(42, 12), "1.1"), li(moved, "1.2")),
        sec(h("Two", "2"), li(words(43, 12), "2.1")),
    )
    test = doc(
        sec(h("One", "1"), li(words(42, 12), "1.1")),
        sec(h("Two", "2"), li(words(43, 12), "2.1"), li(grown, "2.2"), li(twin, "2.3")),
    )
    assert "/section[1]/list_item[2]" in align(source, test).deleted


# -- 6. a section moved up a level, renumbered and re-punctuated -----------------------------------


def test_a_renumbered_section_whose_heading_lost_its_full_stop_moves_once_at_the_section():
    body = words(51, 20)
    source = doc(
        sec(h("General", level=1), p(words(52, 14)), sec(h("Arbitration Agreement.", "17", 2), p(body))),
        sec(h("Other terms", level=1), p(words(53, 14))),
    )
    test = doc(
        sec(h("General", level=1), p(words(52, 14))),
        sec(h("Other terms", level=1), p(words(53, 14))),
        sec(h("Arbitration Agreement", "16", 1), p(body)),
    )
    result = align(source, test)
    pairs = pair_map(result)
    assert pairs["/section[1]/section[1]"].test_path == "/section[3]"
    assert pairs["/section[1]/section[1]/heading[1]"].test_path == "/section[3]/heading[1]"
    assert [(m.source, m.test) for m in result.moves()] == [("/section[1]/section[1]", "/section[3]")]


def test_a_moved_section_whose_heading_was_shortened_to_its_core_words_moves_once():
    body = words(61, 20)
    source = doc(
        sec(
            h("General", level=1),
            p(words(62, 14)),
            sec(h("One more thing: sharealike licence", level=2), p(body)),
        ),
        sec(h("Other terms", level=1), p(words(63, 14))),
    )
    test = doc(
        sec(h("General", level=1), p(words(62, 14))),
        sec(h("Other terms", level=1), p(words(63, 14))),
        sec(h("Sharealike licence", level=1), p(body)),
    )
    result = align(source, test)
    assert [(m.source, m.test) for m in result.moves()] == [("/section[1]/section[1]", "/section[3]")]


def test_headings_sharing_one_word_give_no_lift_support():
    """The old section keeps a clause of its own (deleted), so its one moved clause does not carry it
    whole (lift.wholly_carried); the one word its heading shares with the new one is no support."""
    body = words(61, 20)
    source = doc(
        sec(
            h("General", level=1),
            p(words(62, 14)),
            sec(h("Licence fees", level=2), p(body), p(words(64, 14))),
        ),
        sec(h("Other terms", level=1), p(words(63, 14))),
    )
    test = doc(
        sec(h("General", level=1), p(words(62, 14))),
        sec(h("Other terms", level=1), p(words(63, 14))),
        sec(h("Licence", level=1), p(body)),
    )
    moves = [(m.source, m.test) for m in align(source, test).moves()]
    assert moves == [("/section[1]/section[1]/paragraph[1]", "/section[3]/paragraph[1]")]


def test_a_moved_section_under_a_label_only_heading_lifts_with_its_renumbered_heading():
    sections = [sec(h("", f"Sec. {100 + k}", 2), p(words(70 + k, 16))) for k in range(1, 5)]
    source = doc(sec(h("Title", level=1), *sections))
    moved = sec(h("", "Sec. 102", 2), p(words(74, 16)))  # the fourth section, moved to second place
    renumbered = [sec(h("", f"Sec. {100 + k}", 2), p(words(70 + j, 16))) for k, j in ((3, 2), (4, 3))]
    test = doc(sec(h("Title", level=1), sections[0], moved, *renumbered))
    result = align(source, test)
    pairs = pair_map(result)
    assert pairs["/section[1]/section[4]"].test_path == "/section[1]/section[2]"
    assert [(m.source, m.test) for m in result.moves()] == [
        ("/section[1]/section[4]", "/section[1]/section[2]")
    ]


def test_a_section_moved_under_a_wrapper_keeps_its_label_and_pairs_its_renamed_heading():
    body = words(81, 22)
    source = doc(
        sec(h("Terms of Service", level=1), p(words(80, 16))),
        sec(h("Termination", "13"), p(words(82, 16))),
        sec(h("Disclaimer of Warranties", "14"), p(body)),
    )
    test = doc(
        sec(
            h("Terms of Service", level=1),
            p(words(80, 16)),
            sec(h("Termination", "13", 2), p(words(82, 16))),
            sec(h("Disclaimers", "14", 2), p(body)),
        )
    )
    result = align(source, test)
    pairs = pair_map(result)
    assert pairs["/section[3]"].test_path == "/section[1]/section[2]"
    assert pairs["/section[3]/heading[1]"].test_path == "/section[1]/section[2]/heading[1]"
    # reading order is kept: the new wrapper re-parents the section, it does not move it (issue #27)
    assert not result.moves()
    assert pairs["/section[3]"].reparented and pairs["/section[3]/heading[1]"].reparented


def test_a_new_wrapper_title_does_not_take_a_section_whose_exact_heading_survives_elsewhere():
    intro, changes = words(90, 16), words(91, 18)
    source = doc(
        p(intro),
        sec(h("Who we are", level=3), p(words(92, 16))),
        sec(h("Privacy Policy Changes", level=3), p(changes)),
    )
    test = doc(
        sec(
            h("Privacy Policy", level=2),
            p(intro),
            sec(h("Who we are", level=3), p(words(92, 16))),
            sec(h("Privacy Policy Changes", level=3), p(changes)),
        )
    )
    pairs = pair_map(align(source, test))
    assert pairs["/section[2]"].test_path == "/section[1]/section[2]"
    assert pairs["/section[2]/heading[1]"].test_path == "/section[1]/section[2]/heading[1]"
