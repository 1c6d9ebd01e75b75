"""Engine discovery through the ``alignbench.engines`` entry-point group, and selection by params.yaml.

Every engine, ours included, is an entry point ``NAME = "module:object"``; ``object`` is an
:class:`~alignbench.engines.protocol.Engine` instance or a class that makes one with no arguments. The
pipeline asks this module, never a list of names, which engines exist, which are selected
(``params.yaml engines:``), where each writes and what role it plays. An engine shipped by another
distribution is third-party: always a ``peer``, run isolated (:mod:`alignbench.engines.isolation`),
written under ``results/engines/<name>/``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

from alignbench.engines.protocol import Capabilities, Engine
from alignbench.engines.roles import CALIBRATION, PEER, REFERENCE, ROLES, SUBJECT
from alignbench.errors import AlignbenchError

GROUP = "alignbench.engines"
OWN_DISTRIBUTION = "alignbench"
PLUGIN_DIR = "results/engines"
PLUGIN_STAGE = "plugins"
NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
# The reference first, then the subjects, the calibration rows and the peers; within a group, the order
# of params.yaml ``engines:`` (absent: each shipped plug-in's ``rank``, then the name).
_GROUP_ORDER = {REFERENCE: 0, SUBJECT: 1, CALIBRATION: 2, PEER: 3}


@dataclass(frozen=True)
class EngineInfo:
    """One registered engine as the pipeline sees it; built without running the engine."""

    name: str
    distribution: str
    engine: Engine
    role: str
    output_dir: str  # repo-relative directory of ``<tier>/<pair>.json``; empty for calibration rows
    stage: str  # the DVC stage that writes output_dir (named in errors)
    params_section: str | None  # the params.yaml section passed to align(), or None for {}
    display_name: str
    rank: int  # default order within its role group (shipped plug-ins only; others 100)

    @property
    def third_party(self) -> bool:
        return self.distribution != OWN_DISTRIBUTION

    @property
    def version(self) -> str:
        return str(self.engine.version)

    @property
    def capabilities(self) -> Capabilities:
        return self.engine.capabilities


@functools.cache
def _entry_points() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for point in sorted(entry_points(group=GROUP), key=lambda p: (p.name, p.value)):
        if point.name in found and found[point.name].value != point.value:
            raise AlignbenchError(
                f"entry point group {GROUP}: {point.name!r} is registered twice "
                f"({found[point.name].value} and {point.value}); uninstall one of them"
            )
        found[point.name] = point
    return found


def registered() -> tuple[str, ...]:
    """Every engine name installed in this environment, sorted."""
    return tuple(_entry_points())


def refresh() -> None:
    """Forget what was discovered (after a ``pip install`` in the same process, e.g. in tests)."""
    _entry_points.cache_clear()
    info.cache_clear()


def _distribution(point: EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    return str(dist.name) if dist is not None else OWN_DISTRIBUTION


def _check(engine: Any, name: str, value: str) -> Engine:
    missing = [a for a in ("name", "version", "capabilities", "align") if not hasattr(engine, a)]
    if missing:
        raise AlignbenchError(
            f"engine {name!r} ({value}): missing {', '.join(missing)}; "
            "see docs/ENGINES.md (the Engine protocol)"
        )
    if engine.name != name:
        raise AlignbenchError(
            f"engine {name!r} ({value}): its name attribute is {engine.name!r}; make them equal"
        )
    if not isinstance(engine.capabilities, Capabilities):
        raise AlignbenchError(
            f"engine {name!r} ({value}): capabilities must be alignbench.engines.Capabilities(...)"
        )
    return engine


@functools.cache
def info(name: str) -> EngineInfo:
    """The registered engine ``name``; an unknown one is an error listing what is installed."""
    points = _entry_points()
    if name not in points:
        raise AlignbenchError(
            f"no engine {name!r} is registered (entry point group {GROUP}); installed: "
            f"{', '.join(points) or 'none'}; pip install the engine's package (docs/ENGINES.md)"
        )
    if not NAME_PATTERN.match(name):
        raise AlignbenchError(f"engine name {name!r}: use 1-40 of a-z, 0-9, '-' and '_', starting alnum")
    point = points[name]
    try:
        loaded = point.load()
    except Exception as exc:  # third-party import code: one line naming the entry point
        raise AlignbenchError(
            f"engine {name!r}: loading {point.value} failed ({type(exc).__name__}: {exc})"
        ) from None
    engine = _check(loaded() if isinstance(loaded, type) else loaded, name, point.value)
    distribution = _distribution(point)
    own = distribution == OWN_DISTRIBUTION
    role = str(getattr(engine, "role", PEER)) if own else PEER
    if role not in ROLES:
        raise AlignbenchError(f"engine {name!r}: unknown role {role!r}; expected one of {', '.join(ROLES)}")
    return EngineInfo(
        name=name,
        distribution=distribution,
        engine=engine,
        role=role,
        output_dir=str(getattr(engine, "output_dir", "")) if own else f"{PLUGIN_DIR}/{name}",
        stage=str(getattr(engine, "stage", "")) if own else PLUGIN_STAGE,
        params_section=getattr(engine, "params_section", None) if own else None,
        display_name=str(getattr(engine, "display_name", name)),
        rank=int(getattr(engine, "rank", 100)) if own else 100,
    )


def engine_params(name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The mapping ``align()`` receives: the engine's params.yaml section, or ``{}``."""
    section = info(name).params_section
    return dict(params.get(section) or {}) if section else {}


