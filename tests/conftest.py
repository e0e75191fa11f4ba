"""Shared pytest setup: the repository root importable, this site's calculators registered, and the
session's build of the site (``serving.py`` has the helpers for building and serving sites).

The framework's registry starts empty (a site lists its calculator packages); the tests use this
repository's chapter, ``llm_inference``, as the site does. Registered at import, so that test
modules can build their parameter lists from it, and again before each test, since a test that
runs the plugin in this process re-reads the packages of the site it builds.
"""

import os
import pathlib
import shutil
import sys
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import course_calculators  # noqa: E402

CHAPTER = "llm_inference"


def register_chapter() -> None:
    if CHAPTER not in course_calculators.PACKAGES:
        course_calculators.unregister_all()
        course_calculators.register_package(CHAPTER)


register_chapter()


@pytest.fixture(autouse=True)
def _chapter_registered():
    register_chapter()
    yield


# -- the chapter's site, built once --------------------------------------------------------------

#: The plugin's ``cache_dir`` for this site's builds (mkdocs.yml reads it from the environment).
CACHE_ENV = "CALCULATORS_CACHE_DIR"


#: The folder where ``tests/installed.py`` makes the distributions and their environments, once per run.
INSTALLED_ENV = "CALCULATORS_INSTALLED_DIR"


def pytest_configure(config):
    """One snapshot cache for every build of this site in the run: the first build makes the
    snapshot, the others (each xdist worker's own build, the sub-path build…) take it. And one
    folder for the installed distributions (``tests/installed.py``), which the packaging tests and
    the e2e tests of the installed wheel share across the workers. Made by the first process
    (xdist's controller); its workers inherit the environment."""
    config.calculators_made = []
    for name, prefix in ((CACHE_ENV, "calculators-cache-"), (INSTALLED_ENV, "calculators-installed-")):
        if name not in os.environ:
            os.environ[name] = tempfile.mkdtemp(prefix=prefix)
            config.calculators_made.append(name)


def pytest_unconfigure(config):
    for name in getattr(config, "calculators_made", ()):
        shutil.rmtree(os.environ.pop(name), ignore_errors=True)


from serving import StaticServer, build_site  # noqa: E402
from tools import need_build_tools  # noqa: E402


@pytest.fixture(scope="session")
def chapter_server(tmp_path_factory):
    """The server of this repository's site, built once for the port it holds (its folder is
    ``server.directory``)."""
    need_build_tools()
    out = tmp_path_factory.mktemp("chapter") / "site"
    server = StaticServer(out)
    server.directory = out
    try:
        build_site(out, server.url, check=True)
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def chapter_site(chapter_server):
    """This repository's site, built once for the port its server holds: ``(site_dir, base_url)``."""
    return chapter_server.directory, chapter_server.url
