"""End-to-end fixtures: the built site served on 127.0.0.1, and Chromium driven by Playwright.

``SITE_DIR`` names a site built by ``make site``; without it the fixture builds one with
``mkdocs build --strict`` into a temporary folder.

The built pages carry a Content-Security-Policy without ``'unsafe-eval'``, and the tests run
under it (no ``bypass_csp``). Playwright evaluates a *expression* string given to
``wait_for_function`` with eval() while polling, which the policy blocks: always pass a function,
``"() => window.calculatorsRuntime.ready"``, never ``"window.calculatorsRuntime.ready"``.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import socket
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from find_chromium import CHROMIUM_ARGS, executable_path  # noqa: E402

pytestmark = pytest.mark.e2e


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
    }

    def log_message(self, *args) -> None:
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def site_origin(site: Path) -> tuple[str, int] | None:
    """The origin the site was built for (its sitemap's first URL).

    mkdocs-material's instant navigation only intercepts links listed in sitemap.xml, and it
    matches the port too: the test server must listen where the site expects to be.
    """
    sitemap = site / "sitemap.xml"
    if not sitemap.exists():
        return None
    loc = re.search(r"<loc>([^<]+)</loc>", sitemap.read_text())
    if not loc:
        return None
    url = urlparse(loc.group(1))
    return url.hostname or "127.0.0.1", url.port or 80


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory) -> Path:
    given = os.environ.get("SITE_DIR")
    if given and (Path(given) / "index.html").exists():
        return Path(given)
    out = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=ROOT, check=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "SITE_URL": f"http://127.0.0.1:{free_port()}/"},
    )
    return out


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:
        """A page closed mid-download drops its connection: not worth a traceback."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def serve(directory: Path, port: int = 0) -> tuple[http.server.ThreadingHTTPServer, str]:
    server = QuietServer(("127.0.0.1", port), functools.partial(QuietHandler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}/"


@pytest.fixture(scope="session")
def base_url(site_dir: Path):
    origin = site_origin(site_dir)
    port = origin[1] if origin and origin[0] in ("127.0.0.1", "localhost") else 0
    server, url = serve(site_dir, port)
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable_path(p), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


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
