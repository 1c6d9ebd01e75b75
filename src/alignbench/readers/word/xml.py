"""WordprocessingML names and the few lookups every part of the Word reader makes."""

from __future__ import annotations

from typing import Any

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W = "{" + W_NS + "}"


def child(element: Any, name: str) -> Any:
    """The first ``w:name`` child of ``element`` (``None`` when either is missing)."""
    if element is None:
        return None
    # iterchildren with a tag is lxml's C-level filter; find() goes through ElementPath (20x slower).
    for found in element.iterchildren(W + name):
        return found
    return None


def children(element: Any, name: str) -> list[Any]:
    if element is None:
        return []
    return list(element.iterchildren(W + name))


def attr(element: Any, name: str = "val") -> str | None:
    """``w:name`` (``w:val`` by default) of ``element``, or ``None``."""
    if element is None:
        return None
    return element.get(W + name)


def int_attr(element: Any, default: int | None, name: str = "val") -> int | None:
    value = attr(element, name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        return default


def is_on(element: Any) -> bool:
    """A Word toggle property (``<w:vanish/>``, ``<w:b w:val="0"/>``): present and not switched off."""
    return element is not None and attr(element) not in ("0", "false", "off")


def left_indent(ppr: Any) -> int | None:
    """The left (start) indentation a ``w:pPr`` sets, in twips, or ``None`` when it sets none."""
    return ind_left(child(ppr, "ind"))


def ind_left(ind: Any) -> int | None:
    """The left (start) indentation of a ``w:ind``, in twips, or ``None``."""
    if ind is None:
        return None
    for name in ("left", "start"):
        value = int_attr(ind, None, name)
        if value is not None:
            return value
    return None
