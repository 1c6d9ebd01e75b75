"""The wild run (issue 28): every consecutive revision pair of a real document history, read and aligned.

A development tool, never a stage, never run by CI or ``make test``. Two steps:

- ``python -m alignbench.wild import SRC_GIT_DIR`` copies every revision of every document file in the
  git history of an OpenTermsArchive versions repository (``OpenTermsArchive/pga-versions``) into the
  git-ignored ``external/pga/`` folder, leaving out the sources held back for independent evaluation
  (:data:`~alignbench.wild.history.EXCLUDED_FOLDERS`, :data:`~alignbench.wild.history.EXCLUDED_FILES`)
  without reading them;
- ``python -m alignbench.wild run [--limit N]`` reads and aligns every consecutive pair through the
  project's Dask fan-out (:mod:`alignbench.fanout`) and reports crashes, no-loss violations
  (:mod:`alignbench.noloss`), budget flags, blocks per document and p50/p99 time per pair.

``make wild`` runs both steps; docs/WILD.md has the last figures and the commands that made them.
"""
