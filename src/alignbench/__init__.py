"""alignbench: which clause of the old version became which clause of the new one.

The public API is small on purpose: ``read`` builds a :class:`BlockTree`, ``align`` pairs two
trees under an :class:`AlignmentConfig`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
__all__ = ["Alignment", "AlignmentConfig", "Block", "BlockTree", "__version__", "align", "read"]

if TYPE_CHECKING:
    from alignbench.alignment import Alignment, AlignmentConfig, align
    from alignbench.blocks import Block, BlockTree
    from alignbench.readers import read

_LAZY = {
    "read": "alignbench.readers",
    "align": "alignbench.alignment",
    "AlignmentConfig": "alignbench.alignment",
    "Alignment": "alignbench.alignment",
    "Block": "alignbench.blocks",
    "BlockTree": "alignbench.blocks",
}


def __getattr__(name: str) -> Any:
    # Lazy so that `import alignbench` stays cheap for the CLI and the stages.
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'alignbench' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
