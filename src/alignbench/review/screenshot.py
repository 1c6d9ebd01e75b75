"""``python -m alignbench.review.screenshot PAIR OUT.png``: the README's picture of the review page.

Made by the project's own page in headless Chromium (selenium + Debian's chromium-driver), after the
cold move step, so the picture shows rows with their evidence. It also prints how long the page took
to load (navigation start to the load event, and to the page's own ready mark): the review page of
the largest pair must load in under 2 s, and this is where that is measured, outside any test.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from alignbench.errors import AlignbenchError
from alignbench.html.browser import headless_chromium


def capture(
    root: Path, pair: str, out: Path, width: int = 1400, height: int = 900, reveal: bool = True
) -> str:
    """Write the page, open it, optionally finish the move step, save ``out``; return the timing line."""
    from alignbench.atomic import write_bytes
    from alignbench.review.page import write_page

    with tempfile.TemporaryDirectory(prefix="alignbench-review-") as tmp:
        page = Path(tmp) / "review.html"
        write_page(root, pair, page)
        driver = headless_chromium(width, height)
        try:
            driver.get(page.as_uri())
            timing = driver.execute_script(
                "const n = performance.getEntriesByType('navigation')[0];"
                "return [n.domContentLoadedEventEnd, n.loadEventEnd];"
            )
            if reveal:
                driver.find_element("id", "finish-moves").click()
                driver.execute_script(
                    "const c = document.querySelector('.card .badge.engine-move, .card .diff');"
                    "if (c) c.closest('.card').scrollIntoView({block: 'start'});"
                )
            png = driver.get_screenshot_as_png()
        finally:
            driver.quit()
    write_bytes(out, png)
    return (
        f"wrote {out} ({len(png)} bytes); {pair} page: DOM ready {timing[0]:.0f} ms, "
        f"load event {timing[1]:.0f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m alignbench.review.screenshot", description=__doc__)
    parser.add_argument("pair", help="real pair id")
    parser.add_argument("out", help="PNG to write")
    parser.add_argument("--root", default=".", help="repository root (default: current directory)")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument("--cold", action="store_true", help="picture the cold move step instead")
    args = parser.parse_args(argv)
    try:
        print(capture(Path(args.root), args.pair, Path(args.out), args.width, args.height, not args.cold))
    except AlignbenchError as exc:
        print(f"alignbench: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
