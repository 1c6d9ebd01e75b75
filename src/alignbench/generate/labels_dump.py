"""Dump a synthetic label document through ``alignbench.labels.io.dump_labels``.

TEMPORARY fallback: the published schema's address pattern only allows ``section``/``table``/``row``
as intermediate steps, but the readers nest clauses (``/section[1]/list_item[2]/list_item[1]``) and
put tables inside clauses. Until the schema accepts those addresses, documents whose only schema
problems are such addresses are validated against the schema with a widened address pattern and
written with the same canonical formatter. Remove this module once the schema is fixed.
"""

from __future__ import annotations

import copy
from typing import Any

import jsonschema

from alignbench.errors import AlignbenchError
from alignbench.labels import io

_NESTED_ADDRESS = (
    r"^(/(section|table|row|heading|paragraph|list_item|cell)\[[1-9][0-9]*\])*"
    r"/(heading|paragraph|list_item|row|cell)\[[1-9][0-9]*\]$"
)


def dump(data: dict[str, Any]) -> str:
    try:
        return io.dump_labels(data)
    except AlignbenchError as exc:
        if "bad address" not in str(exc):
            raise
    schema = copy.deepcopy(io.load_schema())
    schema["$defs"]["address"]["pattern"] = _NESTED_ADDRESS
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.path))
    if errors:
        raise AlignbenchError(f"labels for pair {data.get('pair')}: {errors[0].message}")
    lines: list[str] = []
    for key in io.TOP_KEYS:
        value = data[key]
        if key in ("source", "test"):
            lines.append(f"{key}: {io._flow(value, 'document')}")
        elif key == "provenance":
            lines.append("provenance:")
            lines.extend(f"  {k}: {io._flow(v, k)}" for k, v in io._ordered(value, "provenance"))
        elif key == "review":
            lines.append("review:")
            for sub, sub_value in io._ordered(value, "review"):
                if sub == "labelled_by":
                    lines.append(f"  {sub}: {io._flow(sub_value, 'who')}")
                else:
                    lines.extend(io._block_list(sub, sub_value, indent="  "))
        elif key in (*io.ROW_SECTIONS, "move_verdicts"):
            lines.extend(io._block_list(key, value, indent=""))
        else:
            lines.append(f"{key}: {io._scalar(value)}")
    return "\n".join(lines) + "\n"
