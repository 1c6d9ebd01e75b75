"""The engine registry: what is registered, how params.yaml selects, and the errors a user sees."""

from __future__ import annotations

import pytest

from alignbench.engines import Capabilities, Engine
from alignbench.engines.isolation import read_limits, validation_error
from alignbench.engines.registry import info, registered, roster, selection
from alignbench.errors import AlignbenchError


def test_every_shipped_engine_is_registered_with_a_role_and_an_output() -> None:
    names = registered()
    assert names == tuple(sorted(names))
    for name in (n for n in names if info(n).distribution == "alignbench"):  # a user may have more
        engine = info(name)
        assert isinstance(engine.engine, Engine) and isinstance(engine.capabilities, Capabilities)
        assert engine.name == engine.engine.name == name
        assert engine.third_party is False
        assert bool(engine.output_dir) == (engine.role != "calibration")


def test_the_default_selection_keeps_the_committed_order() -> None:
    engines = roster()
    assert engines.headline == ("floor", "difflib", "rapidfuzz")
    shipped_peers = tuple(p for p in engines.peers if not info(p).third_party)
    assert engines.calibration == ("oracle", "null") and shipped_peers == ("docxodus", "xmldiff")
    assert selection({"engines": ["xmldiff", "rapidfuzz", "null", "floor"]}) == (
        "floor",
        "rapidfuzz",
        "null",
        "xmldiff",
    )


@pytest.mark.parametrize(
    ("engines", "message"),
    [
        (
            ["floor", "nope"],
            r"params.yaml engines\[1\]: no engine 'nope' is registered; installed: difflib, ",
        ),
        (["floor", "floor"], r"params.yaml engines\[1\]: 'floor' is listed twice"),
        ("floor", r"params.yaml engines: expected a list of engine names"),
    ],
)
def test_a_bad_selection_is_one_line_naming_the_entry(engines: object, message: str) -> None:
    with pytest.raises(AlignbenchError, match=message):
        selection({"engines": engines})


def test_an_unknown_engine_names_what_is_installed() -> None:
    with pytest.raises(AlignbenchError, match=r"no engine 'ghost' is registered .* installed: difflib"):
        info("ghost")


def test_isolation_limits_are_checked() -> None:
    assert (
        read_limits({"isolation": {"time_limit_seconds": 2, "memory_limit_mb": 512}}).time_limit_seconds
        == 2.0
    )
    with pytest.raises(AlignbenchError, match=r"isolation\.time_limit_seconds: expected a number > 0"):
        read_limits({"isolation": {"time_limit_seconds": 0, "memory_limit_mb": 512}})
    with pytest.raises(AlignbenchError, match=r"isolation\.memory_limit_mb: expected a whole number >= 64"):
        read_limits({"isolation": {"time_limit_seconds": 1, "memory_limit_mb": 1.5}})
    with pytest.raises(AlignbenchError, match="missing the 'isolation:' section"):
        read_limits({})


def test_an_invalid_alignment_names_the_pair_and_the_field() -> None:
    good = {"pairs": [{"source": "/", "test": "/"}], "inserted": [], "deleted": [], "changes": []}
    assert validation_error(good, "real/p: e") is None
    bad = dict(good, changes=[{"kind": "jump", "source": "/a", "test": "/b"}])
    assert validation_error(bad, "real/p: e") == (
        "real/p: e: field $.changes[0].kind: 'jump' is not one of: move, renumber, modify, insert, delete"
    )
    moved = dict(good, changes=[{"kind": "move", "source": None, "test": "/b"}])
    assert validation_error(moved, "real/p: e").startswith("real/p: e: field $.changes[0].source:")
