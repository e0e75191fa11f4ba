"""The bundles a distribution carries (``plugin/esbuild.py``: :func:`prebuilt`, :func:`check`,
:class:`BundleCache`), without Node: a build takes them while the modules they were made from are
unchanged, so an author's site needs no esbuild; an edited module, or none kept, means esbuild.
(esbuild itself is tests/integration/course_calculators/plugin/test_esbuild.py's.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from course_calculators.plugin import esbuild


def _browser(tmp_path: Path) -> Path:
    """A browser folder with two modules, the stylesheet and bundles as write_prebuilt leaves them."""
    root = tmp_path / "browser"
    (root / "page").mkdir(parents=True)
    (root / "runtime.js").write_text("import './page/a.js';\n")
    (root / "page" / "a.js").write_text("export const a = 1;\n")
    (root / "calc.css").write_text(".calc {}\n")
    inputs = ("page/a.js", "runtime.js")
    kept = root / esbuild.PREBUILT
    kept.mkdir()
    files = {"runtime.js": "(()=>{})();\n", "runtime.js.map": "{}"}
    for name, text in files.items():
        (kept / name).write_text(text)
    (kept / esbuild.PREBUILT_INDEX).write_text(json.dumps({
        "inputs": list(inputs), "inputs_sha256": esbuild.inputs_digest(root, inputs),
        "esbuild": esbuild.ESBUILD_VERSION, "files": sorted(files)}))
    return root


def test_the_kept_bundles_are_taken_while_their_modules_are_unchanged(tmp_path):
    root = _browser(tmp_path)
    found = esbuild.prebuilt(root)
    assert found is not None
    assert set(found.files) == {"runtime.js", "runtime.js.map", "calc.css"}
    assert found.files["calc.css"] == b".calc {}\n"  # a copy: served as the source holds it
    assert found.inputs == ("page/a.js", "runtime.js")


@pytest.mark.parametrize("change", [
    lambda root: (root / "page" / "a.js").write_text("export const a = 2;\n"),  # a module edited
    lambda root: (root / "calc.css").write_text(".calc { color: red }\n"),  # a copy edited
    lambda root: (root / "page" / "a.js").unlink(),  # a module gone
    lambda root: (root / esbuild.PREBUILT / "runtime.js").unlink(),  # a bundle gone
    lambda root: (root / esbuild.PREBUILT / esbuild.PREBUILT_INDEX).write_text("{"),
])
def test_an_edited_module_or_a_broken_folder_means_esbuild(tmp_path, change):
    root = _browser(tmp_path)
    change(root)
    assert esbuild.prebuilt(root) is None


def test_the_kept_bundles_are_no_source_of_the_digest(tmp_path):
    root = _browser(tmp_path)
    before = esbuild.sources_digest(root)
    (root / esbuild.PREBUILT / "runtime.js").write_text("changed")
    assert esbuild.sources_digest(root) == before


def test_with_kept_bundles_a_site_needs_no_esbuild(tmp_path):
    root = _browser(tmp_path)
    empty = tmp_path / "node_modules"
    empty.mkdir()
    esbuild.check(empty, root)  # no BundleError
    cache = esbuild.BundleCache(root)
    cache.start(empty)  # starts nothing: the bundles are there
    assert cache.get(empty).files["runtime.js"] == b"(()=>{})();\n"


def test_without_kept_bundles_the_missing_esbuild_is_named(tmp_path):
    root = _browser(tmp_path)
    (root / "page" / "a.js").write_text("export const a = 3;\n")
    empty = tmp_path / "node_modules"
    empty.mkdir()
    with pytest.raises(esbuild.BundleError, match=r"npm install --save-exact esbuild@"):
        esbuild.check(empty, root)
    with pytest.raises(esbuild.BundleError):
        esbuild.BundleCache(root).get(empty)


def test_this_repository_keeps_no_bundles_in_its_sources():
    # Its own edit loop bundles with esbuild; the folder is made only when a distribution is built.
    ignored = (Path(esbuild.__file__).resolve().parents[2] / ".gitignore").read_text()
    assert f"/course_calculators/browser/{esbuild.PREBUILT}/" in ignored
