"""The plugin in real `mkdocs build --strict` runs (errors name the page and the id), and the
artifacts a build makes: the wheel made once, the trimmed lock, the snapshot (Node.js)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]


def build(tmp_path: Path, page: str) -> subprocess.CompletedProcess:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(page)
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\n"
        "theme: {name: material, font: false}\n"
        "plugins:\n  - calculators:\n      packages: [llm_inference]\n      node_modules: " + str(ROOT / "node_modules") + "\n"
    )
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def test_plugin_alone_makes_a_working_page(tmp_path):
    proc = build(tmp_path, "# T\n\n```calculator kv-cache\ncontext: 131072\n```\n")
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "site/index.html").read_text()
    assert 'data-calc="kv-cache"' in html and ">16 GiB<" in html
    assert '<meta name="calculators-runtime"' in html
    # The first paint waits for the first widget (its numbers are in it), in Chromium 124+.
    assert '<link rel="expect" href="#calc-kv-cache" blocking="render">' in html
    assert (tmp_path / "site/assets/calc/worker.js").exists()
    assert len(list((tmp_path / "site/assets/pyodide").glob("*/pyodide.asm.wasm"))) == 1  # <version>/
    wheels = list((tmp_path / "site/assets/pyodide").glob("*/course_calculators-*.whl"))
    assert len(wheels) == 1
    from course_calculators.plugin.wheel import sources_digest

    # a new URL whenever the sources change
    assert wheels[0].parent.name == sources_digest(packages=[ROOT / "calculators/llm_inference"])


@pytest.mark.parametrize(
    "body, words",
    [
        ("```calculator nope\n```\n", ["index.md", "unknown calculator id 'nope'"]),
        ("```calculator kv-cache\ncontext: -5\n```\n", ["index.md", "kv-cache", "below the minimum"]),
    ],
)
def test_bad_fence_fails_the_strict_build(tmp_path, body, words):
    proc = build(tmp_path, "# T\n\n" + body)
    assert proc.returncode != 0
    for word in words:
        assert word in proc.stderr, proc.stderr


def test_wheel_is_built_once_while_the_sources_are_unchanged(tmp_path):
    from course_calculators.plugin.artifacts import ArtifactCache

    cache = ArtifactCache(tmp_path)
    chapter = [ROOT / "calculators/llm_inference"]
    first = cache.get(ROOT / "node_modules/pyodide", chapter, with_snapshot=True)
    stamp = first.wheel.stat().st_mtime_ns
    assert cache.get(ROOT / "node_modules/pyodide", chapter, with_snapshot=True) == first
    assert first.wheel.stat().st_mtime_ns == stamp
    snap = first.snapshot
    assert snap.path.name.startswith("snapshot-") and snap.path.stat().st_size > 1_000_000
    import gzip

    from course_calculators.plugin.snapshot import unpack

    assert len(unpack(gzip.decompress(snap.path.read_bytes()))) > 10_000_000  # Pyodide's memory
    assert set(snap.calculators) >= {"kv-cache", "decode-roofline"}


def test_lock_lists_only_the_calculators(tmp_path):
    """The page downloads the lock before Python starts: 0.5 KB, not Pyodide's 120 KB list."""
    import json

    from course_calculators.plugin.artifacts import ArtifactCache
    from course_calculators.plugin.wheel import LOCK_NAME

    built = ArtifactCache(tmp_path).get(ROOT / "node_modules/pyodide", [ROOT / "calculators/llm_inference"], with_snapshot=False)
    assert built.snapshot is None
    data = json.loads(built.lock.read_text())
    assert list(data["packages"]) == [LOCK_NAME]
    assert data["packages"][LOCK_NAME]["sha256"]
    assert data["info"]["python"].startswith("3.")
