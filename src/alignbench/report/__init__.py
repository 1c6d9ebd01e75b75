"""REPORT.md: the benchmark's numbers with every rule that could flatter them stated beside them."""

from alignbench.report.render import render_report

__all__ = ["render_report"]
