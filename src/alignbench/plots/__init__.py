"""Offline rendering for `dvc plots`: an HTML template with vega inlined."""
