"""The browser scripts never turn a string into markup or code.

Every DOM write in them is text or an attribute, so no value from a URL, a form or a message can
become HTML or run. One exception is allowed and pinned here: "Show the Python" parses the
site's own highlighted source file (built by the plugin, fetched from the same origin).

Every module of ``course_calculators/browser/`` is scanned here; the files esbuild makes of them
are scanned too (``tests/integration/course_calculators/plugin/test_esbuild.py``), so nothing the
bundler adds escapes the check.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[4] / "course_calculators" / "browser"
SINKS = re.compile(r"\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML|document\.write|\beval\(|new Function\(|"
                   r"setTimeout\(\s*['\"`]|createContextualFragment|DOMParser")
SOURCE_VIEW = "page/source-view.js"
ALLOWED = {(SOURCE_VIEW, "new DOMParser().parseFromString(await response.text(), \"text/html\")")}
SCRIPTS = sorted(p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*.js"))


def code_lines(text: str):
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped.startswith("//"):
            yield number, stripped


@pytest.mark.parametrize("script", SCRIPTS)
def test_no_string_becomes_markup_or_code(script):
    found = [(n, line) for n, line in code_lines((STATIC / script).read_text()) if SINKS.search(line)]
    unexpected = [(n, line) for n, line in found if not any(s == script and a in line for s, a in ALLOWED)]
    assert unexpected == []


def test_the_one_parser_reads_only_a_same_origin_file():
    text = (STATIC / SOURCE_VIEW).read_text()
    i = text.index("new DOMParser()")
    before = text[text.rindex("bindSource(", 0, i):i]
    assert "url.origin !== location.origin" in before and "details.dataset.source" in before
