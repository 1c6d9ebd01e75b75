"""Roles: how the benchmark treats an engine, by what it is for, never by its name.

- ``subject``: the engine under test (ours). Gated, per-pass ablations, move verdicts, hold-out
  halves, plots; its plug-in offers ``config(params, without)`` for the per-pass re-runs.
- ``reference``: the floor every engine should beat; the corpus counts are read off its row.
- ``calibration``: rows computed by the scorer itself from the labels or positions (the scorer's
  self-test, a position-only baseline); they have no stage output.
- ``peer``: every other engine, third-party ones included: on the leaderboard and per family, scored
  only when its outputs cover every pair and were made from the current documents.
"""

from __future__ import annotations

SUBJECT = "subject"
REFERENCE = "reference"
CALIBRATION = "calibration"
PEER = "peer"
ROLES: tuple[str, ...] = (SUBJECT, REFERENCE, CALIBRATION, PEER)
