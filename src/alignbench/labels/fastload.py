"""A fast exact reader for the canonical ``labels.yaml`` layout, in front of the strict YAML loader.

:func:`alignbench.labels.io.dump_labels` writes one layout: top-level ``key: value`` lines, two block
mappings (``provenance``, ``review``) indented two spaces, and block sequences whose items are one
flow mapping per line. The strict loader (:func:`alignbench.yamlload.parse_yaml`: libyaml's parser,
PyYAML's Python constructor) spends ~5 s of label_check on the corpus's 8 MB of such rows; this reader
takes a fraction of that, because each row is matched by a few regular expressions instead of being
built node by node.

It is a recogniser, not a second YAML implementation: it accepts a strict subset of YAML (no
comments, blank lines, tabs, anchors, tags, multi-line scalars, duplicate keys or unusual
characters; plain scalars only from a narrow alphabet) and answers ``None`` for anything else, which
then goes to the strict loader, so every error message and every refusal stays the strict loader's.
Plain scalars are typed by PyYAML's own resolver and constructors (``yes`` is a bool, ``0123`` an
octal int), so what it accepts it reads exactly as the strict loader does; tests/test_labels_fastload.py
checks that on every committed label file and on generated text (hypothesis).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from alignbench import yamlload


class _NotCanonical(Exception):
    """The text leaves the recognised subset: the strict loader reads it instead."""


# Anything outside these characters (tabs, CR, YAML's other line breaks, BOM, controls, astral
# characters) sends the file to the strict loader, which knows their rules.
_UNUSUAL = re.compile("[^\n\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd]")
_KEY = r"[A-Za-z_][A-Za-z0-9_]*"
# A plain scalar that reads the same in block and flow context: no indicator first, none of
# ``,[]{}#?"\\`` anywhere, ``:`` only before another character of it, no trailing space.
_IN_PLAIN = r"[^,\[\]{}#:?\"\\\n]"
_AFTER_COLON = r"[^ ,\[\]{}#:?\"\\\n]"
_PLAIN = rf"(?:[A-Za-z0-9_/.()+]|-(?={_AFTER_COLON})){_IN_PLAIN}*(?::{_AFTER_COLON}{_IN_PLAIN}*)*(?<! )"
# Quoted scalars keep their quotes in the match, so an empty '' is told apart from an absent group.
_SCALAR_ALTERNATIVES = rf"('[^'\n]*(?:''[^'\n]*)*')|(\"[^\"\\\n]*(?:\\.[^\"\\\n]*)*\")|({_PLAIN})"
_SCALAR = re.compile(_SCALAR_ALTERNATIVES)
_ENTRY = rf"({_KEY}): (?:{_SCALAR_ALTERNATIVES})"
# A row of scalars only, ``{key: scalar, ...}`` (nearly every row): validated whole, then split.
_SCALAR_ROW = re.compile(rf"\{{{_ENTRY}(?:, {_ENTRY})*\}}")
_ROW_ENTRIES = re.compile(_ENTRY)
_ENTRY_KEY = re.compile(rf"({_KEY}): ")
_TOP = re.compile(rf"({_KEY}):(?: (.*))?")
_ESCAPE = re.compile(r"\\(?:([\\\"])|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.?))")
_TYPED_TAGS = frozenset(f"tag:yaml.org,2002:{name}" for name in ("null", "bool", "int", "float", "str"))
_STR_TAG = "tag:yaml.org,2002:str"
_RESOLVER = Resolver()
_CONSTRUCTOR = SafeConstructor()
# First characters some implicit type (bool, int, null, ...) can start with; None would be a wildcard.
_IMPLICIT_STARTS = frozenset(k for k in Resolver.yaml_implicit_resolvers if k)
_WILDCARD = None in Resolver.yaml_implicit_resolvers
_CACHE_LIMIT = 1 << 16
_plain_cache: dict[str, Any] = {}
# Rows of scalars by their text: synthetic pairs of one base document share two thirds of their rows.
_row_cache: dict[str, dict[Any, Any]] = {}


def load_labels_yaml(path: str | os.PathLike[str]) -> Any:
    """``yamlload.load_yaml(path)`` for a label file: the same errors, the canonical layout read fast."""
    return parse_labels_text(yamlload.read_text(path), str(Path(path)))


def parse_labels_text(text: str, where: str) -> Any:
    """``yamlload.parse_yaml(text, where)``, reading the canonical layout directly when it is one."""
    fast = read_canonical(text)
    return fast if fast is not None else yamlload.parse_yaml(text, where)


def read_canonical(text: str) -> dict[str, Any] | None:
    """The document, when ``text`` is in the recognised subset; ``None`` when it is not."""
    if not text.endswith("\n") or _UNUSUAL.search(text):
        return None
    try:
        return _document(text.split("\n")[:-1])
    except _NotCanonical:
        return None


def _document(lines: list[str]) -> dict[str, Any]:
    document: dict[str, Any] = {}
    i, n = 0, len(lines)
    if n == 0:
        raise _NotCanonical
    while i < n:
        key, value, i = _block_entry(lines, i, "")
        _put(document, key, value)
    return document


def _block_entry(lines: list[str], i: int, indent: str) -> tuple[Any, Any, int]:
    """One ``key: value`` (or ``key:`` and its nested block) at ``indent``; the next line's index."""
    match = _TOP.fullmatch(lines[i], len(indent))
    if match is None:
        raise _NotCanonical
    key = _plain(match.group(1))
    if match.group(2) is not None:
        return key, _inline(match.group(2)), i + 1
    i += 1
    if i < len(lines) and lines[i].startswith(indent + "- "):
        return key, *_block_sequence(lines, i, indent)
    deeper = indent + "  "
    if i < len(lines) and lines[i].startswith(deeper) and lines[i][len(deeper) : len(deeper) + 1] not in " -":
        return key, *_block_mapping(lines, i, deeper)
    raise _NotCanonical  # an empty value, or a nesting the writer never produces


