"""The ``alignbench`` command line. Each sub-package registers its own sub-commands (``COMMANDS``).

Every user-facing failure is an :class:`AlignbenchError`, printed as one line with no traceback.
Exit status (docs/CONTRACTS.md): 0 ok; 1 differences found (``compare``) or checks failed;
2 usage or input error.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

from alignbench import __version__
from alignbench.errors import EXIT_STATUS_HELP, AlignbenchError, exit_code

# Every top-level command, the module that registers it (``register(subparsers)`` adding the command
# with ``set_defaults(func=...)``) and its one-line help. Only the module of the command being run is
# imported: building every parser would import numpy and jsonschema (through ``label``) just to print
# ``compare --help``. A test holds this table equal to what the modules register.
COMMANDS: dict[str, tuple[str, str]] = {
    "compare": (
        "alignbench.alignment.cli",
        "compare two versions of a document and list what moved, changed, appeared or went",
    ),
    "blocks": ("alignbench.readers.cli", "show how a document is read: its sections, clauses and labels"),
    "review": ("alignbench.review.cli", "write an HTML page to review the labels of a pair or two documents"),
    "label": ("alignbench.labels.cli", "make, check, sign and exchange the benchmark's label files"),
    "evaluate": ("alignbench.engines.cli", "score one registered engine beside ours and the floor"),
    "bundle": ("alignbench.engines.bundle", "pack the corpus data artefact that `evaluate --corpus` reads"),
}

DESCRIPTION = """\
alignbench compares two versions of a contract, bill or policy clause by clause: which clause of
the old version became which clause of the new one (kept, edited, moved, renumbered, inserted or
deleted). It also carries the benchmark that measures that against labelled revisions.

Start with:  alignbench compare OLD.md NEW.md
Help on one command:  alignbench COMMAND --help
"""
COMMAND_MODULES: tuple[str, ...] = tuple(dict.fromkeys(module for module, _ in COMMANDS.values()))


class _Version(argparse.Action):
    """``--version``: the package version and the engine version that results and move verdicts
    record (it changes with the engine's code and settings). Computed only when asked: it reads the
    engine's source files, which every other command's start-up need not do."""

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from alignbench.alignment import engine_version
        from alignbench.alignment.similarity import resolve_backend

        sys.stdout.write(
            f"alignbench {__version__}\n"
            f"engine {engine_version()} (default settings, backend {resolve_backend('auto')})\n"
        )
        parser.exit()


def _chosen(argv: Sequence[str]) -> str | None:
    """The command named on the line: the top-level parser takes no options but -h, so it is argv[0]."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The full parser when ``argv`` is None; else one that imports only the module of its command."""
    parser = argparse.ArgumentParser(
        prog="alignbench",
        description=DESCRIPTION,
        epilog=EXIT_STATUS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action=_Version, nargs=0, help="print the version and the engine version, then exit"
    )
    subparsers = parser.add_subparsers(dest="command", required=True)
    chosen = None if argv is None else _chosen(argv)
    for command, (name, help_text) in COMMANDS.items():
        if argv is not None and command != chosen:
            subparsers.add_parser(command, help=help_text)  # listed in --help, never run
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(argv).parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except AlignbenchError as exc:
        print(f"alignbench: error: {exc}", file=sys.stderr)
        return exit_code(exc)
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
