"""Load and dump ``labels.yaml``: the evidence behind every number, so both directions are strict.

Loading is strict YAML (:mod:`alignbench.yamlload`: no duplicate keys, anchors or tags) followed by
validation against the published JSON Schema, reporting every problem with the file, its line and
column and its JSON path. Dumping is canonical: fixed key order, one row per line as a flow mapping,
and one quoting rule, so a pull-request diff reads row by row and a file written by
:func:`dump_labels` round-trips byte for byte.
"""

from __future__ import annotations

import hashlib
import os
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from alignbench import yamlload
from alignbench.blocks import UNIT_SEPARATOR
from alignbench.errors import AlignbenchError

if TYPE_CHECKING:  # ~0.1 s of imports; the compiled validator answers for valid files without it
    import jsonschema

SCHEMA_ID = "alignbench/labels/v1"

TOP_KEYS: tuple[str, ...] = (
    "schema",
    "pair",
    "tier",
    "source",
    "test",
    "provenance",
    "correspondences",
    "inserted",
    "deleted",
    "splits",
    "merges",
    "unscored",
    "review",
    "move_verdicts",
)
ROW_SECTIONS: tuple[str, ...] = ("correspondences", "inserted", "deleted", "splits", "merges", "unscored")

# Canonical key order of every mapping kind; keys not listed (never valid after validation) sort last.
_KEY_ORDER: dict[str, tuple[str, ...]] = {
    "document": ("file", "format", "profile", "sha256"),
    "provenance": (
        "kind",
        "origin",
        "licence",
        "attribution",
        "prepared_by",
        "normalisations",
        "generator",
        "version",
        "seed",
        "plan",
        "base_document",
    ),
    "correspondences": (
        "id",
        "source",
        "test",
        "kind",
        "source_label",
        "test_label",
        "source_digest",
        "test_digest",
        "status",
        "proposed_by",
        "note",
    ),
    "inserted": ("id", "test", "label", "digest", "status", "proposed_by", "note"),
    "deleted": ("id", "source", "label", "digest", "status", "proposed_by", "note"),
    "splits": ("source", "test", "status", "proposed_by", "note"),
    "merges": ("source", "test", "status", "proposed_by", "note"),
    "unscored": ("source", "test", "reason", "status", "note"),
    "review": ("labelled_by", "reviewed_by", "signatures", "adjudications"),
    "who": ("kind", "id", "role"),
    "reviewed_by": ("kind", "id", "role"),
    "signatures": ("id", "kind", "role", "content_digest"),
    "adjudications": ("disagreement", "ruling", "reason", "by"),
    "move_verdicts": ("source", "test", "source_digest", "test_digest", "verdict", "reason", "by"),
    "migrations": ("rule", "by", "from_digest", "to_digest", "rows"),
    "rows": ("id", "from", "to"),
}
_ROOT_HINT = "the root '/' is never labelled (the root pair is excluded from scoring); remove it"


def row_id(prefix: str, source: str | None, test: str | None) -> str:
    """Stable row id: ``<prefix>-`` + 12 hex of sha256(``source \\x1f test``); a missing side is ``""``."""
    payload = f"{source or ''}{UNIT_SEPARATOR}{test or ''}"
    return f"{prefix}-{hashlib.sha256(payload.encode('utf-8')).hexdigest()[:12]}"


def load_schema() -> dict[str, Any]:
    """The published JSON Schema (``src/alignbench/schemas/labels.json``)."""
    return yamlload.load_schema("labels")


def _describe(error: jsonschema.ValidationError) -> str:
    """The loader's wording, plus the specific wording a bad or root address deserves."""
    if error.validator == "pattern" and error.schema.get("description", "").startswith("A labelled block"):
        where = yamlload.json_path(error.absolute_path)
        if error.instance == "/":
            return f"{where}: root address '/' used; {_ROOT_HINT}"
        return (
            f"{where}: bad address {error.instance!r}; expected steps like '/section[2]/list_item[3]' "
            "ending in a labelled kind (heading, paragraph, list_item, row, cell); "
            "containers are not labelled"
        )
    return yamlload.describe_error(error)


def schema_problems(data: Any) -> list[str]:
    """Every schema problem of ``data`` as ``$.json.path: message``, in a stable order."""
    return [_describe(e) for e in yamlload.schema_errors(data, "labels")]


def validate_labels(data: Any, where: str, text: str | None = None) -> None:
    """Raise one :class:`AlignbenchError` listing every schema problem, each prefixed with ``where``.

    With the file's ``text``, each problem also gets its ``line:column``.
    """
    if not isinstance(data, dict):
        raise AlignbenchError(
            f"{where}: expected a YAML mapping with keys {', '.join(TOP_KEYS)}, got {type(data).__name__}"
        )
    yamlload.validate(data, "labels", where, text, describe=_describe)


def load_labels(path: str | os.PathLike[str], root: Path | None = None) -> dict[str, Any]:
    """Read a ``labels.yaml`` strictly and validate it; every failure is one :class:`AlignbenchError`.

    With ``root`` (the checkout the file belongs to) the parse goes through the stages' shared cache
    (:mod:`alignbench.stagecache`); the schema is checked either way."""
    where = str(Path(path))
    text = yamlload.read_text(path)
    if root is None:
        from alignbench.labels.fastload import parse_labels_text

        data = parse_labels_text(text, where)
    else:
        from alignbench.stagecache import parse_labels

        data = parse_labels(root, Path(path))
    validate_labels(data, where, text)
    return data


