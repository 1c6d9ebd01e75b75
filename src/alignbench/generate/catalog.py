"""Every operator a plan may name: the base set and the hard cases of issue #14, in one registry."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from alignbench.generate.hard_cases import HARD_OPERATORS, HARD_STYLES
from alignbench.generate.model import Document
from alignbench.generate.operators import OPERATORS as BASE_OPERATORS
from alignbench.generate.operators import STYLES as BASE_STYLES
from alignbench.generate.operators import Record

OPERATORS: dict[str, Callable[[Document, Random, str], Record | None]] = {**BASE_OPERATORS, **HARD_OPERATORS}
STYLES: dict[str, tuple[str, ...]] = {**BASE_STYLES, **HARD_STYLES}
