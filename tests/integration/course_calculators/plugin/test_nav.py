"""A page that holds a calculator but is missing from an explicit ``nav`` fails the strict build:
it would be built and linked from nowhere. (Moved from the scaffold's tests, now course_calculators.cli's.)"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
EXAMPLE = ROOT / "tests" / "example_site"


def test_a_page_with_a_calculator_missing_from_nav_fails_the_strict_build(tmp_path):
    site = tmp_path / "site"
    shutil.copytree(EXAMPLE, site, ignore=shutil.ignore_patterns("__pycache__"))
    text = (site / "mkdocs.yml").read_text().replace("../../node_modules", str(ROOT / "node_modules"))
    (site / "mkdocs.yml").write_text(text.replace("      packages:", "      snapshot: false\n      packages:"))
    (site / "docs" / "hidden.md").write_text("# Hidden\n\n```calculator loan\n```\n")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site / "out")], cwd=site,
                          capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert proc.returncode != 0
    assert "hidden.md holds a calculator but is not in the nav" in proc.stderr
