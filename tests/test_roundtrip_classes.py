"""The round trip's difference classes (readers.roundtrip): which differences a PDF cannot avoid is
decided by rule, so a document counted as identical apart from stated exceptions differs in nothing
else."""

from __future__ import annotations

from collections import Counter

from alignbench.readers.roundtrip import (
    HYPHEN,
    INVISIBLE,
    RENDERER,
    Outcome,
    classify,
    pdf_exceptions_only,
)


def test_a_hyphen_or_an_invisible_mark_is_a_stated_exception() -> None:
    expected = [("text", "b", "issue a pro-rated refund under Section \u200e18")]
    assert classify(expected, [("text", "b", "issue a prorated refund under Section \u200e18")]) == Counter(
        {HYPHEN: 1}
    )
    assert classify(expected, [("text", "b", "issue a pro-rated refund under Section 18")]) == Counter(
        {INVISIBLE: 1}
    )


def test_a_changed_word_a_split_or_a_label_is_not_an_exception() -> None:
    expected = [("text", "1", "The customer pays the fees."), ("text", "2", "Taxes are extra.")]
    assert classify(expected, [("text", "1", "The customer pays the fee."), expected[1]]) == Counter(
        {"text differs": 1}
    )
    merged = [("text", "1", "The customer pays the fees. 2. Taxes are extra.")]
    assert classify(expected, merged) == Counter({"blocks split or merged (text differs)": 1})
    assert classify(expected, [("text", None, expected[0][2]), expected[1]]) == Counter({"label differs": 1})
    outcome = Outcome("doc", pdf=Counter({HYPHEN: 1, "label differs": 1}))
    assert not pdf_exceptions_only(outcome)
    assert pdf_exceptions_only(Outcome("doc", pdf=Counter({HYPHEN: 1, RENDERER: 3})))
