"""linematch: every text-bearing block is one line; difflib's SequenceMatcher pairs equal lines, and
lines of a replaced run pair up in order. No moves, no renumbers: the simplest honest engine.

``LINEMATCH_FAULTS="crash=<text>;hang=<text>;garbage=<text>;hog=<text>"`` makes it crash, hang, answer
garbage or allocate 8 GiB on a pair whose source document contains that text: the hook the isolation
test uses to prove that one bad pair costs only that pair.
"""

from __future__ import annotations

import difflib
import os
import time

from alignbench.engines import Capabilities


def _lines(tree):
    """(address, text) of every block that carries text, in document order."""
    return [(b.address, b.text) for b in tree.blocks() if b.text]


def _fault(source_lines):
    for rule in filter(None, os.environ.get("LINEMATCH_FAULTS", "").split(";")):
        kind, _, text = rule.partition("=")
        if not text or not any(text in line for _, line in source_lines):
            continue
        if kind == "crash":
            raise RuntimeError("linematch: deliberate crash")
        if kind == "hang":
            time.sleep(3600)
        if kind == "hog":
            return {"pairs": [bytearray(8 << 30)]}  # 8 GiB: past any sane memory limit
        return {"pairs": "not a list", "inserted": [], "deleted": [], "changes": []}  # fails the schema
    return None


class LineMatch:
    name = "linematch"
    version = "0.1.0"
    capabilities = Capabilities(moves=False, renumbers=False, rows=True)

    def align(self, source, test, params):
        old, new = _lines(source), _lines(test)
        garbage = _fault(old)
        if garbage is not None:
            return garbage
        matcher = difflib.SequenceMatcher(None, [t for _, t in old], [t for _, t in new], autojunk=False)
        pairs = [{"source": "/", "test": "/"}]
        changes = []
        paired_old, paired_new = set(), set()
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op not in ("equal", "replace"):
                continue
            for i, j in zip(range(i1, i2), range(j1, j2), strict=False):  # a replaced run pairs in order
                pairs.append({"source": old[i][0], "test": new[j][0]})
                paired_old.add(i)
                paired_new.add(j)
                if op == "replace":
                    changes.append({"kind": "modify", "source": old[i][0], "test": new[j][0]})
        deleted = [a for i, (a, _) in enumerate(old) if i not in paired_old]
        inserted = [a for j, (a, _) in enumerate(new) if j not in paired_new]
        changes += [{"kind": "delete", "source": a, "test": None} for a in deleted]
        changes += [{"kind": "insert", "source": None, "test": a} for a in inserted]
        return {"pairs": pairs, "inserted": inserted, "deleted": deleted, "changes": changes}
