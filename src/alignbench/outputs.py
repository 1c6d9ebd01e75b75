"""Where a command may write a file a user named: never onto its own inputs, never into thin air.

``compare --html``, ``review --out`` and ``label export --out`` write a file the user names. A slip of
the keyboard (``compare a.txt b.txt --html a.txt``) must not replace a document with HTML, and an
``--out`` aimed at a committed ``labels.yaml`` must not overwrite reviewed labels. So before anything
is written the target is checked, and refused with one line (exit 2) when it is:

- an input of the same command (the same file, also through a link or another spelling of its path),
  or a labels file (named ``labels.yaml``/``blind-labels.yaml``, or anywhere under ``corpus/labels``),
  unless the user passed ``--force``;
- a directory, or a path whose parent directory does not exist (the parent is never created: a typo
  in a directory name should not grow a tree of directories).

The write itself is atomic (:mod:`alignbench.atomic`) and any OS failure becomes the same one line;
no temporary file survives an error.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from alignbench.atomic import write_text
from alignbench.errors import AlignbenchError

LABEL_FILE_NAMES: tuple[str, ...] = ("labels.yaml", "blind-labels.yaml")


def is_labels_file(path: Path) -> bool:
    """Whether ``path`` names a labels file: by its name, or by lying under ``corpus/labels``."""
    if path.name in LABEL_FILE_NAMES:
        return True
    parts = Path(os.path.abspath(path)).parts
    return any(parts[i : i + 2] == ("corpus", "labels") for i in range(len(parts) - 1))


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_output(
    path: str | os.PathLike[str], *, inputs: Iterable[str | os.PathLike[str]] = (), force: bool, flag: str
) -> Path:
    """The target as a :class:`Path`, or an :class:`AlignbenchError` saying why it may not be written."""
    target = Path(path)
    if target.is_dir():
        raise AlignbenchError(f"{target}: is a directory; give {flag} a file name (nothing was written)")
    parent = target.parent
    if not parent.is_dir():
        what = "is not a directory" if parent.exists() else "does not exist"
        raise AlignbenchError(
            f"{target}: the directory {parent} {what}; create it first or give {flag} another path "
            "(nothing was written)"
        )
    if force or not target.exists():
        return target
    for given in inputs:
        if _same_file(target, Path(given)):
            raise AlignbenchError(
                f"{target}: is an input of this command ({given}); refusing to overwrite it: give {flag} "
                "another path, or pass --force (nothing was written)"
            )
    if is_labels_file(target):
        raise AlignbenchError(
            f"{target}: is a labels file; refusing to overwrite it with this output: give {flag} another "
            "path, or pass --force (nothing was written)"
        )
    return target


def write_output(
    path: str | os.PathLike[str],
    text: str,
    *,
    inputs: Iterable[str | os.PathLike[str]] = (),
    force: bool,
    flag: str,
) -> Path:
    """Check the target (:func:`check_output`), then write ``text`` to it atomically."""
    target = check_output(path, inputs=inputs, force=force, flag=flag)
    try:
        write_text(target, text)
    except OSError as exc:
        raise AlignbenchError(
            f"{target}: cannot write {flag} ({exc.strerror or exc.__class__.__name__}); nothing was written"
        ) from None
    return target
