"""Front matter: the YAML (``---``) or TOML (``+++``) block that opens many Markdown documents.

Read as body text it becomes a thematic break and a setext heading (``title: Terms`` underlined by
the closing ``---``), so it is split off first. It is metadata for a site generator, not part of
the document a reader sees: kept as a block it was aligned and reported like a clause (a changed
``layout:`` key showed as an edited paragraph). So it is dropped from the block tree and counted in
``BlockTree.dropped`` under ``front_matter`` (one per document), never lost silently. A block only
counts as front matter when it opens the document and parses as a non-empty mapping: a document
that merely opens with a thematic break is read as before.
"""

from __future__ import annotations

import tomllib

import yaml

_FENCES: dict[str, tuple[str, tuple[str, ...]]] = {"---": ("yaml", ("---", "...")), "+++": ("toml", ("+++",))}


def _is_mapping(flavour: str, body: str) -> bool:
    try:
        data = tomllib.loads(body) if flavour == "toml" else yaml.safe_load(body)
    except (tomllib.TOMLDecodeError, yaml.YAMLError, ValueError):
        return False
    return isinstance(data, dict) and bool(data)


def split_front_matter(text: str) -> tuple[str | None, str]:
    """``(flavour or None, the text with the front matter lines blanked)``; flavour is yaml or toml.

    The lines are blanked, not removed, so every later unit keeps its source line number.
    """
    newline = text.find("\n")
    first = text if newline < 0 else text[:newline]  # (partition would copy the rest of the document)
    fence = _FENCES.get(first.rstrip())
    if fence is None:
        return None, text
    flavour, closers = fence
    lines = text.split("\n")
    for end in range(1, len(lines)):
        if lines[end].rstrip() in closers:
            break
    else:
        return None, text
    body = "\n".join(lines[1:end])
    if not body.strip() or not _is_mapping(flavour, body):
        return None, text
    return flavour, "\n" * (end + 1) + "\n".join(lines[end + 1 :])
