"""What the two similarity backends of our engine share: the subject role and the per-pass re-runs.

The backend-specific modules (one per backend) only name themselves and their backend.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from alignbench.blocks import BlockTree
from alignbench.engines.protocol import Capabilities
from alignbench.engines.roles import SUBJECT


class OurEngine:
    """alignbench's structural aligner with one similarity backend, as a registered engine."""

    name: str
    backend: str
    role = SUBJECT
    params_section = "align"
    capabilities = Capabilities(moves=True, renumbers=True, rows=True)

    @property
    def output_dir(self) -> str:
        return f"results/alignments/{self.name}"

    @property
    def stage(self) -> str:
        return f"align@{self.name}"

    @property
    def display_name(self) -> str:
        return f"alignbench/{self.name}"

    @property
    def version(self) -> str:
        from alignbench.alignment import engine_version

        return engine_version(self.config({}))

    def config(self, params: Mapping[str, Any], without: str | None = None) -> Any:
        """The engine config of the ``align:`` params, optionally with one pass disabled."""
        from alignbench.runs import alignment_config

        return alignment_config(params, self.backend, without)

    def preload(self, params: Mapping[str, Any]) -> None:
        """Check the params and import the engine before the stage forks its workers."""
        self.config(params)

    def align(self, source: BlockTree, test: BlockTree, params: Mapping[str, Any]) -> dict[str, Any]:
        from alignbench.alignment import align

        return align(source, test, self.config(params)).to_dict()
