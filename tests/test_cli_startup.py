"""The top-level command table stays in step with what the command modules register, and building the
parser for one command imports only that command's module (start-up time, issue 13)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from alignbench.cli import COMMANDS, build_parser


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _helps(parser: argparse.ArgumentParser) -> dict[str, str]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {choice.dest: choice.help for choice in action._choices_actions}


def test_table_matches_what_the_modules_register() -> None:
    full = build_parser()
    assert sorted(_subcommands(full)) == sorted(COMMANDS)
    assert _helps(full) == {command: help_text for command, (_, help_text) in COMMANDS.items()}


def test_the_chosen_command_gets_its_real_parser() -> None:
    for command in COMMANDS:
        lazy = build_parser([command])
        real = _subcommands(build_parser())[command]
        assert _subcommands(lazy)[command].format_help() == real.format_help()


def test_compare_help_imports_neither_numpy_nor_jsonschema_nor_the_engine() -> None:
    code = (
        "import json, sys; from alignbench.cli import build_parser; build_parser(['compare', '--help']); "
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('numpy', 'jsonschema', 'yaml', 'markdown_it') or m.startswith('alignbench.alignment.engine'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert json.loads(out) == []
