"""The browser runtime as esbuild bundles it (``plugin/esbuild.py``): Node and esbuild from the
repository's ``node_modules``, as a build runs them.

Every module of ``browser/`` is in a served file; each served file parses as the script its page
loads (a classic script, or the module worker) and holds no sink the sources do not; the same
sources give the same bytes; a source that does not parse, a missing or too old esbuild are errors
that name the file or say what to install; ``mkdocs serve`` bundles again only when a source changed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from course_calculators.plugin import esbuild, node

ROOT = Path(__file__).resolve().parents[4]
NODE_MODULES = ROOT / "node_modules"
SCRIPTS = [e.name for e in esbuild.ENTRIES]
#: The one markup sink of the sources (test_static_js.py pins it there), as esbuild writes it.
PARSER = re.compile(r"new DOMParser\(\)\.parseFromString\(await \w+\.text\(\),\s*\"text/html\"\)")
SINKS = re.compile(r"\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML|document\.write|\beval\(|new Function\(|"
                   r"setTimeout\(\s*['\"`]|createContextualFragment|DOMParser")


@pytest.fixture(scope="module")
def bundles() -> esbuild.Bundles:
    return esbuild.bundle(NODE_MODULES)  # Node and node_modules: the layer's conftest.py asks for them


def test_every_entry_is_served_with_its_source_map(bundles):
    names = set(bundles.files)
    assert names == {*SCRIPTS, *(f"{s}.map" for s in SCRIPTS), *esbuild.COPIES}
    for script in SCRIPTS:
        text = bundles.files[script].decode()
        assert text.rstrip().endswith(f"//# sourceMappingURL={script}.map")
        sources = json.loads(bundles.files[f"{script}.map"])["sources"]
        assert script in sources and not any(s.startswith(("/", "..")) for s in sources)  # named under browser/


def test_every_browser_module_is_in_a_served_file(bundles):
    on_disk = sorted(p.relative_to(esbuild.BROWSER).as_posix() for p in esbuild.BROWSER.rglob("*.js"))
    assert sorted(bundles.inputs) == on_disk


@pytest.mark.parametrize("script", SCRIPTS)
def test_each_served_file_parses_as_the_script_its_page_loads(bundles, script, tmp_path):
    entry = next(e for e in esbuild.ENTRIES if e.name == script)
    # A classic script has no import or export of its own; the module worker is checked as a module.
    path = tmp_path / (script.replace(".js", ".mjs") if entry.format == esbuild.ESM else script.replace(".js", ".cjs"))
    path.write_bytes(bundles.files[script])
    proc = subprocess.run([node.find_node(), "--check", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    if entry.format == esbuild.IIFE:
        assert not re.search(r"(?:^|[;}])\s*(?:import|export)\s*[{*\w]", bundles.files[script].decode())


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_served_files_hold_no_other_sink(bundles, script):
    text = PARSER.sub("", bundles.files[script].decode())
    assert SINKS.findall(text) == []


def test_the_same_sources_give_the_same_bytes(bundles):
    assert esbuild.bundle(NODE_MODULES).files == bundles.files


def copy_of_the_runtime(tmp_path: Path) -> Path:
    root = tmp_path / "browser"
    shutil.copytree(esbuild.BROWSER, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_a_module_that_does_not_parse_is_named_with_its_line(tmp_path):
    root = copy_of_the_runtime(tmp_path)
    (root / "page" / "form.js").write_text((root / "page" / "form.js").read_text() + "\nexport const = 1;\n")
    with pytest.raises(esbuild.BundleError, match=r"page/form\.js:\d+:\d+: "):
        esbuild.bundle(NODE_MODULES, root)


def test_the_cache_bundles_again_only_when_a_source_changed(tmp_path):
    root = copy_of_the_runtime(tmp_path)
    cache = esbuild.BundleCache(root)
    first = cache.get(NODE_MODULES)
    assert cache.get(NODE_MODULES) is first
    (root / "page" / "slider.js").write_text((root / "page" / "slider.js").read_text() + "\nexport const SEEN = 1;\n")
    assert cache.get(NODE_MODULES) is not first


def test_bundles_started_ahead_are_the_bundles_and_a_later_change_bundles_again(tmp_path, bundles):
    root = copy_of_the_runtime(tmp_path)
    cache = esbuild.BundleCache(root)
    cache.start(NODE_MODULES)  # what on_config does; on_files collects it
    first = cache.get(NODE_MODULES)
    assert first.files == bundles.files
    cache.start(NODE_MODULES)  # the next build, nothing changed: nothing started, the same bundles
    assert cache.get(NODE_MODULES) is first
    (root / "page" / "slider.js").write_text((root / "page" / "slider.js").read_text() + "\nexport const SEEN = 2;\n")
    cache.start(NODE_MODULES)
    assert cache.get(NODE_MODULES).digest != first.digest


def test_a_started_bundle_nobody_collects_is_ended_or_started_again_when_a_source_changed(tmp_path):
    root = copy_of_the_runtime(tmp_path)
    cache = esbuild.BundleCache(root)
    cache.start(NODE_MODULES)
    running = cache._running
    cache.close()  # on_shutdown, after a build that failed before on_files
    assert running.proc.returncode is not None and cache._running is None
    cache.start(NODE_MODULES)  # a build that fails before on_files, under serve
    stale = cache._running
    cache.start(NODE_MODULES)
    assert cache._running is stale  # nothing changed: the same process is still right
    (root / "page" / "slider.js").write_text((root / "page" / "slider.js").read_text() + "\nexport const SEEN = 3;\n")
    cache.start(NODE_MODULES)
    assert stale.proc.returncode is not None and cache._running is not stale
    assert cache.get(NODE_MODULES).digest == esbuild._digest(root, esbuild.esbuild_dir(NODE_MODULES))


def test_no_esbuild_says_what_to_install(tmp_path):
    with pytest.raises(esbuild.BundleError) as exc:
        esbuild.esbuild_dir(tmp_path)
    message = str(exc.value)
    assert "\n" not in message and message.startswith("course-calculators")
    assert f"npm install --save-exact esbuild@{esbuild.ESBUILD_VERSION}" in message


def test_an_older_esbuild_is_refused(tmp_path):
    (tmp_path / "esbuild").mkdir()
    (tmp_path / "esbuild" / "package.json").write_text('{"version": "0.19.12"}')
    with pytest.raises(esbuild.BundleError, match="needs esbuild 0.28 or newer; .* is 0.19.12"):
        esbuild.esbuild_dir(tmp_path)


def test_the_pinned_esbuild_is_the_one_package_json_installs():
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["esbuild"]
    assert pinned == esbuild.ESBUILD_VERSION
    assert f"esbuild@{esbuild.ESBUILD_VERSION}" in (ROOT / "docs" / "authors.md").read_text()


def test_mkdocs_serve_watches_the_browser_sources():
    from course_calculators.plugin.plugin import CalculatorsPlugin

    class Server:
        def __init__(self):
            self.watched = []

        def watch(self, path):
            self.watched.append(path)

    plugin = CalculatorsPlugin()
    plugin._packages = []
    server = plugin.on_serve(Server(), config=None, builder=None)
    assert str(esbuild.BROWSER) in server.watched  # a change there rebuilds; the cache then bundles again
