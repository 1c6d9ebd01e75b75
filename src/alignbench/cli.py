"""The ``alignbench`` command: each sub-package registers its own sub-commands here.

Every user-facing failure is an :class:`AlignbenchError`, printed as one line with no traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from alignbench import __version__
from alignbench.errors import AlignbenchError

# Modules that expose ``register(subparsers)``; each adds its commands with ``set_defaults(func=...)``.
COMMAND_MODULES: tuple[str, ...] = (
    "alignbench.readers.cli",
    "alignbench.alignment.cli",
    "alignbench.labels.cli",
    "alignbench.review.cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="alignbench", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"alignbench {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except AlignbenchError as exc:
        print(f"alignbench: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
