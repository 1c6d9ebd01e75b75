"""Every operator a plan may name: the base set, the hard cases of issue #14 and the revision cases of
issue #29 (its class 3 in reworded_cases), in one registry."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from alignbench.generate.hard_cases import HARD_OPERATORS, HARD_STYLES
from alignbench.generate.model import Document
from alignbench.generate.operators import OPERATORS as BASE_OPERATORS
from alignbench.generate.operators import STYLES as BASE_STYLES
from alignbench.generate.operators import Record
from alignbench.generate.revision_cases import REVISION_OPERATORS, REVISION_STYLES
from alignbench.generate.reworded_cases import REWORDED_OPERATORS, REWORDED_STYLES

OPERATORS: dict[str, Callable[[Document, Random, str], Record | None]] = {
    **BASE_OPERATORS,
    **HARD_OPERATORS,
    **REVISION_OPERATORS,
    **REWORDED_OPERATORS,
}
STYLES: dict[str, tuple[str, ...]] = {**BASE_STYLES, **HARD_STYLES, **REVISION_STYLES, **REWORDED_STYLES}
