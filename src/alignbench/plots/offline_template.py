"""Build the HTML template that lets `dvc plots show` render with no network.

DVC's default page loads vega, vega-lite and vega-embed from a CDN, so on an offline machine (or
behind a strict proxy) every chart is blank. DVC accepts a custom page (`plots.html_template` in
`.dvc/config`) that must contain `{plot_divs}`; leaving out `{scripts}` keeps DVC's CDN tags out. This
module inlines the three libraries from their published npm tarballs, each checked against a pinned
sha256, so the committed template is reproducible from named, verifiable inputs:

    npm pack vega@5.33.1 vega-lite@5.23.0 vega-embed@6.29.0
    python -m alignbench.plots.offline_template vega-5.33.1.tgz vega-lite-5.23.0.tgz vega-embed-6.29.0.tgz

The three libraries are BSD-3-Clause; each one's SPDX id (and licence text, where the tarball ships
one) is inlined as a comment beside its code.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

from alignbench.atomic import write_text
from alignbench.errors import AlignbenchError

TEMPLATE_PATH = Path(".dvc") / "offline_plots.html"


@dataclass(frozen=True)
class Library:
    name: str
    version: str
    tarball_sha256: str
    script: str  # path inside the tarball


LIBRARIES: tuple[Library, ...] = (
    Library(
        "vega",
        "5.33.1",
        "1b8504b6731c5311be3269c4d84ca996a5cc293bc772283293ede20c490e16c3",
        "package/build/vega.min.js",
    ),
    Library(
        "vega-lite",
        "5.23.0",
        "e4cbfdd8f6f1abe381c59cd558fd6a559c12b1496bfdf2e0c3295263a40fe4da",
        "package/build/vega-lite.min.js",
    ),
    Library(
        "vega-embed",
        "6.29.0",
        "ecf1ee709c2bac9e0a4ead6908114b05b62c71493e10a8a4308109bb070f8eb1",
        "package/build/vega-embed.min.js",
    ),
)

# A source-map comment makes developer tools fetch a .map file we do not ship.
_SOURCE_MAP = re.compile(r"//# sourceMappingURL=\S+\s*$")

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>alignbench plots (offline)</title>
<!-- Built by `python -m alignbench.plots.offline_template`; {libraries}. No network request. -->
{scripts_html}
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5rem; }}
table {{ border-spacing: 15px; }}
</style>
</head>
<body>
{{plot_divs}}
</body>
</html>
"""


def _member_text(archive: tarfile.TarFile, name: str, source: Path) -> str:
    try:
        member = archive.extractfile(name)
    except KeyError:
        member = None
    if member is None:
        raise AlignbenchError(f"{source}: no {name} inside; is this the right npm tarball?")
    return member.read().decode("utf-8")


def library_script(library: Library, tarball: Path) -> str:
    """The library's minified build plus its licence, as one inline <script> element."""
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    if digest != library.tarball_sha256:
        raise AlignbenchError(
            f"{tarball}: sha256 {digest} is not the pinned {library.tarball_sha256} for "
            f"{library.name}@{library.version}; run `npm pack {library.name}@{library.version}`"
        )
    with tarfile.open(tarball, "r:gz") as archive:
        code = _member_text(archive, library.script, tarball)
        spdx = json.loads(_member_text(archive, "package/package.json", tarball)).get("license", "")
        names = archive.getnames()
        # vega's own tarball ships no LICENSE file; its package.json names the licence.
        licence = _member_text(archive, "package/LICENSE", tarball) if "package/LICENSE" in names else ""
    licence = f"License: {spdx}\n{licence}"
    if "</script" in code.lower() or "*/" in licence:
        raise AlignbenchError(f"{tarball}: cannot be inlined safely (a closing tag or comment inside)")
    code = _SOURCE_MAP.sub("", code.rstrip()) + "\n"
    return (
        f"<script>\n/* {library.name}@{library.version} (npm tarball sha256 {library.tarball_sha256})\n"
        f"{licence.rstrip()}\n*/\n{code}</script>"
    )


def build_template(tarballs: list[Path]) -> str:
    """The whole page, with the libraries in the order vega-embed needs them."""
    if len(tarballs) != len(LIBRARIES):
        raise AlignbenchError(f"expected {len(LIBRARIES)} npm tarballs (vega, vega-lite, vega-embed)")
    scripts = [library_script(library, Path(path)) for library, path in zip(LIBRARIES, tarballs, strict=True)]
    names = ", ".join(f"{lib.name}@{lib.version}" for lib in LIBRARIES)
    return _PAGE.format(libraries=names, scripts_html="\n".join(scripts))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tarballs", nargs=3, type=Path, help="vega, vega-lite, vega-embed .tgz, in order")
    parser.add_argument("--out", type=Path, default=TEMPLATE_PATH)
    args = parser.parse_args(argv)
    try:
        write_text(args.out, build_template(args.tarballs))
    except AlignbenchError as exc:
        print(f"alignbench: error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
