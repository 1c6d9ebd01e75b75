"""``python -m alignbench.html.screenshot PAIR OUT.png``: a picture of a pair's redline, for the README.

PAIR is a directory holding ``source.*`` and ``test.*`` or the name of a pair under ``corpus/real``
or ``corpus/synthetic``. The redline is rendered exactly as ``alignbench compare --html`` renders
it, opened in the same headless Chromium the browser tests use, and the visible window is saved
(``--at KIND`` folds the change list and scrolls, if it must, until the first change of that kind
is in view). The page names the documents by pair and file name, so no local path shows in the picture.

    python -m alignbench.html.screenshot csa-terms-v1 docs/img/redline.png --at move
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from alignbench.alignment.model import CHANGE_KINDS
from alignbench.atomic import write_bytes
from alignbench.errors import AlignbenchError
from alignbench.html.browser import WINDOW, headless_chromium

TIERS: tuple[str, ...] = ("corpus/real", "corpus/synthetic")


def pair_documents(pair: str) -> tuple[Path, Path]:
    """The (source, test) documents of a pair directory or pair name."""
    candidates = [Path(pair)] + [Path(tier) / pair for tier in TIERS]
    directory = next((c for c in candidates if c.is_dir()), None)
    if directory is None:
        raise AlignbenchError(
            f"{pair}: no such pair directory (looked in ., {', '.join(TIERS)}); "
            "give a directory with source.* and test.*"
        )
    found = []
    for stem in ("source", "test"):
        matches = sorted(p for p in directory.glob(f"{stem}.*") if p.suffix in (".md", ".markdown", ".txt"))
        if len(matches) != 1:
            raise AlignbenchError(f"{directory}: expected one {stem}.md or {stem}.txt, found {len(matches)}")
        found.append(matches[0])
    return found[0], found[1]


def render_pair(pair: str) -> str:
    from alignbench.alignment import AlignmentConfig, align
    from alignbench.html import render_redline
    from alignbench.readers import read

    source, test = pair_documents(pair)
    old, new = read(source), read(test)
    result = align(old, new, AlignmentConfig())
    name = source.parent.name
    return render_redline(result, old, new, old_name=f"{name}/{source.name}", new_name=f"{name}/{test.name}")


_SCROLL_TO = """
const kind = arguments[0], view = arguments[1];
document.getElementById(view === 'side' ? 'view-side' : 'view-inline').click();
if (kind) {
  document.getElementById('change-list').open = false;
  const line = document.querySelector('#document .line[data-kind="' + kind + '"]');
  if (!line) { return false; }
  line.scrollIntoView({block: 'nearest'});
}
return true;
"""


def screenshot(pair: str, out: str, *, at: str | None = None, view: str = "inline") -> int:
    """Write the PNG; returns its size in bytes."""
    page = render_pair(pair)
    driver = headless_chromium(*WINDOW)
    try:
        with tempfile.TemporaryDirectory(prefix="alignbench-shot-") as tmp:
            html = Path(tmp) / "redline.html"
            html.write_text(page, encoding="utf-8")
            driver.get(html.as_uri())
            if not driver.execute_script(_SCROLL_TO, at, view):
                raise AlignbenchError(f"{pair}: the redline has no {at} change to show; pick another --at")
            png = driver.get_screenshot_as_png()
    finally:
        driver.quit()
    write_bytes(out, png)
    return len(png)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m alignbench.html.screenshot", description=__doc__)
    parser.add_argument("pair", help="a pair directory, or a pair name under corpus/real or corpus/synthetic")
    parser.add_argument("out", help="the PNG to write")
    parser.add_argument("--at", choices=CHANGE_KINDS, metavar="KIND", help="scroll to the first KIND change")
    parser.add_argument("--view", choices=("inline", "side"), default="inline", help="which view to show")
    args = parser.parse_args(argv)
    try:
        size = screenshot(args.pair, args.out, at=args.at, view=args.view)
    except AlignbenchError as exc:
        print(f"alignbench: error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out} ({size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
