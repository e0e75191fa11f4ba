"""The three distributions as a package index would take them: ``python -m build`` makes an sdist
and a wheel of each that pass ``twine check --strict``, with the metadata an index shows, a
version its changelog names, and a framework wheel that holds the framework and nothing else."""

from __future__ import annotations

import email.parser
import json
import re
import sys
import tarfile
import zipfile

import pytest

import course_calculators
from installed import PROJECTS, ROOT, dists, run

pytestmark = pytest.mark.packaging

BOOK_PACKAGES = {"llm-inference-chapter": "llm_inference", "everyday-physics-course": "everyday_physics"}
PROJECTS_DIRS = {"llm_inference": ROOT / "calculators/llm_inference",
                 "everyday_physics": ROOT / "examples/everyday-physics/everyday_physics"}


def metadata(wheel) -> email.message.Message:
    with zipfile.ZipFile(wheel) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        return email.parser.Parser().parsestr(zf.read(name).decode())


def test_every_distribution_passes_twine_check():
    files = [path for built in dists().values() for path in built.values()]
    assert len(files) == 6
    proc = run([sys.executable, "-m", "twine", "check", "--strict", *files])
    assert proc.stdout.count("PASSED") == 6, proc.stdout


@pytest.mark.parametrize("project", list(PROJECTS))
def test_the_metadata_an_index_shows(project):
    meta = metadata(dists()[project]["wheel"])
    assert meta["Name"] == project
    assert meta["License-Expression"] == "MIT" and meta.get_all("License-File") == ["LICENSE"]
    assert meta["Requires-Python"] == ">=3.11"
    assert meta["Description-Content-Type"] == "text/markdown" and len(meta.get_payload()) > 200
    classifiers = meta.get_all("Classifier")
    assert "Framework :: MkDocs" in classifiers and "Intended Audience :: Education" in classifiers
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert urls["Homepage"].startswith("https://")
    requires = meta.get_all("Requires-Dist") or []
    # Ranges, never exact pins, for what runs on an author's machine (this repository pins its own)
    assert not [r for r in requires if "==" in r and "extra ==" not in r], requires
    if project != "course-calculators":
        assert requires == ["course-calculators<0.4,>=0.3"]


def test_the_frameworks_run_time_dependencies_are_ranges_without_build_tools():
    requires = [r for r in metadata(dists()["course-calculators"]["wheel"]).get_all("Requires-Dist") if "extra ==" not in r]
    names = sorted(re.match(r"[A-Za-z0-9_.-]+", r).group(0).lower() for r in requires)
    assert names == ["jinja2", "mkdocs", "mkdocs-material", "pygments", "pymdown-extensions"]
    assert not {"pyodide-build", "pyodide-lock", "wheel"} & set(names)
    assert "mkdocs-material<10,>=9.5" in requires and "mkdocs<2,>=1.6" in requires


@pytest.mark.parametrize("project, changelog", [
    ("course-calculators", ROOT / "CHANGELOG.md"),
    ("llm-inference-chapter", ROOT / "calculators/CHANGELOG.md"),
    ("everyday-physics-course", ROOT / "examples/everyday-physics/CHANGELOG.md"),
])
def test_the_version_is_the_changelogs_newest(project, changelog):
    version = metadata(dists()[project]["wheel"])["Version"]
    newest = re.search(r"^## (\d+\.\d+\.\d+)", changelog.read_text(), re.M).group(1)
    assert version == newest
    if project == "course-calculators":
        assert version == course_calculators.__version__


def test_the_framework_wheel_holds_no_chapter_code():
    names = zipfile.ZipFile(dists()["course-calculators"]["wheel"]).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"course_calculators", f"course_calculators-{course_calculators.__version__}.dist-info"}
    for package in BOOK_PACKAGES.values():
        book_modules = {p.name for p in (PROJECTS_DIRS[package]).glob("*.py")} - {"__init__.py", "units.py"}
        assert not [n for n in names if n.rsplit("/", 1)[-1] in book_modules], package
    assert "course_calculators/plugin/plugin.py" in names and "course_calculators/cli.py" in names


@pytest.mark.parametrize("project, package", list(BOOK_PACKAGES.items()))
def test_each_book_wheel_holds_its_package_only(project, package):
    names = zipfile.ZipFile(dists()[project]["wheel"]).namelist()
    assert {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")} == {package}


@pytest.mark.parametrize("project", list(PROJECTS))
def test_each_sdist_holds_its_readme_licence_and_sources(project):
    with tarfile.open(dists()[project]["sdist"]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert {"README.md", "LICENSE", "pyproject.toml", "PKG-INFO"} <= names
    if project == "course-calculators":
        assert "course_calculators/plugin/snapshot.mjs" in names and not any(n.startswith(("calculators/", "examples/")) for n in names)


def test_the_framework_wheel_carries_the_bundled_browser_runtime():
    # An author's site then needs no esbuild (course_calculators/plugin/esbuild.py, prebuilt): the
    # bundles, and every module they were made from, so a build can tell they are still current.
    names = set(zipfile.ZipFile(dists()["course-calculators"]["wheel"]).namelist())
    folder = "course_calculators/browser/bundled/"
    index = json.loads(zipfile.ZipFile(dists()["course-calculators"]["wheel"]).read(folder + "bundled.json"))
    assert {"runtime.js", "worker.js", "embed.js", "search-deferred.js", "runtime.js.map"} <= set(index["files"])
    assert {folder + name for name in index["files"]} <= names
    assert {f"course_calculators/browser/{name}" for name in index["inputs"]} <= names
    with tarfile.open(dists()["course-calculators"]["sdist"]) as sdist:  # and a wheel built from the sdist
        assert any(n.endswith("/course_calculators/browser/bundled/runtime.js") for n in sdist.getnames())
