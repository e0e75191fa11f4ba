"""The runtime manifest (``plugin/manifest.py``): one vocabulary from the build to the worker.

The meta tag's JSON keys are the dataclass's field names; the browser's reader
(``browser/shared/runtime-manifest.js``) renames none of them, and the worker's ``init`` message
(``browser/shared/protocol.js``) carries the fields it needs under the same names. This reads the
JavaScript sources, so it runs without Node.
"""

from __future__ import annotations

import dataclasses
import html
import json
import re
from pathlib import Path

from course_calculators.plugin.manifest import OFFLINE_BYTES, RuntimeManifest

BROWSER = Path(__file__).resolve().parents[4] / "course_calculators" / "browser"

MANIFEST = RuntimeManifest(
    script="assets/calc/runtime.js", worker="assets/calc/worker.js?v=aa", pyodide="assets/pyodide/314.0.7/",
    lock="assets/pyodide/pyodide-lock.json", lock_sha256="ab" * 32, version="abab", boot_timeout_ms=60000,
    run_timeout_ms=10000, charts="assets/vendor/chart.umd.min.js?v=cc", snapshot="assets/pyodide/snapshot-1.bin.gz",
    sw="sw.js",
)
FIELDS = {f.name for f in dataclasses.fields(RuntimeManifest)}


def init_fields() -> set[str]:
    text = (BROWSER / "shared" / "protocol.js").read_text()
    body = re.search(r"\[MSG\.INIT\]: \{(.*?)\}", text, re.S).group(1)
    return set(re.findall(r"(\w+): \"", body))


def test_the_meta_tag_holds_every_field_under_its_own_name():
    page = MANIFEST.for_page("inference/kv-cache/")
    assert set(page) == (FIELDS - {"script"}) | {"root", "offline_bytes"}
    assert page["worker"] == "../../assets/calc/worker.js?v=aa"
    assert page["lock"] == "../../assets/pyodide/pyodide-lock.json?v=abab"  # the version is the build's to add
    assert page["run_timeout_ms"] == 10000 and page["offline_bytes"] == OFFLINE_BYTES


def test_init_carries_manifest_fields_under_the_same_names():
    fields = init_fields()
    assert {"pyodide", "lock", "snapshot"} <= fields
    assert fields - {"hint"} <= FIELDS, fields - FIELDS


def test_the_browser_makes_absolute_only_the_manifest_paths():
    text = (BROWSER / "shared" / "runtime-manifest.js").read_text()
    urls = set(json.loads("[" + re.search(r"const URLS = \[(.*?)\];", text).group(1) + "]"))
    assert urls == set(RuntimeManifest.PATHS) | {"root"}
    limits = set(json.loads("[" + re.search(r"const LIMITS = \[(.*?)\];", text).group(1) + "]"))
    assert limits == {"boot_timeout_ms", "run_timeout_ms"} <= FIELDS


def test_the_head_tags_load_the_page_script_deferred_before_anything_else():
    tags = MANIFEST.head_tags("inference/kv-cache/", paint_after="calc-kv-cache")
    meta, script, expect = tags.splitlines()
    assert json.loads(html.unescape(re.search(r'content="([^"]*)"', meta).group(1)))["root"] == "../../"
    assert script == '<script src="../../assets/calc/runtime.js" defer></script>'
    assert expect == '<link rel="expect" href="#calc-kv-cache" blocking="render">'
