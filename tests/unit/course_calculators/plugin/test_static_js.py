"""The browser scripts never turn a string into markup or code.

Every DOM write in them is text or an attribute, so no value from a URL, a form or a message can
become HTML or run. One exception is allowed and pinned here: "Show the Python" parses the
site's own highlighted source file (built by the plugin, fetched from the same origin).

Every source file of every served script is scanned (``bundle.sources()``), and the joined files
themselves, so nothing the joiner adds escapes the check.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from course_calculators.plugin import bundle

STATIC = Path(__file__).resolve().parents[4] / "course_calculators" / "browser"
SINKS = re.compile(r"\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML|document\.write|\beval\(|new Function\(|"
                   r"setTimeout\(\s*['\"`]|createContextualFragment|DOMParser")
SOURCE_VIEW = "page/source-view.js"
ALLOWED = {(SOURCE_VIEW, "new DOMParser().parseFromString(await response.text(), \"text/html\")")}
SCRIPTS = sorted({p.relative_to(STATIC).as_posix() for files in bundle.sources().values() for p in files
                  if p.suffix == ".js"})


def code_lines(text: str):
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped.startswith("//"):
            yield number, stripped


def test_every_browser_module_is_in_a_bundle():
    on_disk = sorted(p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*.js"))
    assert on_disk == SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS)
def test_no_string_becomes_markup_or_code(script):
    found = [(n, line) for n, line in code_lines((STATIC / script).read_text()) if SINKS.search(line)]
    unexpected = [(n, line) for n, line in found if not any(s == script and a in line for s, a in ALLOWED)]
    assert unexpected == []


@pytest.mark.parametrize("name", [n for n in bundle.bundles() if n.endswith(".js")])
def test_the_served_files_hold_no_other_sink(name):
    found = [line for _, line in code_lines(bundle.bundles()[name].decode()) if SINKS.search(line)]
    assert [line for line in found if not any(a in line for _, a in ALLOWED)] == []


def test_the_one_parser_reads_only_a_same_origin_file():
    text = (STATIC / SOURCE_VIEW).read_text()
    i = text.index("new DOMParser()")
    before = text[text.rindex("bindSource(", 0, i):i]
    assert "url.origin !== location.origin" in before and "details.dataset.source" in before
