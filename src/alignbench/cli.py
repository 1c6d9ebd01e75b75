"""The ``alignbench`` command: each sub-package registers its own sub-commands here.

Every user-facing failure is an :class:`AlignbenchError`, printed as one line with no traceback.
Exit status (docs/CONTRACTS.md): 0 ok; 1 differences found (``compare``) or checks failed;
2 usage or input error.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from alignbench.errors import EXIT_STATUS_HELP, AlignbenchError, exit_code

# Modules that expose ``register(subparsers)``; each adds its commands with ``set_defaults(func=...)``.
COMMAND_MODULES: tuple[str, ...] = (
    "alignbench.readers.cli",
    "alignbench.alignment.cli",
    "alignbench.labels.cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="alignbench",
        description=__doc__.splitlines()[0],
        epilog=EXIT_STATUS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
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
        return exit_code(exc)
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
