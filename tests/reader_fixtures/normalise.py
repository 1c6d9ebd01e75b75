"""How the Common Paper fixtures here were made from the upstream files (dev-only, run by hand).

It reproduces the prepare stage's two normalisations with a few regexes so the reader tests do not
depend on the prepare code:  ``python tests/reader_fixtures/normalise.py IN OUT [--promote]``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

_HEADER_2 = re.compile(r'^(\s*)\d+\.\s+<span class="header_2" id="([^"]+)">(.*?)</span>\s*$', re.MULTILINE)
# Any span that opens a list item and carries a clause-number id (`header_3` titles, but also the
# definitions' `<span id="13.2">` and `<span class="coverpage_link" id="7.1">`).
_ITEM_ID = re.compile(
    r'^(\s*)(\d+\.)\s+<span[^>]*\bid="([0-9]+(?:\.[0-9]+)+)"[^>]*>(.*?)</span>', re.MULTILINE
)
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")


def promote_span_ids_to_labels(text: str) -> str:
    text = _HEADER_2.sub(lambda m: f"{m.group(1)}{m.group(2)}. ## {m.group(3)}", text)
    return _ITEM_ID.sub(lambda m: f"{m.group(1)}{m.group(2)} {m.group(3)} {m.group(4)}", text)


def strip_inline_html(text: str) -> str:
    return _TAG.sub("", text)


def main(argv: list[str]) -> int:
    source, target = Path(argv[0]), Path(argv[1])
    text = source.read_text(encoding="utf-8")
    if "--promote" in argv:
        text = promote_span_ids_to_labels(text)
    target.write_text(strip_inline_html(text), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
