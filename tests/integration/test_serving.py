"""The tests' own build of a site (``tests/serving.py``) is as strict as ``make site``: a warning,
such as a link to a file that does not exist, fails it."""

from __future__ import annotations

import pytest

from serving import build_site

pytestmark = pytest.mark.integration


def test_a_broken_link_fails_the_tests_build(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# T\n\n[raw runs](missing.json)\n")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n")
    proc = build_site(tmp_path / "site", "http://127.0.0.1:1/", cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode != 0
    assert "missing.json" in proc.stderr
    (tmp_path / "docs" / "missing.json").write_text("{}")
    assert build_site(tmp_path / "site", "http://127.0.0.1:1/", cwd=tmp_path, capture_output=True).returncode == 0
