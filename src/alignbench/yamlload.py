"""The one YAML loader of the project: strict YAML, positions in every error, a JSON Schema per file kind.

Every YAML file alignbench reads (labels, params, plans, sources, pairs, reader profiles, the blind
subset) comes through :func:`load_yaml`, so all of them fail the same way:

- duplicate keys are refused (PyYAML keeps the last one silently, so a second ``status:`` could
  override a reviewed row), as are merge keys (``<<``), anchors/aliases (how a YAML bomb expands) and
  explicit tags (``!!python/...`` and friends): a data file needs none of them;
- every error is one :class:`AlignbenchError` line starting ``file:line:column``, the path once;
- with ``kind``, the data is validated against ``src/alignbench/schemas/<kind>.json``; unknown keys
  are errors in every schema.

Speed: parsing stays in libyaml (``CSafeLoader``); only the mapping constructor is Python, as it was
before, and the event scan for anchors and tags runs only when the text holds ``&``, ``*`` or ``!``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from alignbench.errors import AlignbenchError
from alignbench.inputs import read_bytes_capped

if TYPE_CHECKING:  # imported where used: every stage loads YAML, few ever report a schema error
    import jsonschema

# libyaml's parser when PyYAML was built with it (the pinned wheels are): same results, ~10x faster.
_BASE_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SCHEMA_KINDS: tuple[str, ...] = ("blind-subset", "labels", "pairs", "params", "plans", "profiles", "sources")
_MERGE_TAG = "tag:yaml.org,2002:merge"
# Contexts whose problem mark lands after the real mistake: an unclosed flow collection or quoted
# scalar is only noticed on a later line, so the line that opened it is the one to fix.
_OPENED_AT_CONTEXT = ("flow mapping", "flow sequence", "quoted scalar")


class _StrictLoader(_BASE_LOADER):  # type: ignore[misc, valid-type]
    """The safe loader with a mapping constructor that refuses duplicate and merge keys."""

    def construct_scalar(self, node: Any) -> Any:
        if isinstance(node, yaml.ScalarNode) and not node.style:  # plain (libyaml: "", PyYAML: None)
            problem = version_problem(node.tag, node.value)
            if problem is not None:
                raise _Refused(node.start_mark, problem)
        return super().construct_scalar(node)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        mapping: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                raise _Refused(key_node.start_mark, "merge keys ('<<') are not allowed; write the keys out")
            key = self.construct_object(key_node, deep=deep)
            try:
                duplicate = key in mapping
            except TypeError:
                raise _Refused(key_node.start_mark, "a mapping key must be a plain scalar") from None
            if duplicate:
                raise _Refused(key_node.start_mark, f"duplicate key {key!r} in one mapping; keep exactly one")
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping


# YAML 1.1 (PyYAML's resolver) and YAML 1.2 read these plain scalars differently: ``01000`` is 512
# (octal) in 1.1 and 1000 in 1.2, ``1:30`` is 90 (base 60) in 1.1 and a string in 1.2, ``1_000`` is
# 1000 in 1.1 only, ``yes``/``on`` are booleans in 1.1 only. A value that depends on the YAML version
# is refused, so a reader and a tool on the other version never see two different files.
_YAML11_ONLY = re.compile(r"[-+]?(?:0[0-7_]+|0b[01_]+|[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?|.*_.*)")
_YAML11_BOOLS = frozenset(
    w for word in ("yes", "no", "on", "off") for w in (word, word.title(), word.upper())
)
# The largest committed YAML file (a real pair's labels) is under 1 MB.
MAX_YAML_BYTES = 64 * 1024 * 1024
# No integer alignbench reads has more digits (a sha256 is a string); Python refuses 4,300 and more.
MAX_INT_DIGITS = 64


def version_problem(tag: str, text: str) -> str | None:
    """Why a plain scalar of implicit type ``tag`` is refused (YAML 1.1-only form, runaway integer)."""
    if tag.endswith(":bool"):
        if text in _YAML11_BOOLS:
            return f"{text!r} is a boolean in YAML 1.1 but a string in YAML 1.2; write true/false or quote it"
        return None
    if not tag.endswith((":int", ":float")):
        return None
    if text[:1] not in "-+.0123456789" or text.lstrip("-+")[:1] == ".":
        return None  # .inf, .nan
    if _YAML11_ONLY.fullmatch(text) and text.lstrip("-+") != "0":
        return (
            f"{text!r} reads differently in YAML 1.1 (octal, base 60 or with '_') and YAML 1.2; "
            "write a plain decimal number, or quote it if it is text"
        )
    digits = sum(c.isdigit() for c in text)
    if tag.endswith(":int") and digits > MAX_INT_DIGITS:
        return (
            f"an integer of {digits} digits is longer than any value alignbench reads "
            f"(at most {MAX_INT_DIGITS})"
        )
    return None


class _Refused(Exception):
    """A construct the strict loader refuses, with the position it starts at."""

    def __init__(self, mark: Any, message: str) -> None:
        super().__init__(message)
        self.mark = mark
        self.message = message


def _at(where: str, mark: Any) -> str:
    return f"{where}:{mark.line + 1}:{mark.column + 1}" if mark is not None else where


def read_text(path: str | os.PathLike[str]) -> str:
    """The file as UTF-8 text; missing, unreadable, empty or non-UTF-8 files are one clear error."""
    p = Path(path)
    raw = read_bytes_capped(  # capped: a YAML file named /dev/zero is refused, not read forever
        p,
        MAX_YAML_BYTES,
        missing="file not found",
        directory="is a directory, expected a YAML file",
        too_large=f"more than {MAX_YAML_BYTES // (1024 * 1024)} MB; "
        "no YAML file alignbench reads is that large",
    )
    if not raw.strip():
        raise AlignbenchError(f"{p}: file is empty; expected a YAML mapping")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AlignbenchError(f"{p}: not valid UTF-8 (byte {exc.start}); save the file as UTF-8") from None


def parse_yaml(text: str, where: str) -> Any:
    """Strict ``safe_load`` of ``text``; ``where`` names the file in every error."""
    if "&" in text or "*" in text or "!" in text:
        _reject_anchors_and_tags(text, where)
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except _Refused as exc:
        raise AlignbenchError(f"{_at(where, exc.mark)}: {exc.message}") from None
    except yaml.YAMLError as exc:
        raise AlignbenchError(_syntax_message(exc, where)) from None


def _syntax_message(exc: yaml.YAMLError, where: str) -> str:
    problem_mark = getattr(exc, "problem_mark", None)
    context_mark = getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None) or ""
    if context_mark is not None and any(c in context for c in _OPENED_AT_CONTEXT):
        opened = next(c for c in _OPENED_AT_CONTEXT if c in context)
        noticed = f"line {problem_mark.line + 1}" if problem_mark is not None else "the end"
        return (
            f"{_at(where, context_mark)}: malformed YAML: this {opened} is not closed "
            f"({problem}, noticed at {noticed}); fix the syntax and re-run"
        )
    return f"{_at(where, problem_mark)}: malformed YAML: {problem}; fix the syntax and re-run"


def _reject_anchors_and_tags(text: str, where: str) -> None:
    """Anchors, aliases and explicit tags are refused outright, before anything is constructed."""
    try:
        for event in yaml.parse(text, Loader=_BASE_LOADER):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise AlignbenchError(
                    f"{_at(where, event.start_mark)}: YAML anchors/aliases are not allowed; "
                    "write the values out in full"
                )
            if getattr(event, "tag", None) is not None:
                raise AlignbenchError(
                    f"{_at(where, event.start_mark)}: YAML tag {event.tag!r} is not allowed; "
                    "remove it and write a plain value"
                )
    except yaml.YAMLError:
        return  # the load that follows reports the syntax error with its position


def load_yaml(path: str | os.PathLike[str], kind: str | None = None) -> Any:
    """Read ``path`` strictly; with ``kind``, validate it against that kind's JSON Schema."""
    where = str(Path(path))
    text = read_text(path)
    data = parse_yaml(text, where)
    if kind is not None:
        validate(data, kind, where, text)
    return data