def dump_labels(data: dict[str, Any]) -> str:
    """Canonical YAML text of a label document (validated first, so a bad document is never written)."""
    validate_labels(data, f"labels for pair {data.get('pair', '?') if isinstance(data, dict) else '?'}")
    lines: list[str] = []
    for key in TOP_KEYS:
        value = data[key]
        if key in ("source", "test"):
            lines.append(f"{key}: {_flow(value, 'document')}")
        elif key == "provenance":
            lines.append("provenance:")
            lines.extend(f"  {k}: {_flow(v, k)}" for k, v in _ordered(value, "provenance"))
        elif key == "review":
            lines.append("review:")
            for sub, sub_value in _ordered(value, "review"):
                if sub == "labelled_by":
                    lines.append(f"  {sub}: {_flow(sub_value, 'who')}")
                else:
                    lines.extend(_block_list(sub, sub_value, indent="  "))
        elif key in (*ROW_SECTIONS, "move_verdicts"):
            lines.extend(_block_list(key, value, indent=""))
        else:
            lines.append(f"{key}: {_scalar(value)}")
    if "migrations" in data:  # optional, last: a file never migrated keeps its bytes and its digest
        lines.extend(_block_list("migrations", data["migrations"], indent=""))
    return "\n".join(lines) + "\n"


def _block_list(key: str, rows: list[Any], indent: str) -> list[str]:
    if not rows:
        return [f"{indent}{key}: []"]
    return [f"{indent}{key}:"] + [f"{indent}- {_flow(row, key)}" for row in rows]


def _ordered(mapping: dict[str, Any], kind: str) -> list[tuple[str, Any]]:
    return [(key, mapping[key]) for key in _key_order(kind, tuple(mapping))]


@lru_cache(maxsize=4096)
def _key_order(kind: str, keys: tuple[str, ...]) -> tuple[str, ...]:
    """Canonical order of one set of keys; cached because every row of a section has the same keys
    (the document is schema-valid by then, so keys are strings)."""
    rank, last = _rank(kind)
    return tuple(sorted(keys, key=lambda k: (rank.get(k, last), k)))


@cache
def _rank(kind: str) -> tuple[dict[str, int], int]:
    order = _KEY_ORDER.get(kind, ())
    return {k: i for i, k in enumerate(order)}, len(order)


def _flow(value: Any, kind: str) -> str:
    """A value on one line: mappings as ``{k: v, ...}`` in canonical order, lists as ``[a, b]``."""
    if type(value) is str:  # most values: skip the type tests of _scalar
        return _string_scalar(value)
    if isinstance(value, dict):
        parts = [f"{_scalar(k)}: {_flow(v, 'who' if k == 'by' else k)}" for k, v in _ordered(value, kind)]
        return "{" + ", ".join(parts) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v, kind) for v in value) + "]"
    return _scalar(value)


def _scalar(value: Any) -> str:
    """One quoting rule: plain when it reads back identically inside a flow mapping, else quoted."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    return _string_scalar(str(value))


@lru_cache(maxsize=1 << 16)
def _string_scalar(text: str) -> str:
    """The quoting of one string; cached because addresses, kinds and statuses repeat on every row."""
    if not text or any(ch in text for ch in '\\"') or not text.isprintable():
        return _double_quoted(text)
    if _plain_is_safe(text):
        return text
    return "'" + text.replace("'", "''") + "'"


def _double_quoted(text: str) -> str:
    """YAML double-quoted scalar; every non-printable character becomes a ``\\u``/``\\U`` escape."""
    out = []
    for ch in text:
        if ch in '\\"':
            out.append("\\" + ch)
        elif ch.isprintable() and ch != "\ufeff":
            out.append(ch)
        elif ord(ch) <= 0xFFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    return '"' + "".join(out) + '"'


# Ids, digests, pair names and paths (most scalars of a label file): a word-led run of [A-Za-z0-9_./-],
# or a hex string led by a digit that holds a letter. PyYAML resolves such a plain scalar to a string
# unless it is one of YAML 1.1's bool/null words or a 0b/0x number (every float and timestamp form
# needs '.', ':' or '-' after a digit lead), so these skip the YAML round trip, which is ~0.5 ms each.
# tests/test_labels_io_quoting.py compares this shortcut with the round trip on the corpus and on fuzz.
_SURELY_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_./-]*|[0-9][0-9a-f]*[a-f][0-9a-f]*")
_YAML_WORDS = frozenset({"y", "n", "yes", "no", "true", "false", "on", "off", "null", "nan", "inf"})


def _plain_is_safe(text: str) -> bool:
    if (
        _SURELY_PLAIN.fullmatch(text)
        and text.lower() not in _YAML_WORDS
        and not text.lower().startswith(("0b", "0x"))
    ):
        return True
    return _plain_round_trips(text)


@lru_cache(maxsize=4096)
def _plain_round_trips(text: str) -> bool:
    if text != text.strip() or text[0] in "!&*%@`|>'\"#?:-,[]{}" or any(c in text for c in ",[]{}#"):
        return False
    try:
        # The pure-Python parser on purpose: it is stricter than libyaml (it rejects "{k: 0?}"), and a
        # label file must read the same in every YAML tool. The result is cached, so speed is unaffected.
        return yaml.safe_load(f"{{k: {text}}}") == {"k": text}
    except yaml.YAMLError:
        return False
