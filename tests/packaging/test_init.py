"""``python -m course_calculators init`` in an empty folder, with the framework installed from the
local index into the newest environment (the newest supported Python, the newest allowed
mkdocs-material): the site's README gives two commands, and both work as they are — ``mkdocs
build`` (with the Pyodide snapshot) and ``mkdocs serve``, answering on a free port with the
calculator's numbers in the page. Its tests run with what the install brings (``unittest``)."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import time
import urllib.request

import pytest

import installed
from installed import ROOT, run

pytestmark = pytest.mark.packaging


@pytest.fixture(scope="module")
def env():
    return installed.newest()


@pytest.fixture(scope="module")
def site(env, tmp_path_factory):
    folder = tmp_path_factory.mktemp("init") / "my-course"
    folder.mkdir()
    run([env.python, "-m", "course_calculators", "init"], cwd=folder, env=env.env())
    # `npm install` of its package.json: the same versions as this repository's node_modules (a unit
    # test checks), and only those packages: no esbuild, since the wheel carries the bundled runtime
    (folder / "node_modules").mkdir()
    for name in json.loads((folder / "package.json").read_text())["dependencies"]:
        (folder / "node_modules" / name).symlink_to(ROOT / "node_modules" / name)
    assert not (folder / "node_modules" / "esbuild").exists()
    return folder


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_environment_is_the_newest_allowed(env):
    assert env.installed_from_the_index("course-calculators")
    if installed.find_python(installed.NEWEST_PYTHON):
        assert env.python_version == installed.NEWEST_PYTHON


def test_the_readme_gives_the_two_commands(site):
    readme = (site / "README.md").read_text()
    commands = re.findall(r"^(mkdocs \w+)", readme, re.M)
    assert commands == ["mkdocs serve", "mkdocs build"]


def test_mkdocs_build_works_as_it_is(env, site):
    run([env.bin / "mkdocs", "build"], cwd=site, env=env.env())
    page = (site / "site" / "first-calculator" / "index.html").read_text()
    assert 'data-calc="first-calculator"' in page and 'data-value="42">42<' in page
    assert list((site / "site" / "assets" / "pyodide").glob("snapshot-*.bin.gz"))
    # the snapshot is kept for the next build (cache_dir): a rebuild takes it, no Pyodide boot in Node
    assert list((site / ".cache" / "calculators").glob("snapshot-*"))
    assert (site / "site" / "assets" / "calc" / "runtime.js").is_file()  # the wheel's bundle, without esbuild


def test_mkdocs_serve_answers_on_a_free_port(env, site):
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    proc = subprocess.Popen([env.bin / "mkdocs", "serve", "-a", f"127.0.0.1:{port}"], cwd=site,
                            env=env.env(SITE_URL=url), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 600  # it builds the site first, snapshot included
        body = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(url + "first-calculator/", timeout=10) as response:
                    body = response.read().decode()
                    break
            except OSError:
                time.sleep(1)
        assert body is not None, f"mkdocs serve did not answer on {url}: " + (proc.stdout.read() if proc.poll() is not None else "")
        assert 'data-calc="first-calculator"' in body and 'data-value="20">20<' in body
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_its_tests_run_with_what_the_install_brings(env, site):
    proc = run([env.python, "-m", "unittest", "-v"], cwd=site, env=env.env())
    assert "Ran 2 tests" in proc.stderr and proc.stderr.rstrip().endswith("OK")
    assert "pytest" not in (site / "tests" / "test_first_calculator.py").read_text().split('"""', 2)[2]
