"""Front matter: the YAML (``---``) or TOML (``+++``) block that opens many Markdown documents.

Read as body text it becomes a thematic break and a setext heading (``title: Terms`` underlined by
the closing ``---``), so it is split off first and kept as one ``paragraph`` block marked
``attrs.front_matter`` (``yaml`` or ``toml``). It stays a paragraph, not a new block kind, because
the label format's addresses and every engine know the existing kinds; its text stays, so a
changed ``last_updated`` is an edit a reviewer sees. A block only counts as front matter when it
parses as a mapping: a document that merely opens with a thematic break is read as before.
"""

from __future__ import annotations

import tomllib

import yaml

from alignbench.readers.units import Unit

_FENCES: dict[str, tuple[str, tuple[str, ...]]] = {"---": ("yaml", ("---", "...")), "+++": ("toml", ("+++",))}


def _is_mapping(flavour: str, body: str) -> bool:
    try:
        data = tomllib.loads(body) if flavour == "toml" else yaml.safe_load(body)
    except (tomllib.TOMLDecodeError, yaml.YAMLError, ValueError):
        return False
    return isinstance(data, dict) and bool(data)


def split_front_matter(text: str) -> tuple[Unit | None, str]:
    """``(front matter unit or None, the text with the front matter lines blanked)``.

    The lines are blanked, not removed, so every later unit keeps its source line number.
    """
    first, _, _ = text.partition("\n")
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
    unit = Unit("paragraph", text=body.strip(), line=1, attrs={"front_matter": flavour})
    return unit, "\n" * (end + 1) + "\n".join(lines[end + 1 :])
