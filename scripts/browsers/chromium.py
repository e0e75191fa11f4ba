"""Chromium through Playwright behind the same :class:`Session` interface as the other engines,
for code that measures every engine alike (``scripts/bench/engines.py``). The Chromium test
suite itself (``tests/e2e``) uses Playwright directly."""

from __future__ import annotations

from find_browsers import CHROMIUM_ARGS, executable_path

from .session import Session


class Chromium:
    engine = "chromium"

    def __init__(self) -> None:
        from playwright.sync_api import sync_playwright

        self._pw = sync_playwright().start()
        self._browser = self._pw.chromium.launch(executable_path=executable_path(self._pw), args=CHROMIUM_ARGS)
        self.version = self._browser.version

    def new_session(self, width: int = 1280, height: int = 900) -> "ChromiumSession":
        return ChromiumSession(self._browser.new_context(viewport={"width": width, "height": height}))

    def close(self) -> None:
        self._browser.close()
        self._pw.stop()


class ChromiumSession(Session):
    engine = "chromium"

    def __init__(self, context) -> None:
        self._context = context
        self.page = context.new_page()
        self._errors: list[str] = []
        self.page.on("console", lambda m: self._errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self._errors.append(f"uncaught: {e}"))

    def goto(self, url: str, wait: str = "load") -> None:
        self.page.goto(url, wait_until=wait, timeout=120_000)

    def reload(self) -> None:
        self.page.reload()

    def evaluate(self, js: str, *args, frame: str | None = None):
        target = self.page
        if frame:
            target = next(f for f in self.page.frames if f is not self.page.main_frame and frame in f.url)
        return target.evaluate(f"(args) => ({js})(...args)", list(args))

    def mouse_click(self, x: float, y: float) -> None:
        self.page.mouse.click(x, y)

    def set_offline(self, offline: bool) -> bool:
        self._context.set_offline(offline)
        return True

    def console_errors(self) -> list[str]:
        return list(self._errors)

    def close(self) -> None:
        self._context.close()
