"""The ``prepare`` stage: turn verified raw upstream files into the real tier's document pairs.

For every pair in ``corpus/pairs.yaml`` it writes ``corpus/real/<pair>/`` with ``source.<ext>``,
``test.<ext>``, ``manifest.json`` and ``NOTICE.md``. Only named normalisations touch the text and
the manifest lists them, so the prepared bytes - which labels anchor to - are reproducible.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alignbench import manifest
from alignbench.atomic import dump_json, prune, write_many
from alignbench.blocks import BlockTree, normalise
from alignbench.corpus.bill_xml import bill_xml_to_text
from alignbench.corpus.normalise import MARKDOWN_PIPELINE, TEXT_PIPELINE, run_pipeline
from alignbench.corpus.notice import render_notice
from alignbench.corpus.pairs import PairSpec, load_pairs
from alignbench.corpus.sources import RAW_DIR, Source, load_sources, raw_file
from alignbench.errors import AlignbenchError
from alignbench.fanout import map_pairs

REAL_DIR = "corpus/real"
PREPARED_BY = "stages/prepare.py"
# Which raw media a pair format accepts.
_MEDIA_FOR_FORMAT: dict[str, tuple[str, ...]] = {
    "markdown": ("markdown",),
    "text": ("text", "uslm-xml", "bill-dtd-xml"),
}
# Canonical order of every normalisation name, so a pair's list is ordered the same way always.
NORMALISATION_ORDER: tuple[str, ...] = (
    "bill_xml_to_text",
    "normalise_line_endings",
    "front_matter_title_to_heading",
    "promote_span_ids_to_labels",
    "strip_inline_html",
)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_raw(root: Path, source: Source) -> bytes:
    path = raw_file(root, source)
    if not path.is_file():
        raise AlignbenchError(
            f"source {source.id}: {RAW_DIR}/{source.path} is missing; run `python stages/fetch.py` first"
        )
    data = path.read_bytes()
    if _sha256(data) != source.sha256:
        raise AlignbenchError(
            f"source {source.id}: {RAW_DIR}/{source.path} does not match its sha256 in corpus/sources.yaml "
            f"(expected {source.sha256}, got {_sha256(data)}); run `python stages/fetch.py` to see why"
        )
    return data


def prepare_document(root: Path, source: Source) -> tuple[str, dict[str, Any]]:
    """Prepared text of one source and what was done to it."""
    data = _read_raw(root, source)
    details: dict[str, Any] = {}
    applied: list[str] = []
    if source.media in ("uslm-xml", "bill-dtd-xml"):
        text, skipped = bill_xml_to_text(data, name=f"{RAW_DIR}/{source.path}")
        applied.append("bill_xml_to_text")
        details["skipped_xml_elements"] = skipped
        pipeline = TEXT_PIPELINE
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise AlignbenchError(
                f"source {source.id}: {RAW_DIR}/{source.path} is not UTF-8 (byte {exc.start})"
            ) from None
        pipeline = MARKDOWN_PIPELINE if source.media == "markdown" else TEXT_PIPELINE
    try:
        text, steps = run_pipeline(text, pipeline)
    except AlignbenchError as exc:
        raise AlignbenchError(f"source {source.id}: {RAW_DIR}/{source.path}: {exc}") from None
    applied.extend(steps)
    if not text.endswith("\n"):
        text += "\n"
    details["normalisations"] = applied
    return text, details


def _read_prepared(root: Path, path: Path, format: str, profile: str) -> BlockTree:
    """The prepared file as the readers see it, through the stages' shared cache: label_check and every
    later stage read these very documents again."""
    from alignbench.stagecache import read_tree

    try:
        return read_tree(root, path, format, profile)
    except ModuleNotFoundError as exc:
        raise AlignbenchError(
            f"cannot count blocks: the readers are not available ({exc.name}); install alignbench fully"
        ) from None


def count_blocks(root: Path, path: Path, *, format: str, profile: str) -> dict[str, int]:
    """Blocks per kind as the readers see the prepared file (sorted by kind)."""
    tree = _read_prepared(root, path, format, profile)
    counts = Counter(block.kind for block in tree.blocks())
    return {kind: counts[kind] for kind in sorted(counts)}


def block_signature(
    root: Path, path: Path, *, format: str, profile: str
) -> list[tuple[str, str | None, str]]:
    """What an aligner compares: (kind, label, normalised text) of every block, in order."""
    tree = _read_prepared(root, path, format, profile)
    return [(b.kind, b.label, b.normalised_text) for b in tree.blocks()]


def _origin(source: Source, test: Source) -> str:
    def rev(s: Source) -> str:
        return s.revision.replace("-", " ", 1) if s.revision.startswith(("tag-", "commit-")) else s.revision

    repos = [r for r in dict.fromkeys([source.upstream_repo or source.url, test.upstream_repo or test.url])]
    return f"{' and '.join(repos)} ({rev(source)} -> {rev(test)})"


def _joined(a: str, b: str) -> str:
    return a if a == b else f"{a} (source); {b} (test)"


def _document_record(
    source: Source, prepared: bytes, details: dict[str, Any], blocks: dict[str, int]
) -> dict:
    record: dict[str, Any] = {
        "id": source.id,
        "url": source.url,
        "revision": source.revision,
        "commit": source.commit,
        "licence": source.licence,
        "attribution": source.attribution,
        "raw_sha256": source.sha256,
        "sha256": _sha256(prepared),
        "bytes": len(prepared),
        "normalisations": details["normalisations"],
    }
    if "skipped_xml_elements" in details:
        record["skipped_xml_elements"] = details["skipped_xml_elements"]
    record["block_counts"] = blocks
    return record


def _check_pair(spec: PairSpec, sources: dict[str, Source]) -> tuple[Source, Source]:
    picked: list[Source] = []
    for role in ("source", "test"):
        sid = getattr(spec, role)
        if sid not in sources:
            raise AlignbenchError(
                f"corpus/pairs.yaml pair {spec.pair}: {role} id {sid!r} is not in corpus/sources.yaml; "
                "add it there"
            )
        source = sources[sid]
        if source.media not in _MEDIA_FOR_FORMAT[spec.format]:
            raise AlignbenchError(
                f"corpus/pairs.yaml pair {spec.pair}: {role} {sid} is {source.media}, "
                f"which cannot be prepared as {spec.format}"
            )
        picked.append(source)
    if picked[0].family != picked[1].family:
        raise AlignbenchError(
            f"corpus/pairs.yaml pair {spec.pair}: source is family {picked[0].family} but test is "
            f"{picked[1].family}; a pair compares two versions of one family's document"
        )
    return picked[0], picked[1]


@dataclass(frozen=True)
class _PreparedPair:
    spec: PairSpec
    source: Source
    test: Source
    files: dict[str, bytes]  # the two prepared documents, by file name
    details: dict[str, dict[str, Any]]  # what preparing each did, by role


def _prepare_texts(root: Path, spec: PairSpec, sources: dict[str, Source]) -> _PreparedPair:
    """One pair's two prepared documents and what preparing each did."""
    source, test = _check_pair(spec, sources)
    texts: dict[str, bytes] = {}
    details: dict[str, dict[str, Any]] = {}
    for role, src in (("source", source), ("test", test)):
        text, info = prepare_document(root, src)
        texts[f"{role}.{spec.extension}"] = text.encode("utf-8")
        details[role] = info
    return _PreparedPair(spec, source, test, texts, details)


