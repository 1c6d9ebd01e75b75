"""``NOTICE.md`` for a prepared pair: licence and attribution, taken only from the manifest.

CC BY 4.0 requires attribution and a notice of modification; the prepared files are modified
(normalised), so the notice says which normalisations were applied.
"""

from __future__ import annotations

from typing import Any


def render_notice(manifest: dict[str, Any]) -> str:
    lines = [
        f"# Notice: {manifest['pair']}",
        "",
        "The two documents in this directory were prepared by `stages/prepare.py` from upstream files.",
        "Where normalisations are listed, the file is a modified copy: those were applied, nothing else.",
        "",
    ]
    for role in ("source", "test"):
        doc = manifest[role]
        lines += [
            f"## {role}.{manifest['extension']}",
            "",
            f"- upstream id: `{doc['id']}`",
            f"- url: {doc['url']}",
            f"- revision: {doc['revision']}",
            f"- licence: {doc['licence']}",
            f"- attribution: {doc['attribution']}",
            f"- normalisations: {', '.join(doc['normalisations']) or 'none'}",
            "",
        ]
    return "\n".join(lines)
