"""Load and dump ``labels.yaml``: the evidence behind every number, so both directions are strict.

Loading is safe YAML (``alignbench.atomic.load_yaml``) followed by validation against the published
JSON Schema, reporting every problem with the file and its JSON path. Dumping is canonical: fixed key
order, one row per line as a flow mapping, and one quoting rule, so a pull-request diff reads row by row
and a file written by :func:`dump_labels` round-trips byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from alignbench.atomic import load_yaml
from alignbench.blocks import UNIT_SEPARATOR
from alignbench.errors import AlignbenchError

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
    "move_verdicts": ("source", "test", "engine_version", "verdict", "reason", "by"),
}
_ROOT_HINT = "the root '/' is never labelled (the root pair is excluded from scoring); remove it"


def row_id(prefix: str, source: str | None, test: str | None) -> str:
    """Stable row id: ``<prefix>-`` + 12 hex of sha256(``source \\x1f test``); a missing side is ``""``."""
    payload = f"{source or ''}{UNIT_SEPARATOR}{test or ''}"
    return f"{prefix}-{hashlib.sha256(payload.encode('utf-8')).hexdigest()[:12]}"


@lru_cache(maxsize=1)
def load_schema() -> dict[str, Any]:
    """The published JSON Schema (``alignbench/labels/schema.json``)."""
    text = resources.files("alignbench.labels").joinpath("schema.json").read_text(encoding="utf-8")
    return json.loads(text)


def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(load_schema())


def _json_path(parts: Any) -> str:
    path = "$"
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def _describe(error: jsonschema.ValidationError) -> str:
    """One readable sentence per schema error, with the specific wording the common mistakes deserve."""
    where = _json_path(error.absolute_path)
    if error.validator == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        unknown = sorted(set(error.instance) - set(allowed)) if isinstance(error.instance, dict) else []
        return (
            f"{where}: unknown key(s) {', '.join(repr(k) for k in unknown)}; "
            f"allowed keys here: {', '.join(allowed)}"
        )
    if error.validator == "pattern" and error.schema.get("description", "").startswith("A labelled block"):
        if error.instance == "/":
            return f"{where}: root address '/' used; {_ROOT_HINT}"
        return (
            f"{where}: bad address {error.instance!r}; expected steps like '/section[2]/list_item[3]' "
            "ending in a labelled kind (heading, paragraph, list_item, row, cell); "
            "containers are not labelled"
        )
    if error.validator == "required":
        return f"{where}: {error.message}; add it"
    if error.validator == "enum":
        options = ", ".join(str(v) for v in error.validator_value)
        return f"{where}: {error.instance!r} is not one of: {options}"
    return f"{where}: {error.message}"


def schema_problems(data: Any) -> list[str]:
    """Every schema problem of ``data`` as ``$.json.path: message``, in a stable order."""
    errors = sorted(
        _validator().iter_errors(data),
        key=lambda e: (_json_path(e.absolute_path), str(e.validator), e.message),
    )
    return [_describe(e) for e in errors]


def validate_labels(data: Any, where: str) -> None:
    """Raise one :class:`AlignbenchError` listing every schema problem, each prefixed with ``where``."""
    if not isinstance(data, dict):
        raise AlignbenchError(
            f"{where}: expected a YAML mapping with keys {', '.join(TOP_KEYS)}, got {type(data).__name__}"
        )
    problems = schema_problems(data)
    if problems:
        listed = "\n".join(f"  {where}: {p}" for p in problems)
        raise AlignbenchError(
            f"{where}: {len(problems)} schema problem(s) against {SCHEMA_ID}; fix each:\n{listed}"
        )


def load_labels(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a ``labels.yaml`` safely and validate it; every failure is one :class:`AlignbenchError`."""
    data = load_yaml(path)
    validate_labels(data, str(Path(path)))
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
    return "\n".join(lines) + "\n"


def _block_list(key: str, rows: list[Any], indent: str) -> list[str]:
    if not rows:
        return [f"{indent}{key}: []"]
    return [f"{indent}{key}:"] + [f"{indent}- {_flow(row, key)}" for row in rows]


def _ordered(mapping: dict[str, Any], kind: str) -> list[tuple[str, Any]]:
    order = _KEY_ORDER.get(kind, ())
    rank = {k: i for i, k in enumerate(order)}
    return sorted(mapping.items(), key=lambda kv: (rank.get(kv[0], len(order)), kv[0]))


def _flow(value: Any, kind: str) -> str:
    """A value on one line: mappings as ``{k: v, ...}`` in canonical order, lists as ``[a, b]``."""
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
    text = str(value)
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


@lru_cache(maxsize=4096)
def _plain_is_safe(text: str) -> bool:
    if text != text.strip() or text[0] in "!&*%@`|>'\"#?:-,[]{}" or any(c in text for c in ",[]{}#"):
        return False
    try:
        # The pure-Python parser on purpose: it is stricter than libyaml (it rejects "{k: 0?}"), and a
        # label file must read the same in every YAML tool. The result is cached, so speed is unaffected.
        return yaml.safe_load(f"{{k: {text}}}") == {"k": text}
    except yaml.YAMLError:
        return False