@cache
def load_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of one file kind (``src/alignbench/schemas/<kind>.json``)."""
    if kind not in SCHEMA_KINDS:
        raise AlignbenchError(f"unknown YAML file kind {kind!r}; expected one of {', '.join(SCHEMA_KINDS)}")
    text = resources.files("alignbench.schemas").joinpath(f"{kind}.json").read_text(encoding="utf-8")
    return json.loads(text)


@cache
def _validator(kind: str) -> jsonschema.Draft202012Validator:
    import jsonschema  # ~0.1 s of imports, needed only when the compiled validator finds a problem

    return jsonschema.Draft202012Validator(load_schema(kind))


def json_path(parts: Any) -> str:
    path = "$"
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def describe_error(error: jsonschema.ValidationError) -> str:
    """One readable sentence per schema error: unknown keys list the allowed ones, enums their options."""
    where = json_path(error.absolute_path)
    if error.validator == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        unknown = sorted(set(error.instance) - set(allowed)) if isinstance(error.instance, dict) else []
        return (
            f"{where}: unknown key(s) {', '.join(repr(k) for k in unknown)}; "
            f"allowed keys here: {', '.join(allowed)}"
        )
    if error.validator == "required":
        return f"{where}: {error.message}; add it"
    if error.validator == "contains" and "const" in error.validator_value:
        return f"{where}: must list {error.validator_value['const']!r}; it is mandatory"
    if error.validator == "enum":
        options = ", ".join(str(v) for v in error.validator_value)
        return f"{where}: {error.instance!r} is not one of: {options}"
    return f"{where}: {error.message}"


@cache
def _fast_validator(kind: str) -> Any:
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(load_schema(kind))


def _surely_valid(data: Any, kind: str) -> bool:
    """The compiled (Rust) validator's verdict, used only to skip the Python one on valid data.

    Python ``jsonschema`` takes ~40 ms per label file (most of label_check's time) while the compiled
    validator takes well under 1 ms. Only a "valid" is trusted: anything else (invalid, or a YAML value
    such as a date that has no JSON form) goes to the Python validator, whose errors and their wording
    are the ones reported, so messages never depend on which validator ran first."""
    try:
        return bool(_fast_validator(kind).is_valid(data))
    except (ValueError, TypeError, OverflowError):
        return False


def schema_errors(data: Any, kind: str) -> list[jsonschema.ValidationError]:
    """Every schema error of ``data`` in a stable order (by JSON path, then rule, then message)."""
    if _surely_valid(data, kind):
        return []
    return sorted(
        _validator(kind).iter_errors(data),
        key=lambda e: (json_path(e.absolute_path), str(e.validator), e.message),
    )


def validate(
    data: Any,
    kind: str,
    where: str,
    text: str | None = None,
    describe: Callable[[jsonschema.ValidationError], str] = describe_error,
) -> None:
    """Raise one :class:`AlignbenchError` listing every schema problem, each as ``file:line:column``."""
    errors = schema_errors(data, kind)
    if not errors:
        return
    marks = _marks(text) if text is not None else {}
    lines = [f"  {_at(where, _nearest(marks, _located(e)))}: {describe(e)}" for e in errors]
    title = load_schema(kind).get("title", kind)
    raise AlignbenchError(
        f"{where}: {len(errors)} schema problem(s) against {title}; fix each:\n" + "\n".join(lines)
    )


def _located(error: jsonschema.ValidationError) -> tuple[Any, ...]:
    """The path to point at: an unknown key's own line rather than its mapping's first line."""
    path = tuple(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = error.schema.get("properties", {})
        unknown = [k for k in error.instance if k not in allowed]
        if unknown:
            return (*path, unknown[0])
    return path


def _nearest(marks: dict[tuple[Any, ...], Any], path: tuple[Any, ...]) -> Any:
    while path not in marks and path:
        path = path[:-1]
    return marks.get(path)


def _marks(text: str) -> dict[tuple[Any, ...], Any]:
    """JSON path -> start mark of its node (a mapping value at its key). Only built when reporting."""
    try:
        root = yaml.compose(text, Loader=_BASE_LOADER)
    except yaml.YAMLError:
        return {}
    return dict(_walk(root, ())) if root is not None else {}


def _walk(node: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, node.start_mark
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            child = (*path, key_node.value)
            yield child, key_node.start_mark
            for sub_path, mark in _walk(value_node, child):
                if sub_path != child:
                    yield sub_path, mark
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            yield from _walk(item, (*path, index))
