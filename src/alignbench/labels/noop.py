"""No no-op synthetic pairs: a generated pair whose test is byte-identical to its source is an error.

Such a pair (a tables plan applied to a document without a table) scores a perfect F1 for doing
nothing, and padded the synthetic tier by 25 of 219 pairs before issue #12. The generator refuses to
write one; this check keeps a hand edit or an old tier from slipping one past. A plan declared a
control (``provenance.control: true``) is exempt: a control is meant to change nothing that counts.
"""

from __future__ import annotations

from typing import Any

from alignbench.labels.documents import Side


def noop_problems(data: dict[str, Any], sides: dict[str, Side]) -> list[str]:
    """One problem when a synthetic, non-control pair's two documents have the same sha256."""
    provenance = data.get("provenance") or {}
    if provenance.get("kind") != "synthetic" or provenance.get("control") is True:
        return []
    if sides["source"].sha256 != sides["test"].sha256:
        return []
    return [
        f"$.test: {sides['test'].file} is byte-identical to {sides['source'].file}: a no-op pair pads every "
        f"score; give plan {provenance.get('plan')!r} a `requires:` feature or declare it `control: true`"
    ]
