"""Inline figures in a real ``mkdocs build --strict``: a bad one fails it, naming the page and the line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]


def test_a_bad_figure_fails_the_strict_build(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# T\n\nCache: {calc kv-cache kv_bytes_totl}.\n")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\ntheme: {name: material, font: false}\nplugins:\n  - calculators:\n"
        f"      packages: [llm_inference]\n      snapshot: false\n      node_modules: {ROOT / 'node_modules'}\n")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                          cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert proc.returncode != 0
    assert "index.md:3" in proc.stderr and "no output 'kv_bytes_totl'" in proc.stderr
