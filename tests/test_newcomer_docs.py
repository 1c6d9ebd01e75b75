"""What a newcomer meets first (issue 32): the README opens with the two commands and says how to
go on from there; the repository has its licence, contribution guide and changelog; `make repro`
shows pip's progress."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_opens_with_exactly_the_two_commands() -> None:
    first_block = README.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in first_block.splitlines()]
    assert README.startswith("# alignbench\n\n```sh\n")
    assert commands == ["make repro", "make test"]


def test_readme_says_how_to_go_on_right_after_them() -> None:
    after = README.split("## What this is", 1)[0]
    assert ". .venv/bin/activate" in after  # alignbench and dvc on the PATH
    assert "Data and pipelines are up to date." in after and "dvc repro -f" in after
    assert "chromium" in after and "chromedriver" in after and "make browser" in after


def test_speed_history_lives_in_docs_performance() -> None:
    for history in ("callgrind", "Session 8", "Session 9", "Tried and not kept"):
        assert history not in README, history
    assert "docs/PERFORMANCE.md" in README
    performance = (ROOT / "docs" / "PERFORMANCE.md").read_text(encoding="utf-8")
    assert "make bench" in performance and "Session 9" in performance


def test_licence_contributing_and_changelog() -> None:
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["license"]
    assert declared == "MIT" and licence.startswith("MIT License\n")
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for topic in (
        "## Adding a real pair",
        "## Adding an engine",
        "## Adding a reader rule",
        "make test-slow",
    ):
        assert topic in contributing, topic
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(r"^## Unreleased$", changelog, re.M)


def test_contributing_names_files_that_exist() -> None:
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for path in sorted(
        set(re.findall(r"`((?:src|corpus|docs|tests)/[\w./-]+\.(?:py|yaml|md))`", contributing))
    ):
        if "<" not in path and "*" not in path:
            assert (ROOT / path).exists(), path


def test_the_long_install_shows_progress() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    install = next(line for line in makefile.splitlines() if "-r requirements.lock" in line)
    assert "--quiet" not in install and "-q " not in install
