"""The authors' guide's commands for each build tool (its "Three build tools" section), run as
written on a site ``init`` wrote: MkDocs 1.6.1 and ProperDocs with the plugin, Zensical with the
Markdown extension and ``python -m course_calculators finish``. Each gives the live widget, the
inline figures and the math; a Zensical build without the extension stops with one line."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from course_calculators import cli

ROOT = Path(__file__).resolve().parents[4]
GUIDE = ROOT / "docs" / "authors.md"
TOOLS = ("mkdocs", "properdocs", "zensical")


def guide_lines(tool: str) -> list[str]:
    """The shell lines of the guide's section for ``tool`` (between its ``build-tool`` markers)."""
    m = re.search(rf"<!-- build-tool:{tool} -->\n```sh\n(.*?)```\n<!-- /build-tool:{tool} -->", GUIDE.read_text(), re.S)
    assert m, f"docs/authors.md has no build-tool:{tool} block"
    return [line for line in m.group(1).splitlines() if line.strip()]


def run(line: str, cwd: Path) -> subprocess.CompletedProcess:
    words = shlex.split(line)
    command = [sys.executable, *words[1:]] if words[0] == "python" else [str(Path(sys.executable).parent / words[0]), *words[1:]]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


@pytest.fixture
def init_site(tmp_path, tmp_path_factory):
    site = tmp_path / "course"
    cli.init(site, package="course_calcs", title="A course", calc_id="first-calculator")
    (site / "node_modules").symlink_to(ROOT / "node_modules")
    cache = tmp_path_factory.getbasetemp() / "build-tools-cache"  # the snapshot, made once for the three tools
    text = (site / "mkdocs.yml").read_text().replace("      math: true", f"      math: true\n      cache_dir: {cache}", 1)
    (site / "mkdocs.yml").write_text(text)
    return site


def test_each_tool_has_a_section_whose_pinned_version_is_the_tested_one():
    pins = dict(line.split("==") for line in (ROOT / "constraints.txt").read_text().splitlines() if "==" in line)
    for tool in TOOLS:
        install = guide_lines(tool)[0]
        name, version = re.fullmatch(r'pip install "([a-z]+)==([0-9.]+)"', install).groups()
        assert pins[name] == version == metadata.version(name), tool


@pytest.mark.parametrize("tool", TOOLS)
def test_the_guides_commands_build_the_init_site(tool, init_site):
    for line in guide_lines(tool)[1:]:  # the pip line: installed by `make setup` (checked above)
        done = run(line, init_site)
        assert done.returncode == 0, f"{line}:\n{done.stdout}\n{done.stderr}"
    page = (init_site / "site" / "first-calculator" / "index.html").read_text()
    assert 'class="calc" id="calc-first-calculator"' in page and page.count('class="calc-figure"') == 2, tool
    assert page.count('class="katex"') == 2 and "\\(" not in page, tool
    assert 'name="calculators-runtime"' in page and 'http-equiv="Content-Security-Policy"' in page, tool
    assert re.search(r'<link rel="stylesheet" href="[^"]*katex\.min\.css\?v=[^"]+" integrity=', page), tool
    assert list((init_site / "site" / "assets" / "vendor" / "katex" / "dist" / "fonts").glob("*.woff2"))
    assert (init_site / "site" / "embed" / "first-calculator" / "index.html").is_file()
    assert (init_site / "site" / "sw.js").is_file()


def test_zensical_without_the_extension_stops_with_one_line(init_site):
    yml = init_site / "mkdocs.yml"
    yml.write_text(re.sub(r"  - course_calculators\.plugin\.extension:\n      packages: \[course_calcs\]\n", "", yml.read_text()))
    build, finish = guide_lines("zensical")[1:]
    assert run(build, init_site).returncode == 0  # Zensical says nothing of the fence it left as text
    done = run(finish, init_site)
    assert done.returncode == 1 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "did not run the calculators' Markdown extension" in done.stderr


def test_zensical_stops_at_a_bad_fence_naming_its_page_and_line(init_site):
    page = init_site / "docs" / "first-calculator.md"
    page.write_text(page.read_text().replace("```calculator first-calculator\n", "```calculator first-calculator\nvalue: 5000\n"))
    done = run(guide_lines("zensical")[1], init_site)
    assert done.returncode != 0
    assert re.search(r"first-calculator\.md:\d+: calculator 'first-calculator': .*above the maximum", done.stdout + done.stderr)


def test_finish_leaves_a_site_the_plugin_finished_as_it_is(init_site):
    assert run("mkdocs build --strict -f mkdocs.yml", init_site).returncode == 0
    before = (init_site / "site" / "index.html").read_bytes()
    done = run("python -m course_calculators finish site -f mkdocs.yml", init_site)
    assert done.returncode == 0 and "already finished" in done.stdout
    assert (init_site / "site" / "index.html").read_bytes() == before
