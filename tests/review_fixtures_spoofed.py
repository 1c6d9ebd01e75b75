"""The review fixture pair with Trojan-Source text in its test document, its draft re-bound to it.

``within 45 days`` becomes ``within \\u202e54\\u202c days`` (a right-to-left override that shows "45")
in 1.1, and ``one year`` becomes ``one ye\\u200bar`` (a zero-width space) in 2.1. The draft's test
sha256 and the two changed rows' test digests are recomputed from the documents, so the page and the
span export accept it.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

from alignbench import read

FIXTURES = Path(__file__).parent / "review_fixtures"
PAIR = "tiny-terms"
LABELS = Path("corpus/labels/real") / PAIR / "labels.yaml"
TEST_DOC = Path("corpus/real") / PAIR / "test.md"


def rebind(root: Path) -> None:
    """Point the draft at the test document as it now is: its sha256 and every test-side digest."""
    labels, document = root / LABELS, root / TEST_DOC
    tree = read(str(document))
    text = labels.read_text(encoding="utf-8")
    text = re.sub(
        r"(test: \{file: [^,]+, format: \w+, profile: \w+, sha256: )[0-9a-f]{64}",
        lambda m: m.group(1) + hashlib.sha256(document.read_bytes()).hexdigest(),
        text,
    )
    text = re.sub(
        r"(test: '([^']+)'.*?(?<!source_)digest: )[0-9a-f]{16}",
        lambda m: m.group(1) + tree.find(m.group(2)).digest,
        text,
    )
    labels.write_text(text, encoding="utf-8")


def fixture_repo(tmp_path: Path) -> Path:
    """A fresh copy of the review fixture corpus at ``tmp_path/repo``: each test edits its own."""
    root = tmp_path / "repo"
    shutil.copytree(FIXTURES / "corpus", root / "corpus")
    return root


def spoofed_repo(tmp_path: Path, replace: dict[str, str] | None = None) -> Path:
    root = fixture_repo(tmp_path)
    document = root / TEST_DOC
    text = document.read_text(encoding="utf-8")
    edits = replace or {
        "within 45 days": "within \u202e54\u202c days",
        "lasts one year": "lasts one ye\u200bar",
    }
    for old, new in edits.items():
        assert old in text
        text = text.replace(old, new)
    document.write_text(text, encoding="utf-8")
    rebind(root)
    return root