def _block_mapping(lines: list[str], i: int, indent: str) -> tuple[dict[str, Any], int]:
    mapping: dict[str, Any] = {}
    while i < len(lines) and lines[i].startswith(indent):
        if lines[i][len(indent) : len(indent) + 1] in (" ", "-"):
            raise _NotCanonical
        key, value, i = _block_entry(lines, i, indent)
        _put(mapping, key, value)
    return mapping, i


def _block_sequence(lines: list[str], i: int, indent: str) -> tuple[list[Any], int]:
    items = []
    dash = indent + "- "
    start = len(dash)
    while i < len(lines) and lines[i].startswith(dash):
        body = lines[i][start:]
        row = _row_cache.get(body)
        if row is not None:
            items.append(dict(row))  # a copy: its values are immutable scalars, the dict is not
        elif _SCALAR_ROW.fullmatch(body):
            row = _scalar_row(body)
            if len(_row_cache) >= _CACHE_LIMIT:
                _row_cache.clear()
            _row_cache[body] = row
            items.append(dict(row))
        else:
            items.append(_inline(body))
        i += 1
    if i < len(lines) and lines[i].startswith(indent + " "):
        raise _NotCanonical  # deeper than the items: a continuation the writer never produces
    return items, i


def _scalar_row(body: str) -> dict[Any, Any]:
    """A ``{key: scalar, ...}`` row already matched whole by ``_SCALAR_ROW``: its entries are the
    consecutive ``_ROW_ENTRIES`` matches (no scalar of the alphabet can run past its own end)."""
    entries = _ROW_ENTRIES.findall(body)
    row = {_plain(key): _scalar(single, double, plain) for key, single, double, plain in entries}
    if len(row) != len(entries):
        raise _NotCanonical  # a duplicate key: the strict loader reports it with its position
    return row


def _inline(text: str) -> Any:
    """A whole one-line value: a flow mapping or sequence, or a scalar."""
    value, end = _flow_value(text, 0)
    if end != len(text):
        raise _NotCanonical
    return value


def _flow_value(text: str, pos: int) -> tuple[Any, int]:
    opener = text[pos : pos + 1]
    if opener == "{":
        return _flow_mapping(text, pos + 1)
    if opener == "[":
        return _flow_sequence(text, pos + 1)
    match = _SCALAR.match(text, pos)
    if match is None:
        raise _NotCanonical
    return _scalar(*match.groups()), match.end()


def _flow_mapping(text: str, pos: int) -> tuple[dict[Any, Any], int]:
    mapping: dict[Any, Any] = {}
    if text.startswith("}", pos):
        return mapping, pos + 1
    while True:
        named = _ENTRY_KEY.match(text, pos)
        if named is None:
            raise _NotCanonical
        value, pos = _flow_value(text, named.end())
        _put(mapping, _plain(named.group(1)), value)
        if text.startswith(", ", pos):
            pos += 2
        elif text.startswith("}", pos):
            return mapping, pos + 1
        else:
            raise _NotCanonical


def _flow_sequence(text: str, pos: int) -> tuple[list[Any], int]:
    items: list[Any] = []
    if text.startswith("]", pos):
        return items, pos + 1
    while True:
        value, pos = _flow_value(text, pos)
        items.append(value)
        if text.startswith(", ", pos):
            pos += 2
        elif text.startswith("]", pos):
            return items, pos + 1
        else:
            raise _NotCanonical


def _put(mapping: dict[Any, Any], key: Any, value: Any) -> None:
    if key in mapping:
        raise _NotCanonical  # the strict loader reports the duplicate with its position
    mapping[key] = value


def _scalar(single: str, double: str, plain: str) -> Any:
    """The value of one scalar match; the quoted alternatives include their quotes ('' is not absent)."""
    if plain:
        return _plain(plain)
    if single:
        return single[1:-1].replace("''", "'")
    if "\\" in double:
        return _ESCAPE.sub(_unescape, double[1:-1])
    return double[1:-1]


def _unescape(match: re.Match[str]) -> str:
    quoted, short, long, other = match.groups()
    if quoted is not None:
        return quoted
    if other is not None:
        raise _NotCanonical  # an escape the writer never produces
    code = int(short or long, 16)
    if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
        raise _NotCanonical
    return chr(code)


def _plain(text: str) -> Any:
    """A plain scalar typed as PyYAML types it: its implicit resolver, then its safe constructor."""
    if text[0] not in _IMPLICIT_STARTS and not _WILDCARD:
        return text  # no implicit type starts with this character: a string
    try:
        return _plain_cache[text]
    except KeyError:
        pass
    tag = _RESOLVER.resolve(yaml.ScalarNode, text, (True, False))
    if tag not in _TYPED_TAGS or yamlload.version_problem(tag, text) is not None:
        raise _NotCanonical  # a timestamp, a YAML 1.1-only form, ...: the strict loader decides
    if tag == _STR_TAG:
        value = text
    else:
        value = _CONSTRUCTOR.yaml_constructors[tag](_CONSTRUCTOR, yaml.ScalarNode(tag, text))
    if len(_plain_cache) >= _CACHE_LIMIT:
        _plain_cache.clear()
    _plain_cache[text] = value
    return value
