"""The service worker's precache list and version, on a fake built site."""

from __future__ import annotations

import json
import re

from course_calculators.plugin import offline


def make_site(root):
    for rel, body in {
        "index.html": "home", "inference/kv-cache/index.html": "kv", "sitemap.xml": "<urlset/>",
        "sitemap.xml.gz": "gz", "assets/javascripts/bundle.abcdef12.min.js": "js",
        "assets/javascripts/bundle.abcdef12.min.js.map": "map", "assets/javascripts/lunr/min/lunr.de.min.js": "de",
        "assets/pyodide/snapshot-0123456789abcdef.bin.gz": "snap",
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(body)


def written(root, runtime=None):
    text = offline.write_service_worker(root, runtime or {}).read_text()
    version = re.search(r'const VERSION = "([0-9a-f]+)"', text).group(1)
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", text, re.S).group(1))
    return version, precache


def test_pages_as_folders_assets_and_snapshot_but_no_maps_or_lunr_languages(tmp_path):
    make_site(tmp_path)
    _, precache = written(tmp_path)
    assert set(precache) == {
        "./", "inference/kv-cache/", "sitemap.xml", "assets/javascripts/bundle.abcdef12.min.js",
        "assets/pyodide/snapshot-0123456789abcdef.bin.gz",
    }


def test_the_version_changes_with_any_precached_file_and_only_then(tmp_path):
    make_site(tmp_path)
    v1, _ = written(tmp_path)
    assert written(tmp_path)[0] == v1  # sw.js itself is not part of its version
    (tmp_path / "assets/javascripts/bundle.abcdef12.min.js.map").write_text("other map")
    assert written(tmp_path)[0] == v1
    (tmp_path / "inference/kv-cache/index.html").write_text("kv, v2")
    assert written(tmp_path)[0] != v1


def test_files_pages_request_with_a_version_are_precached_under_that_exact_url(tmp_path):
    """The precache then hits the HTTP cache the first visit filled instead of downloading again."""
    make_site(tmp_path)
    (tmp_path / "assets/calc").mkdir(parents=True)
    (tmp_path / "assets/calc/runtime.js").write_text("js")
    (tmp_path / "assets/calc/worker.js").write_text("w")
    (tmp_path / "assets/pyodide/pyodide-lock.json").write_text("{}")
    from course_calculators.plugin.manifest import RuntimeManifest

    manifest = RuntimeManifest(script="assets/calc/runtime.js", worker="assets/calc/worker.js?v=aa11",
                               pyodide="assets/pyodide/1/", lock="assets/pyodide/pyodide-lock.json",
                               lock_sha256="0" * 64, version="bb22", boot_timeout_ms=60000, run_timeout_ms=10000)
    (tmp_path / "inference/kv-cache/index.html").write_text('<script src="../../assets/calc/runtime.js?v=cc33"></script>')
    _, precache = written(tmp_path, manifest.versioned_urls())
    assert {"assets/calc/runtime.js?v=cc33", "assets/calc/worker.js?v=aa11",
            "assets/pyodide/pyodide-lock.json?v=bb22"} <= set(precache)
    assert "assets/calc/runtime.js" not in precache


def test_sizes_measured_ahead_are_the_sizes_measured_then(tmp_path):
    """A large file measured on the side thread counts as it would have; a site file whose bytes
    differ from what was measured is measured itself."""
    import random

    rng = random.Random(7)
    big = tmp_path / "pyodide.asm.wasm"
    big.write_bytes(bytes(rng.choice(b"abcdefgh") for _ in range(offline.FAST_MEASURE_BYTES + 1000)))
    small = tmp_path / "small.js"
    small.write_text("x" * 1000)
    ahead = offline.SizesAhead([big, small, tmp_path / "missing.wasm"])
    site = tmp_path / "site"
    site.mkdir()
    same, other = site / "pyodide.asm.wasm", site / "other.wasm"
    same.write_bytes(big.read_bytes())
    other.write_bytes(big.read_bytes()[:-1] + b"z")
    files = {"same": same, "other": other, "small": small}
    assert offline.transfer_bytes(files, ahead) == offline.transfer_bytes(files)
    assert ahead.size(other.read_bytes()) == offline.compressed_size(other.read_bytes())