def _pair_manifest(root: Path, prepared: _PreparedPair, pair_dir: Path) -> dict[str, Any]:
    """The manifest of one pair whose documents are written in ``pair_dir`` already."""
    spec, source, test, files, details = (
        prepared.spec,
        prepared.source,
        prepared.test,
        prepared.files,
        prepared.details,
    )
    blocks = {
        role: count_blocks(root, pair_dir / name, format=spec.format, profile=spec.profile)
        for role, name in zip(("source", "test"), files, strict=True)
    }
    if spec.control:
        _verify_control(root, spec, pair_dir)
    texts = dict(zip(("source", "test"), files.values(), strict=True))
    used = set(details["source"]["normalisations"]) | set(details["test"]["normalisations"])
    return {
        "pair": spec.pair,
        "family": source.family,
        "origin": _origin(source, test),
        "format": spec.format,
        "profile": spec.profile,
        "extension": spec.extension,
        "control": spec.control,
        "note": spec.note,
        "restructured": spec.restructured,
        "prepared_by": PREPARED_BY,
        "licence": _joined(source.licence, test.licence),
        "attribution": _joined(source.attribution, test.attribution),
        "normalisations": [name for name in NORMALISATION_ORDER if name in used],
        "source_sha256": _sha256(texts["source"]),
        "test_sha256": _sha256(texts["test"]),
        "source": _document_record(source, texts["source"], details["source"], blocks["source"]),
        "test": _document_record(test, texts["test"], details["test"], blocks["test"]),
    }


