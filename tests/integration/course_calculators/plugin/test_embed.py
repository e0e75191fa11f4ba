"""Embed pages in a real ``mkdocs build --strict`` under a sub-path: one page per calculator, every
URL relative, a link to the chapter's widget, none in the sitemap."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import course_calculators

ROOT = Path(__file__).resolve().parents[4]


def test_strict_build_under_a_sub_path_writes_one_page_per_calculator(tmp_path):
    (tmp_path / "docs" / "guide").mkdir(parents=True)
    (tmp_path / "docs" / "index.md").write_text("# Home\n")
    (tmp_path / "docs" / "guide" / "kv.md").write_text("# KV\n\n```calculator kv-cache\n```\n")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nsite_url: https://example.org/course/\n"
        "theme: {name: material, font: false}\n"
        "plugins:\n  - calculators:\n      packages: [llm_inference]\n      snapshot: false\n      node_modules: " + str(ROOT / "node_modules") + "\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert proc.returncode == 0, proc.stderr
    for calc_id in course_calculators.CALCULATORS:
        html = (tmp_path / "site" / "embed" / calc_id / "index.html").read_text()
        assert f'data-calc="{calc_id}"' in html and "data-embed" in html
        assert '<meta name="calculators-runtime"' in html and "../../assets/calc/worker.js" in html
        assert not re.search(r'(?:href|src)="/', html)
    kv = (tmp_path / "site" / "embed" / "kv-cache" / "index.html").read_text()
    assert 'href="../../guide/kv/#calc-kv-cache"' in kv
    assert (tmp_path / "site" / "assets" / "calc" / "embed.js").exists()
    assert "embed/" not in (tmp_path / "site" / "sitemap.xml").read_text()  # not pages of the site
