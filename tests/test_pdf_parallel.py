"""A long PDF read in two processes gives exactly the lines of a read in one (readers/pdf/parallel)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("pypdfium2", reason="the pdf extra (pypdfium2) is not installed")

from alignbench.readers.pdf import parallel
from alignbench.readers.pdf.textlayer import _open, read_pages
from pdf_builder import build_pdf, flowed

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork on this platform")


def _document(tmp_path: Path, pages: int = parallel.FORK_FROM_PAGES + 1) -> bytes:
    body = [
        flowed(
            [
                (f"{page}.{line} Clause {line} of page {page} says what the parties agreed.", {})
                for line in range(1, 9)
            ]
        )
        for page in range(1, pages + 1)
    ]
    return build_pdf(tmp_path / "long.pdf", body).read_bytes()


def test_two_processes_read_the_same_lines_as_one(tmp_path: Path) -> None:
    document = _open(_document(tmp_path), "long.pdf")
    try:
        pages = len(document)
        one = read_pages(document, range(pages))
        two = parallel.read_forked(document, pages, read_pages)
    finally:
        document.close()
    assert len(one) == 8 * pages
    assert two == one
    assert [line.page for line in two] == sorted(line.page for line in two)


def test_a_child_that_fails_has_its_half_read_again(tmp_path: Path) -> None:
    parent = os.getpid()

    def fails_in_the_child(document: object, numbers: range) -> list:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        return read_pages(document, numbers)

    document = _open(_document(tmp_path), "long.pdf")
    try:
        pages = len(document)
        assert parallel.read_forked(document, pages, fails_in_the_child) == read_pages(document, range(pages))
    finally:
        document.close()


def test_the_fork_is_refused_where_it_is_not_safe_or_does_not_pay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel.threading, "active_count", lambda: 1)
    monkeypatch.setattr(parallel.multiprocessing, "parent_process", lambda: None)
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(parallel.sys, "platform", "linux")
    monkeypatch.delenv(parallel.PROCESSES_VARIABLE, raising=False)
    assert parallel.may_fork(parallel.FORK_FROM_PAGES)
    assert not parallel.may_fork(parallel.FORK_FROM_PAGES - 1)
    monkeypatch.setenv(parallel.PROCESSES_VARIABLE, "1")
    assert not parallel.may_fork(120)
    monkeypatch.delenv(parallel.PROCESSES_VARIABLE)
    monkeypatch.setattr(parallel.threading, "active_count", lambda: 2)
    assert not parallel.may_fork(120)
    monkeypatch.setattr(parallel.threading, "active_count", lambda: 1)
    monkeypatch.setattr(parallel.multiprocessing, "parent_process", lambda: object())
    assert not parallel.may_fork(120)
    monkeypatch.setattr(parallel.multiprocessing, "parent_process", lambda: None)
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 1)
    assert not parallel.may_fork(120)
