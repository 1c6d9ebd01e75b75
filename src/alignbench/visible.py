"""What the reviewer sees is what the bytes say: the one character policy of every human-facing output.

A legal reviewer reads the redline (``alignbench.html``), the review page (``alignbench.review``) and
``compare``'s text summary. A character the eye cannot see there can hide or fake a change
(Trojan Source): a right-to-left override shows ``\\u202e001\\u202c`` as "100", a zero-width space
makes ``pay\\u200bable`` look like ``payable``, and an ESC sequence rewrites the terminal. So every
such character is *shown*, never passed through: it becomes a marked glyph ``⟨U+202E⟩`` naming its
code point. The policy is one predicate, :func:`is_hidden`, shared by all three outputs:

- every format character (Unicode category ``Cf``): the bidi embeddings, overrides, isolates and
  marks (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C), the zero-width space, joiners and
  word joiner (U+200B-U+200D, U+2060-U+2064), the byte-order mark U+FEFF, the soft hyphen U+00AD,
  the tag characters U+E0000-U+E007F, and the rest of the category;
- every control character (``Cc``: C0, DEL and C1, ESC among them) except tab and line feed, which
  lay the text out;
- the line and paragraph separators U+2028 and U+2029, which break a line invisibly;
- characters that draw nothing but are in other categories: the combining grapheme joiner U+034F,
  the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the Khmer inherent vowels U+17B4 and U+17B5,
  the Mongolian and standard variation selectors (U+180B-U+180F, U+FE00-U+FE0F, U+E0100-U+E01EF).

Emoji joined by U+200D are shown as their parts with the joiner between them; that is the price of
seeing every joiner. The documents and the JSON keep their bytes: only what a person reads changes.
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache

_LAYOUT = frozenset("\t\n")
_DRAWN_NOTHING = frozenset(
    [
        *(0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, 0x2028, 0x2029),
        *range(0x180B, 0x1810),
        *range(0xFE00, 0xFE10),
        *range(0xE0100, 0xE01F0),
    ]
)


@lru_cache(maxsize=4096)
def is_hidden(char: str) -> bool:
    """Whether ``char`` is invisible or steers the display (see the module docstring for the list)."""
    if char in _LAYOUT:
        return False
    return unicodedata.category(char) in ("Cf", "Cc") or ord(char) in _DRAWN_NOTHING


# A fast pre-check: most text holds none of these, and the per-character test is skipped for it.
_CANDIDATES = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\ufff9-\ufffb\uffa0"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e01ef\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2]"
)


def glyph(char: str) -> str:
    """The marked glyph a hidden character is shown as: ``⟨U+202E⟩``."""
    return f"⟨U+{ord(char):04X}⟩"


def describe(char: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``: for a tooltip."""
    return f"U+{ord(char):04X} {unicodedata.name(char, 'CONTROL CHARACTER')}"


def _hidden_in(text: str) -> bool:
    return _CANDIDATES.search(text) is not None and any(is_hidden(c) for c in text)


def show(text: str) -> str:
    """``text`` with every hidden character replaced by its glyph (for terminals and plain text)."""
    if not _hidden_in(text):
        return text
    return "".join(glyph(c) if is_hidden(c) else c for c in text)


def show_html(text: str) -> str:
    """``text`` HTML-escaped, each hidden character a marked glyph with its name as a tooltip."""
    if not _hidden_in(text):
        return html.escape(text, quote=False)
    out = []
    for char in text:
        if is_hidden(char):
            out.append(f'<span class="invisible" title="{describe(char)}">{glyph(char)}</span>')
        else:
            out.append(html.escape(char, quote=False))
    return "".join(out)


def strip_hidden(text: str) -> str:
    """``text`` without its hidden characters, whitespace runs collapsed: what the eye would read."""
    if _hidden_in(text):
        text = "".join(c for c in text if not is_hidden(c))
    return " ".join(text.split())


def hidden_only(old: str, new: str) -> bool:
    """Whether ``old`` and ``new`` differ, but only in hidden characters (the change a reader misses)."""
    return old != new and strip_hidden(old) == strip_hidden(new)


def json_safe(text: str) -> str:
    """JSON text with every C1 control written as a ``\\u`` escape: the same data, safe to print.

    The JSON encoder already escapes C0 (ESC is ``\\u001b``) but writes U+0080-U+009F raw, and a
    terminal reads U+009B as CSI. They can only occur inside strings, where the escape means the same.
    """
    return re.sub("[\x80-\x9f]", lambda m: f"\\u{ord(m.group()):04x}", text)
