"""A run that raises in the reader's browser: the outputs are marked failed (never the previous
numbers kept as if current), the widget's message names the author's file and the line inside
``compute()``, and the console holds Python's traceback.

A site of its own with one calculator that raises only under Pyodide (for ``x`` = 7), so that the
build's check in CPython passes, as a calculator using something the browser's Python lacks would.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import PageWatch
from e2e_helpers import output, set_field, settle, wait_ready
from serving import StaticServer, build_site

pytestmark = pytest.mark.e2e

ROOT_DIR = Path(__file__).resolve().parents[2]

MODULE = '''\
import sys

from course_calculators.spec import Calculator, Number, Output


def compute(p):
    x = p["x"]
    if sys.platform == "emscripten" and x == 7:
        x = x / 0
    return {"double": x * 2}


SPEC = Calculator(id="double", title="Double", params=(Number("x", "X", 2, 0, 10),),
                  outputs=(Output("double", "Twice x", "count"),), compute=compute)
'''
RAISES_AT = 9  # the line of ``x = x / 0``

CONFIG = f"""\
site_name: failures
site_url: !ENV [SITE_URL, "http://127.0.0.1:8000/"]
theme: {{name: material, font: false}}
nav:
  - Lesson: lesson.md
plugins:
  - calculators:
      node_modules: {ROOT_DIR / "node_modules"}
      snapshot: false
      offline: false
      packages: [my_calcs]
"""


@pytest.fixture(scope="module")
def failing_url(tmp_path_factory):
    src = tmp_path_factory.mktemp("failing")
    (src / "docs").mkdir()
    (src / "docs" / "lesson.md").write_text("# Lesson\n\n```calculator double\n```\n")
    (src / "my_calcs").mkdir()
    (src / "my_calcs" / "__init__.py").write_text('"""Calculators."""\n')
    (src / "my_calcs" / "double.py").write_text(MODULE)
    assert MODULE.splitlines()[RAISES_AT - 1].strip() == "x = x / 0"
    (src / "mkdocs.yml").write_text(CONFIG)
    out = src / "site"
    server = StaticServer(out)
    proc = build_site(out, server.url, cwd=src, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    server.start()
    yield server.url
    server.stop()


def test_a_failed_run_marks_its_outputs_names_file_and_line_and_logs_the_traceback(browser, failing_url):
    context = browser.new_context()
    page = context.new_page()
    watch = PageWatch(page, failing_url)
    try:
        page.goto(failing_url + "lesson/")
        wait_ready(page, "double")
        set_field(page, "double", "x", "7")
        page.wait_for_selector('.calc[data-calc="double"][data-state="error"]', timeout=30_000)
        value, text = output(page, "double", "double")
        assert (value, text) == ("", "failed")  # not 4, the number for x = 2
        assert page.get_attribute('.calc[data-calc="double"] output[data-output="double"]', "data-failed") == ""
        message = page.text_content('.calc[data-calc="double"] [data-message]')
        assert f"my_calcs/double.py:{RAISES_AT}" in message and "ZeroDivisionError" in message, message
        assert "Traceback" not in message and "\n" not in message.strip()
        logged = [e for e in watch.errors if "my_calcs/double.py" in e]
        assert logged and "Traceback" in logged[0] and "ZeroDivisionError" in logged[0], watch.errors
        # The next input computes again, and the mark goes.
        set_field(page, "double", "x", "3")
        settle(page, "double")
        assert output(page, "double", "double") == ("6", "6")
        assert page.get_attribute('.calc[data-calc="double"] output[data-output="double"]', "data-failed") is None
    finally:
        context.close()