def _verify_control(root: Path, spec: PairSpec, pair_dir: Path) -> None:
    """A negative control must show no textual change at all once prepared."""
    paths = [pair_dir / f"{role}.{spec.extension}" for role in ("source", "test")]
    texts = [normalise(p.read_text(encoding="utf-8")) for p in paths]
    same_blocks = block_signature(
        root, paths[0], format=spec.format, profile=spec.profile
    ) == block_signature(root, paths[1], format=spec.format, profile=spec.profile)
    if texts[0] != texts[1] or not same_blocks:
        raise AlignbenchError(
            f"corpus/pairs.yaml pair {spec.pair}: marked control: true but its prepared documents differ "
            f"in text{'' if same_blocks else ' and blocks'}; pick a markup-only pair or drop 'control'"
        )


@dataclass(frozen=True)
class _ManifestJob:
    """One pair's manifest, its documents written under ``out_dir`` already."""

    root: Path
    out_dir: Path

    def __call__(self, prepared: _PreparedPair) -> dict[str, Any]:
        return _pair_manifest(self.root, prepared, self.out_dir / prepared.spec.pair)


def prepare(root: str | Path) -> list[dict[str, Any]]:
    """Rebuild ``corpus/real`` from ``corpus/pairs.yaml``; remove pair directories no longer listed.

    Written in two batches, each with one flush to disk (``atomic.write_many``): every pair's
    documents, then - once each is read back and counted - every manifest and notice."""
    base = Path(root)
    pairs = load_pairs(base)
    sources = {s.id: s for s in load_sources(base)}
    out_dir = base / REAL_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    prepared = [_prepare_texts(base, spec, sources) for spec in pairs]
    manifest.invalidate(out_dir)  # a run killed from here on leaves no MANIFEST.json (alignbench.manifest)
    documents = [(out_dir / p.spec.pair / name, data) for p in prepared for name, data in p.files.items()]
    write_many(documents)
    # Reading every prepared document back (the block counts) is most of the stage: on the stage's
    # scheduler (alignbench.fanout), in pair order.
    manifests = map_pairs(
        _ManifestJob(base, out_dir), prepared, [f"real/{p.spec.pair}" for p in prepared], "prepare"
    )
    records: list[tuple[Path, bytes]] = []
    for pair, record in zip(prepared, manifests, strict=True):
        pair_dir = out_dir / pair.spec.pair
        records.append((pair_dir / "manifest.json", dump_json(record).encode("utf-8")))
        records.append((pair_dir / "NOTICE.md", render_notice(record).encode("utf-8")))
    write_many(records)
    # corpus/real is kept between runs (persist): whatever the listed pairs did not make goes
    prune(out_dir, [path for path, _ in documents + records])
    manifest.write(out_dir, "prepare", None, None, [path for path, _ in documents + records])
    return manifests
