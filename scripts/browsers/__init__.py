"""Every engine driven through one interface (``session.Session``), for the cross-engine tests and
the benchmark: Chromium through Playwright, Firefox through Puppeteer over WebDriver BiDi, WebKit
through Selenium and WebKitWebDriver. Where each browser is found: ``find_browsers.py``."""

from __future__ import annotations

from contextlib import contextmanager


def engine_class(engine: str):
    if engine == "firefox":
        from .firefox import Firefox
        return Firefox
    if engine == "webkit":
        from .webkit import WebKit
        return WebKit
    if engine == "chromium":
        from .chromium import Chromium
        return Chromium
    raise ValueError(f"unknown engine {engine!r}")


@contextmanager
def launch(engine: str):
    """A running browser of ``engine``: ``.new_session()`` opens a page in a fresh profile."""
    browser = engine_class(engine)()
    try:
        yield browser
    finally:
        browser.close()
