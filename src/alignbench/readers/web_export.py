"""Markdown as web pages export it: the markup a page-to-Markdown converter writes for what a page
shows, read as a person reads the page (issue 28, class 7), and what a link's markup hides.

- A line of non-breaking or em spaces is blank (CommonMark counts only spaces and tabs).
- A short paragraph that is bold from end to end, followed by body text, is a heading.
- A link's target (and title) is kept apart with the drops, so a changed URL is never "same".
"""

from __future__ import annotations

import re

from markdown_it.token import Token

from alignbench.readers.profiles import Profile


def link_target(token: Token) -> str:
    """A link's or image's target as written in the source, with its title."""
    href = str(token.attrGet("href") or token.attrGet("src") or "")
    title = token.attrGet("title")
    return f"{href} {title}" if title else href


def is_reference_use(token: Token, content: str) -> bool:
    """A link whose target comes from a reference definition (``[text][id]``, ``[id]``): no ``](``
    in its paragraph names it, so its definition (``link_reference``) is what holds the target."""
    return "](" not in content


# A line of white space that holds a character CommonMark does not count as blank (NBSP, em space).
ODD_BLANK = re.compile(r"(?m)^[ \t]*[^\S\n \t][^\S\n]*$")
# A paragraph that is bold from end to end: `**Payment Terms**` or `__Payment Terms__`.
_ALL_BOLD = re.compile(r"(\*\*|__)(?=\S)([^*_\n]+?)(?<=\S)\1:?")
_BOLD_ENDINGS = (".", ",", ";", "!", "?")


def bold_heading(content: str, lines: list[str], tokens: list[Token], after: int, profile: Profile) -> bool:
    """A short paragraph that is entirely bold, followed by body text, acts as a heading (profile
    ``headings.bold_paragraph_rank``); a bold sentence (`**You must be 18.**`) stays text."""
    rules = profile.headings
    if not rules.bold_paragraph_rank or len(lines) != 1 or _ALL_BOLD.fullmatch(content.strip()) is None:
        return False
    title = lines[0].strip()
    if title.endswith(_BOLD_ENDINGS) or len(title) > rules.max_chars or len(title.split()) > rules.max_words:
        return False
    follower = tokens[after].type if after < len(tokens) else None
    return follower in ("paragraph_open", "bullet_list_open", "ordered_list_open", "table_open", "code_block")
