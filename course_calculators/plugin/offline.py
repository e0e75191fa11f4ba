"""The service worker that makes the built site work offline after a first visit.

Written after the build (``on_post_build``), from ``templates/sw.js`` plus two values: the list
of files to precache and a version hash over their contents. Left out: source maps, the
compressed sitemap and lunr's language packs (this site searches in English). The pages' runtime
manifests learn the copy's size here too (``offlineBytes``, what the reader's "Save for offline
reading" control shows): what a static host that compresses sends for those files.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
import threading
import zlib
from pathlib import Path
from typing import Iterable, Mapping

from .manifest import OFFLINE_BYTES

TEMPLATE = Path(__file__).with_name("templates") / "sw.js"
SW_NAME = "sw.js"
EXCLUDED_SUFFIXES = (".map", ".gz")
EXCLUDED_DIRS = ("assets/javascripts/lunr/",)

#: A script or style sheet tag whose URL carries ``?v=<hash>`` (security.add_integrity adds it).
_VERSIONED = re.compile(r"""(?:src|href)=["']([^"'?#]+)\?v=([0-9a-f]+)["']""")


def versioned_urls(site_dir: Path, runtime: Mapping[str, str] = {}) -> dict[str, str]:
    """Site paths that pages request with a ``?v=<hash>`` query, mapped to that exact URL, so the
    service worker's precache hits the HTTP cache the first visit filled instead of downloading
    those files again: the script and style sheet tags of every page, and ``runtime`` (the
    manifest's versioned URLs: the worker, Chart.js and the lock file, which scripts fetch)."""
    found: dict[str, str] = dict(runtime)
    for page in site_dir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        page_dir = page.parent.relative_to(site_dir).as_posix()
        for url, version in _VERSIONED.findall(text):
            path = posixpath.normpath(posixpath.join(page_dir, url))
            if not path.startswith("../"):
                found[path] = f"{path}?v={version}"
    return found


def precache_files(site_dir: Path, runtime: Mapping[str, str] = {}) -> dict[str, Path]:
    """Every file of the built site a reader may need offline, by the URL pages fetch it with,
    relative to the site (a folder's ``index.html`` is fetched as the folder:
    ``kettle/``; a script as ``assets/calc/runtime.js?v=<hash>``)."""
    versioned = versioned_urls(site_dir, runtime)
    files = {}
    for path in sorted(site_dir.rglob("*")):
        rel = path.relative_to(site_dir).as_posix()
        if not path.is_file() or rel == SW_NAME or rel.startswith(EXCLUDED_DIRS):
            continue
        if rel.endswith(EXCLUDED_SUFFIXES) and not rel.endswith(".bin.gz"):  # the snapshot stays
            continue
        if rel == "index.html" or rel.endswith("/index.html"):
            rel = rel[: -len("index.html")] or "./"
        files[versioned.get(rel, rel)] = path
    return files


#: What GitHub Pages compresses (and so, for the size shown, what is counted compressed).
COMPRESSED_SUFFIXES = (".html", ".js", ".mjs", ".css", ".json", ".wasm", ".svg", ".xml", ".txt")


#: Files larger than this are measured at zlib's fastest level: Pyodide's 9 MB wasm at level 6
#: was most of a small site's build (0.7 s of it, against 0.2 s). Level 1 errs high (Pyodide
#: 314.0.7's wasm: 3.99 MB against 3.55 MB), so the "about" size shown never understates the download.
FAST_MEASURE_BYTES = 512 * 1024


def compressed_size(data: bytes) -> int:
    """What a host that gzips sends for ``data`` (a text or wasm file), as the size shown counts it."""
    return len(zlib.compress(data, 1 if len(data) > FAST_MEASURE_BYTES else 6))


class SizesAhead:
    """:func:`compressed_size` of the large files the plugin copies as they are (Pyodide's wasm
    and its Emscripten module), measured on a thread of its own while MkDocs builds the pages:
    zlib lets go of the GIL while it compresses, so this runs on another core. A measure is used
    only for a site file whose bytes are the very bytes measured; any other file is measured then."""

    def __init__(self, paths: Iterable[Path]) -> None:
        self._paths = [p for p in dict.fromkeys(paths)
                       if p.suffix in COMPRESSED_SUFFIXES and p.is_file() and p.stat().st_size > FAST_MEASURE_BYTES]
        self._measured: list[tuple[bytes, int]] = []
        self._thread = threading.Thread(target=self._measure, name="calculators-sizes", daemon=True)
        self._thread.start()

    def _measure(self) -> None:
        for path in self._paths:
            try:
                data = path.read_bytes()
            except OSError:
                continue  # its copy in the site, if any, is measured when the size is wanted
            self._measured.append((data, compressed_size(data)))

    def size(self, data: bytes) -> int:
        self._thread.join()
        for measured, size in self._measured:
            if measured == data:
                return size
        return compressed_size(data)


def transfer_bytes(files: Mapping[str, Path], ahead: SizesAhead | None = None) -> int:
    """About what downloading ``files`` costs from a host that gzips text and wasm."""
    total = 0
    for path in files.values():
        data = path.read_bytes()
        if path.suffix in COMPRESSED_SUFFIXES:
            total += ahead.size(data) if ahead is not None else compressed_size(data)
        else:
            total += len(data)
    return total


def fill_offline_bytes(site_dir: Path, size: int) -> None:
    """Replace the size placeholder in every page's runtime manifest."""
    for page in site_dir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        if OFFLINE_BYTES in text:
            page.write_text(text.replace(OFFLINE_BYTES, str(size)), encoding="utf-8")


def write_service_worker(site_dir: Path, runtime: Mapping[str, str] = {}, ahead: SizesAhead | None = None) -> Path:
    """Write ``sw.js`` at the site's root; its version changes whenever any precached file does."""
    files = precache_files(site_dir, runtime)
    fill_offline_bytes(site_dir, transfer_bytes(files, ahead))
    h = hashlib.sha256()
    for rel, path in files.items():
        h.update(rel.encode() + b"\0" + path.read_bytes())
    text = (TEMPLATE.read_text()
            .replace("__VERSION__", h.hexdigest()[:16])
            .replace("__PRECACHE__", json.dumps(list(files), indent=0)))
    out = site_dir / SW_NAME
    out.write_text(text)
    return out
