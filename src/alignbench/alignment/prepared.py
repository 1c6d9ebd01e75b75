"""One document pair made ready for several alignments: what every run of the pair would redo.

The score stage aligns each pair once per pass it can leave out (``unique`` counts), up to ten runs
on the same two trees. Each run flattened both trees, tokenised the same blocks and scored the same
candidate pairs again: most of the stage. A :class:`PreparedPair` holds the flattened documents,
their heading readings and a :class:`~alignbench.alignment.similarity.PairMemo` of bounds and
ratios, and ``align(..., prepared=...)`` runs on them. Everything it holds is a pure function of
the two trees, so a run's result - pairs, changes, ``comparisons``, ``budget_exhausted`` - is the
one a fresh run gives, whichever runs came before it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from alignbench.alignment.flat import FlatDocument
from alignbench.alignment.headings import HeadingReadings
from alignbench.alignment.similarity import PairMemo, Vocabulary

if TYPE_CHECKING:
    from alignbench.blocks import BlockTree

Parts = tuple[FlatDocument, FlatDocument, HeadingReadings, PairMemo]


class PreparedPair:
    """A source and a test tree, flattened on first use and kept for every later alignment of them."""

    def __init__(self, source_tree: BlockTree, test_tree: BlockTree) -> None:
        self.source_tree = source_tree
        self.test_tree = test_tree
        self._parts: Parts | None = None

    def parts(self) -> Parts:
        """Both flattened documents (one vocabulary), their heading readings and the similarity memo.

        Built by the first alignment, inside its garbage-collector pause (see ``align``)."""
        if self._parts is None:
            vocabulary = Vocabulary()
            src = FlatDocument(self.source_tree, vocabulary)
            tst = FlatDocument(self.test_tree, vocabulary)
            self._parts = (src, tst, HeadingReadings(src, tst), PairMemo(vocabulary))
        return self._parts
