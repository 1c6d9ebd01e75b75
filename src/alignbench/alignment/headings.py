"""Heading readings: how two headings (or the sections they head) compare as names, beyond content.

A rewritten section keeps its name while its body drifts, and a label-only heading ("Schedule 1")
names nothing but its number; these readings are what the walk adds to token similarity for such
blocks. They live apart from the walk because they carry their own per-run state (word weights over
every heading, an index of heading texts, children's keys), built lazily once per comparison.
"""

from __future__ import annotations

from alignbench.alignment.context import child_keys, child_overlap, label_only
from alignbench.alignment.flat import FlatDocument
from alignbench.alignment.names import NameWeights


def _headings_by_text(doc: FlatDocument) -> dict[str, list[int]]:
    """Heading text -> the headings carrying it, in document order (empty texts left out)."""
    found: dict[str, list[int]] = {}
    for i in range(len(doc)):
        if doc.kind[i] == "heading" and doc.text[i]:
            found.setdefault(doc.text[i], []).append(i)
    return found


class HeadingReadings:
    """The name readings of one source/test comparison (see the module docstring)."""

    def __init__(self, src: FlatDocument, tst: FlatDocument) -> None:
        self.src = src
        self.tst = tst
        self._name_weights: NameWeights | None = None
        self._heading_index: tuple[dict[str, list[int]], dict[str, list[int]]] | None = None
        self._child_keys: tuple[dict[int, dict[str, int]], dict[int, dict[str, int]]] = ({}, {})

    def kept_children(self, s: int, t: int) -> float | None:
        """Two sections headed by the same label-only heading, read through the children they keep.

        "Schedule 1" names nothing, so when its body is rewritten neither its key nor its name can pair
        it; the share of its children kept byte for byte (:func:`context.child_overlap`) can. Only for
        equal labels: the label is what says the two are candidates at all. ``None`` otherwise.
        """
        src, tst = self.src, self.tst
        if not (label_only(src, s) and label_only(tst, t)):
            return None
        if src.name_label(s) != tst.name_label(t):
            return None
        keys_s = self._child_keys[0].get(s)
        if keys_s is None:
            keys_s = self._child_keys[0][s] = child_keys(src, s)
        keys_t = self._child_keys[1].get(t)
        if keys_t is None:
            keys_t = self._child_keys[1][t] = child_keys(tst, t)
        return child_overlap(keys_s, keys_t)

    def name_similarity(self, s: int, t: int, floor: float) -> float | None:
        """How alike two headings (or the headings of two sections) read as names, if >= ``floor``.

        Bare names, unless only one side has a label: then its number goes with its name, to meet the
        other side's number written in the text ("1 Definitions" / "Section 1 - Definitions."). Two
        labelled names are never compared with their labels, so a shared number is not a shared word.
        Words are weighted by rarity among all headings (:mod:`alignbench.alignment.names`).
        """
        src, tst = self.src, self.tst
        names_s, names_t = src.names(s), tst.names(t)
        if names_s is None or names_t is None:
            return None
        if self.claimed_elsewhere(s, t):
            return None
        if self._name_weights is None:
            self._name_weights = NameWeights([*src.heading_names(), *tst.heading_names()])
        labelled_s, labelled_t = src.name_label(s) is not None, tst.name_label(t) is not None
        way_s, way_t = int(labelled_s and not labelled_t), int(labelled_t and not labelled_s)
        score = self._name_weights.similarity(names_s[way_s], names_t[way_t])
        return score if score >= floor else None

    def claimed_elsewhere(self, s: int, t: int) -> bool:
        """Either heading's exact text is carried by exactly one *other* heading on the far side.

        "Privacy Policy Changes" reads much like a new wrapper title "Privacy Policy", but when the
        test still has a heading "Privacy Policy Changes" somewhere, that one is the partner and a name
        match with anything else is a near miss, not evidence. Content is still read as usual.
        """
        if self._heading_index is None:
            self._heading_index = (_headings_by_text(self.src), _headings_by_text(self.tst))
        by_text_s, by_text_t = self._heading_index
        src, tst = self.src, self.tst
        hs = s if src.kind[s] == "heading" else src.heading_child(s)
        ht = t if tst.kind[t] == "heading" else tst.heading_child(t)
        if hs is None or ht is None:
            return False
        same_t = by_text_t.get(src.text[hs], ())
        if len(same_t) == 1 and same_t[0] != ht:
            return True
        same_s = by_text_s.get(tst.text[ht], ())
        return len(same_s) == 1 and same_s[0] != hs
