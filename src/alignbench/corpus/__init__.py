"""The real tier: upstream bytes verified by ``fetch``, turned into prepared pairs by ``prepare``.

Everything here reads only the repository (``corpus/sources.yaml``, ``corpus/raw``,
``corpus/pairs.yaml``); ``alignbench.corpus.upstream`` is the one maintainer command that copies
files in from an upstream mirror.
"""
