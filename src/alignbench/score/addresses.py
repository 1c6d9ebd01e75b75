"""Address helpers the scorer needs: the kind of a block and subtree membership, read off the path."""

from __future__ import annotations

from functools import lru_cache

from alignbench.blocks import LABELLED_KINDS, ROOT_ADDRESS, parse_address

# The flat engine has no concept of table rows or cells; the like-for-like column drops them.
FLAT_UNADDRESSABLE: tuple[str, ...] = ("row", "cell")
COLUMN_KINDS: dict[str, tuple[str, ...]] = {
    "all": LABELLED_KINDS,
    "flat": tuple(k for k in LABELLED_KINDS if k not in FLAT_UNADDRESSABLE),
}


@lru_cache(maxsize=1 << 16)
def kind_of(address: str) -> str:
    """The kind of the block at ``address`` (its last step); the root is ``document``.

    Cached: score asks it ~1.7M times for ~50k distinct addresses, and parsing was a quarter of the stage."""
    if address == ROOT_ADDRESS:
        return "document"
    return parse_address(address)[-1][0]


def is_under(address: str, ancestor: str) -> bool:
    """True when ``address`` lies strictly inside the subtree rooted at ``ancestor``."""
    if ancestor == ROOT_ADDRESS:
        return address != ROOT_ADDRESS
    return address.startswith(ancestor + "/")
