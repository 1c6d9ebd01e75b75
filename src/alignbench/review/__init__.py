"""The labeller's side of review: the review page, its decisions export, and span-anchored interchange."""
