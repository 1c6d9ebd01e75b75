"""The engines alignbench ships, each its own plug-in module registered in pyproject.toml like any other.

Each module imports its implementation only inside ``align()``, so reading the registry (names,
roles, output directories) never imports an optional extra.
"""
