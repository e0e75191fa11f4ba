"""Another MkDocs site with the plugin and a calculator package of its own (``tests/example_site/``).

The site is built with ``mkdocs build --strict`` from its own folder, as its authors would; its
``loan`` calculator, which the chapter does not have, must then run in Chromium's Pyodide and agree
with CPython.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from conftest import PageWatch
from e2e_helpers import output, set_field, settle, wait_ready

pytestmark = pytest.mark.e2e

EXAMPLE = Path(__file__).resolve().parents[1] / "example_site"
#: The figure in the prose that follows the page's first loan widget (``{calc loan payment … follow}``).
FIGURE = '.calc-figure[data-figure="loan"][data-follow]'


def load_loan_module():
    """``loan_calcs/loan.py`` imported for CPython's answers, without registering the package here."""
    spec = importlib.util.spec_from_file_location("example_loan", EXAMPLE / "loan_calcs" / "loan.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def example_url(example_site):
    return example_site[1]


def test_the_example_sites_own_calculator_runs_in_the_browser(browser, example_url):
    spec = load_loan_module().SPEC
    context = browser.new_context()
    page = context.new_page()
    watch = PageWatch(page, example_url)
    try:
        page.goto(example_url + "loans/")
        assert page.locator('.calc[data-calc="loan"]').count() == 2
        wait_ready(page, "loan")

        # An edited field recomputes in Pyodide; the numbers are CPython's for the same inputs.
        set_field(page, "loan", "principal", "100000")
        set_field(page, "loan", "rate", "5")
        settle(page, "loan")
        inputs = {**dict(spec.preset("mortgage").values), "principal": "100000", "rate": "5"}
        expected = spec.run(inputs)
        for out in spec.outputs:
            assert output(page, "loan", out.name) == (expected.raw[out.name], expected.text[out.name]), out.name
        assert expected.text["payment"] == "$537"  # 100,000 at 5% over 30 years, as any loan table says
        # The prose's figure that follows the widget shows its payment too.
        assert page.text_content(FIGURE).strip() == "$537"

        page.click('.calc[data-calc="loan"] button[data-preset="car"]')
        settle(page, "loan")
        expected = spec.run(dict(spec.preset("car").values))
        assert output(page, "loan", "payment") == (expected.raw["payment"], expected.text["payment"])
        assert page.locator('.calc[data-calc="loan"] canvas, .calc[data-calc="loan"] svg').count() >= 1
    finally:
        context.close()
    assert watch.external == [], watch.external
    assert watch.errors == [], watch.errors


def test_a_following_figure_carries_its_widgets_not_yet_computed_mark(browser, example_url):
    """Python blocked: an input the build's table does not hold marks the widget's outputs, and the
    figure in the prose that follows the widget, as not yet computed; never the old number as current."""
    context = browser.new_context()
    page = context.new_page()
    try:
        context.route("**/*.wasm*", lambda route: route.abort())
        page.goto(example_url + "loans/")
        page.wait_for_selector('.calc[data-calc="loan"][data-state="error"]', timeout=60_000)
        assert not page.locator(FIGURE).evaluate("e => e.hasAttribute('data-pending')")
        set_field(page, "loan", "principal", "123457")
        page.wait_for_function("(sel) => document.querySelector(sel).hasAttribute('data-pending')", arg=FIGURE)
        assert page.locator(FIGURE).get_attribute("aria-busy") == "true"
        assert "not yet computed" in page.locator(FIGURE).evaluate("e => getComputedStyle(e, '::after').content")
    finally:
        context.close()
