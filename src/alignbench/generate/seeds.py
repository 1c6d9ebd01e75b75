"""One seed per pair from (generator version, document id, plan id), never from a counter.

Adding a document or a plan therefore changes no other pair's seed, and no ``hash()`` is involved.
"""

from __future__ import annotations

import hashlib

from alignbench.generate import GENERATOR_VERSION


def pair_seed(document_id: str, plan_id: str, version: str = GENERATOR_VERSION) -> int:
    """A 63-bit seed: blake2b over the three names joined by the unit separator."""
    payload = "\x1f".join((version, document_id, plan_id)).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(payload, digest_size=8).digest(), "big") >> 1
