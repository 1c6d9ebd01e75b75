"""Reader failures seen on platform policies exported to Markdown (the dev-only PGA import, issue 28).

The PGA documents are never committed: each fixture here is written from scratch (invented wording) to
reproduce one failure class met in them, and names the class of issue 28 it belongs to. Where today's
reader fails, the test is ``xfail(strict=True)`` with that class, so the reader fix flips it.
"""

from __future__ import annotations

from alignbench.blocks import TEXT_KINDS, Block, BlockTree, normalise
from alignbench.noloss import account
from alignbench.readers import read

CLASS_7 = "class 7 (Markdown exported from web pages)"
CLASS_3 = "class 3 (bullets beyond - * + •)"


def md(text: str) -> BlockTree:
    return read(text, format="markdown")


def block(tree: BlockTree, prefix: str) -> Block:
    found = [
        b for b in tree.blocks() if b.kind in TEXT_KINDS and b.normalised_text.startswith(normalise(prefix))
    ]
    assert len(found) == 1, f"{prefix!r}: {[(b.kind, b.address, b.text[:40]) for b in tree.blocks()]}"
    return found[0]


def test_escaped_clause_numbers_are_labels() -> None:
    """Class 7's escaped clause numbers (`1\\.`), common in the PGA exports: read right already."""
    tree = md(
        "1\\. Who runs the service\n\nA small team runs it.\n\n2\\. What we keep\n\nYour email address.\n"
    )
    assert block(tree, "Who runs the service").label == "1"
    assert block(tree, "What we keep").label == "2"


def test_escaped_sub_clause_numbers_are_labels() -> None:
    """Class 7, `2.1\\.`: read right already."""
    tree = md("2.1\\. We keep your address while the account is open.\n\n2.2\\. We delete it after a year.\n")
    assert block(tree, "We keep your address").label == "2.1"
    assert block(tree, "We delete it").label == "2.2"


def test_escaped_number_inside_a_sentence_stays_text() -> None:
    """Near miss: the escape only makes a label at the start of a paragraph."""
    tree = md("We count from 1\\. onwards in this note.\n")
    only = block(tree, "We count from")
    assert only.label is None and "1." in only.text


def test_lettered_markdown_headings_carry_their_label() -> None:
    tree = md("## A. Notices\n\nWe write to you by email.\n\n## B. Changes\n\nWe may change these rules.\n")
    notices, changes = block(tree, "Notices"), block(tree, "Changes")
    assert (notices.kind, notices.label) == ("heading", "A")
    assert (changes.kind, changes.label) == ("heading", "B")


def test_chapter_headings_carry_their_number() -> None:
    """Not met in the import: issue 28's own example of a web-exported heading, kept beside the letters."""
    tree = md("### Chapter 2 Accounts\n\nOne account per person.\n")
    heading = block(tree, "Accounts")  # a word label keeps its word, as `## Section 2. Term` -> `Section 2`
    assert (heading.kind, heading.label) == ("heading", "Chapter 2")


def test_a_short_bold_paragraph_before_body_text_is_a_heading() -> None:
    tree = md("**Keeping people safe**\n\nWe remove posts that threaten anyone.\n\nWe tell you why.\n")
    assert block(tree, "Keeping people safe").kind == "heading"
    assert block(tree, "We remove posts").kind == "paragraph"


def test_a_paragraph_that_only_starts_bold_stays_a_paragraph() -> None:
    """Near miss: a bold lead-in followed by more text in the same paragraph is body text."""
    tree = md("**Recording.** The council writes down each decision.\n\nNext paragraph.\n")
    assert block(tree, "Recording.").kind == "paragraph"


def test_lines_of_non_breaking_spaces_are_blank() -> None:
    tree = md("We keep logs for thirty days.\n\u00a0\u00a0\nWe never sell them.\n")
    assert block(tree, "We keep logs").address != block(tree, "We never sell").address


def test_lines_of_em_spaces_are_blank() -> None:
    tree = md("Our office is in a small town.\n\u2003\nWrite to us there.\n")
    assert block(tree, "Our office").address != block(tree, "Write to us").address


def test_em_dash_items_one_per_line_are_separate() -> None:
    items = '— "Account" means your sign-in.\n— "Post" means what you share.\n'
    tree = md("These words have these meanings:\n\n" + items)
    assert block(tree, '"Account" means').address != block(tree, '"Post" means').address


def test_en_dash_items_one_per_line_are_separate() -> None:
    tree = md("You may not:\n\n– sell access to the service;\n– copy other people's posts.\n")
    assert block(tree, "sell access").address != block(tree, "copy other people").address


def test_a_line_break_tag_in_a_table_cell_keeps_the_words_apart() -> None:
    text = "| Country | Helpline |\n|---|---|\n| Ruritania | 111 222<br><br>333 444 |\n"
    tree = md(text)
    assert account(text, tree).ok, account(text, tree).describe()


def test_a_line_break_tag_in_a_paragraph_keeps_the_words_apart() -> None:
    text = "Write to the Data Officer<br>Example Street 1<br>Exampletown\n"
    tree = md(text)
    assert account(text, tree).ok, account(text, tree).describe()


def test_a_link_glued_to_the_next_word_is_one_rendered_word() -> None:
    """Near miss for the no-loss check: `[Policy](url)via` renders as `Policyvia`, so keeping it glued is
    no loss (the check reads what the page shows, not the source's tokens)."""
    text = "See our [Policy](https://example.org/p)via the form.\n"
    assert account(text, md(text)).ok
