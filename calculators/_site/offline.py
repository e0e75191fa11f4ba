"""The service worker that makes the built site work offline after a first visit.

Written after the build (``on_post_build``), from ``templates/sw.js`` plus two values: the list
of files to precache and a version hash over their contents. Left out: source maps, the
compressed sitemap and lunr's language packs (this site searches in English).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

TEMPLATE = Path(__file__).with_name("templates") / "sw.js"
SW_NAME = "sw.js"
EXCLUDED_SUFFIXES = (".map", ".gz")
EXCLUDED_DIRS = ("assets/javascripts/lunr/",)


def precache_files(site_dir: Path) -> dict[str, Path]:
    """Every file of the built site a reader may need offline, by its URL relative to the site
    (a folder's ``index.html`` is fetched as the folder: ``inference/kv-cache/``)."""
    files = {}
    for path in sorted(site_dir.rglob("*")):
        rel = path.relative_to(site_dir).as_posix()
        if not path.is_file() or rel == SW_NAME or rel.startswith(EXCLUDED_DIRS):
            continue
        if rel.endswith(EXCLUDED_SUFFIXES) and not rel.endswith(".bin.gz"):  # the snapshot stays
            continue
        if rel == "index.html" or rel.endswith("/index.html"):
            rel = rel[: -len("index.html")] or "./"
        files[rel] = path
    return files


def write_service_worker(site_dir: Path) -> Path:
    """Write ``sw.js`` at the site's root; its version changes whenever any precached file does."""
    files = precache_files(site_dir)
    h = hashlib.sha256()
    for rel, path in files.items():
        h.update(rel.encode() + b"\0" + path.read_bytes())
    text = (TEMPLATE.read_text()
            .replace("__VERSION__", h.hexdigest()[:16])
            .replace("__PRECACHE__", json.dumps(list(files), indent=0)))
    out = site_dir / SW_NAME
    out.write_text(text)
    return out
