"""What the peers stage's engines share: the peer role, the frozen stage, the optional extra."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from alignbench.blocks import BlockTree
from alignbench.engines.roles import PEER
from alignbench.errors import AlignbenchError

INSTALL_HINT = "install the peers extra: .venv/bin/pip install -r requirements-peers.lock"


class PeerStageEngine:
    """A peer engine that ships with alignbench behind the optional ``peers`` extra."""

    name: str
    distribution_name: str  # the PyPI distribution whose version is the engine's
    role = PEER
    stage = "peers"
    params_section = None

    @property
    def output_dir(self) -> str:
        return f"results/peers/{self.name}"

    @property
    def note(self) -> Any:
        from alignbench.peers.notes import PEERS_STAGE_NOTE

        return PEERS_STAGE_NOTE

    @property
    def version(self) -> str:
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version(self.distribution_name)
        except PackageNotFoundError:
            return "not installed"

    def function(self) -> Callable[[BlockTree, BlockTree], dict[str, Any]]:
        raise NotImplementedError

    def align(self, source: BlockTree, test: BlockTree, params: Mapping[str, Any]) -> dict[str, Any]:
        try:
            function = self.function()
        except ImportError as exc:
            raise AlignbenchError(
                f"peer engine {self.name} is not installed ({exc.name}); {INSTALL_HINT}"
            ) from None
        return function(source, test)
