"""End-to-end fixtures: the built site served on 127.0.0.1, and Chromium driven by Playwright.

The site is built once per session (``chapter_site`` in ``tests/conftest.py``) for the free port
its server holds.

The built pages carry a Content-Security-Policy without ``'unsafe-eval'``, and the tests run
under it (no ``bypass_csp``). Playwright evaluates a *expression* string given to
``wait_for_function`` with eval() while polling, which the policy blocks: always pass a function,
``"() => window.calculatorsRuntime.ready"``, never ``"window.calculatorsRuntime.ready"``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from find_browsers import CHROMIUM_ARGS, executable_path, selected_engines  # noqa: E402
from e2e_helpers import NO_CONNECTION  # noqa: E402

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="session")
def site_dir(chapter_site) -> Path:
    return chapter_site[0]


@pytest.fixture(scope="session")
def base_url(chapter_site) -> str:
    return chapter_site[1]


@pytest.fixture(scope="session")
def example_site(tmp_path_factory):
    """``tests/example_site`` (an author's small site, outside the book) built once per session and
    served: its output folder and its URL."""
    from serving import StaticServer, build_site

    out = tmp_path_factory.mktemp("example") / "site"
    server = StaticServer(out)
    proc = build_site(out, server.url, cwd=ROOT / "tests" / "example_site", capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    server.start()
    yield out, server.url
    server.stop()


@pytest.fixture(scope="session")
def browser():
    if "chromium" not in selected_engines():
        pytest.skip("ENGINES leaves chromium out")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable_path(p), args=CHROMIUM_ARGS)
        yield QuietNetwork(browser)
        browser.close()


class QuietNetwork:
    """The browser, whose every new context tells its pages nothing of the connection
    (``e2e_helpers.NO_CONNECTION``: no offline copy made behind a test's back)."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, **options):
        ctx = self._browser.new_context(**options)
        ctx.add_init_script(NO_CONNECTION)
        return ctx

    def new_page(self, **options):
        """A page in a context of its own, closed with the page (as ``Browser.new_page``)."""
        page = self.new_context(**options).new_page()
        page.on("close", lambda p: p.context.close())
        return page

    def __getattr__(self, name):
        return getattr(self._browser, name)


class PageWatch:
    """Console errors, uncaught exceptions and requests that leave the origin, for one page."""

    def __init__(self, page, base_url: str) -> None:
        self.origin = urlparse(base_url).netloc
        self.errors: list[str] = []
        self.external: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("request", self._request)

    def _request(self, request) -> None:
        url = urlparse(request.url)
        if url.scheme in ("data", "blob", "about"):
            return
        if url.netloc != self.origin:
            self.external.append(request.url)


@pytest.fixture
def context(browser):
    ctx = browser.new_context()
    yield ctx
    ctx.close()


@pytest.fixture
def page(context, base_url):
    page = context.new_page()
    page.watch = PageWatch(page, base_url)
    yield page
