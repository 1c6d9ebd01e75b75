"""The floor-consistency check: never below a flat diff (issue 29; docs/FLOORCHECK.md).

:mod:`~alignbench.floorcheck.consistency` is the check of one pair; :mod:`~alignbench.floorcheck.run`
runs the floor and the engine over the committed tiers or the wild import;
``python -m alignbench.floorcheck`` prints the counts.
"""
