"""The Unicode tables conftest seeds into Hypothesis's storage are the standard library's answers.

A wrong seed would silently narrow (or widen) every ``st.text()`` in the suite, so each table is
checked here: its intervals tile the code space, and at every interval's two ends and at every 97th
code point the category, or the UTF-8 round trip, is what ``unicodedata`` and ``str.encode`` say.
"""

from __future__ import annotations

import gzip
import itertools
import json
import sys
import unicodedata
from pathlib import Path

import pytest

SEEDS = Path(__file__).parent / "hypothesis_unicode" / unicodedata.unidata_version  # conftest's seeds
STRIDE = 97


def _load(name: str):
    path = SEEDS / f"{name}.json.gz"
    if not path.is_file():
        pytest.skip(f"no Hypothesis seed for Unicode {unicodedata.unidata_version}: Hypothesis computes it")
    return json.loads(gzip.decompress(path.read_bytes()))


def _tiles(intervals: list[tuple[int, int]]) -> bool:
    """Sorted, non-overlapping, gap-free from 0 to the last code point."""
    ordered = sorted(intervals)
    return (
        ordered[0][0] == 0
        and ordered[-1][1] == sys.maxunicode
        and all(a[1] + 1 == b[0] and a[0] <= a[1] for a, b in itertools.pairwise(ordered))
    )


def _probes(start: int, end: int) -> list[int]:
    return sorted({start, end, *range(start + (-start % STRIDE), end + 1, STRIDE)})


def test_the_category_table_is_unicodedatas() -> None:
    table = _load("charmap")
    intervals = [(start, end, category) for category, spans in table for start, end in spans]
    assert _tiles([(start, end) for start, end, _ in intervals])
    wrong = [
        (code, category)
        for start, end, category in intervals
        for code in _probes(start, end)
        if unicodedata.category(chr(code)) != category
    ]
    assert wrong == []


def _utf8_round_trips(code: int) -> bool:
    try:
        return chr(code).encode("utf-8").decode("utf-8") == chr(code)
    except UnicodeError:
        return False


def test_the_utf8_table_is_what_encoding_says() -> None:
    encodable, not_round_tripping = _load("codec-v2-utf-8")
    assert not_round_tripping == []  # UTF-8 decodes back whatever it encodes
    gaps = [(a[1] + 1, b[0] - 1) for a, b in itertools.pairwise(encodable)]
    inside = [code for start, end in encodable for code in _probes(start, end)]
    outside = [code for start, end in gaps for code in _probes(start, end)]
    assert inside and outside and encodable[0][0] == 0 and encodable[-1][1] == sys.maxunicode
    assert [code for code in inside if not _utf8_round_trips(code)] == []
    assert [code for code in outside if _utf8_round_trips(code)] == []