def selection(params: Mapping[str, Any], where: str = "params.yaml") -> tuple[str, ...]:
    """The engines ``params.yaml engines:`` selects (every registered one when the key is absent),
    grouped headline engines, calibration rows, peers; each known, none twice."""
    chosen = params.get("engines")
    if chosen is None:
        names: Sequence[str] = sorted(registered(), key=lambda n: (info(n).rank, n))
    elif isinstance(chosen, list) and all(isinstance(n, str) for n in chosen):
        names = chosen
    else:
        raise AlignbenchError(f"{where} engines: expected a list of engine names, got {chosen!r}")
    seen: list[str] = []
    for index, name in enumerate(names):
        if name in seen:
            raise AlignbenchError(f"{where} engines[{index}]: {name!r} is listed twice; list it once")
        if name not in _entry_points():
            raise AlignbenchError(
                f"{where} engines[{index}]: no engine {name!r} is registered; installed: "
                f"{', '.join(registered())}; pip install it or remove it from the list"
            )
        seen.append(name)
    return tuple(sorted(seen, key=lambda n: _GROUP_ORDER[info(n).role]))  # sorted() is stable


def selected(root: Path) -> tuple[str, ...]:
    """:func:`selection` of ``<root>/params.yaml``."""
    from alignbench.atomic import load_yaml

    path = root / "params.yaml"
    params = load_yaml(path, "params")
    return selection(params if isinstance(params, Mapping) else {}, str(path))


def with_role(names: Sequence[str], role: str) -> tuple[str, ...]:
    return tuple(n for n in names if info(n).role == role)


def reference(names: Sequence[str]) -> str | None:
    """The first selected reference engine (the floor), or None."""
    found = with_role(names, REFERENCE)
    return found[0] if found else None


def output_path(root: Path, name: str, tier: str, pair: str) -> Path:
    return root / info(name).output_dir / tier / f"{pair}.json"


@dataclass(frozen=True)
class Roster:
    """Selected engines by role, each tuple in selection order."""

    names: tuple[str, ...]

    @property
    def reference(self) -> str | None:
        return reference(self.names)

    @property
    def subjects(self) -> tuple[str, ...]:
        return with_role(self.names, SUBJECT)

    @property
    def headline(self) -> tuple[str, ...]:
        """The engines of the headline tables: the reference and the subjects."""
        return tuple(n for n in self.names if info(n).role in (REFERENCE, SUBJECT))

    @property
    def calibration(self) -> tuple[str, ...]:
        return with_role(self.names, CALIBRATION)

    @property
    def peers(self) -> tuple[str, ...]:
        return with_role(self.names, PEER)

    @property
    def compared(self) -> tuple[str, str] | None:
        """The first two subjects (our two backends: the backend delta), or None when fewer."""
        subjects = self.subjects
        return (subjects[0], subjects[1]) if len(subjects) >= 2 else None


def roster(names: Sequence[str] | None = None) -> Roster:
    """The roster of ``names`` (already a selection), or of the default selection."""
    return Roster(tuple(names) if names is not None else selection({}))
