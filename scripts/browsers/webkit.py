"""WebKit: WebKitGTK's MiniBrowser driven by Selenium through WebKitWebDriver, in Xvfb.

Each :class:`WebKitSession` starts its own WebKitWebDriver and MiniBrowser (``--automation``:
an ephemeral profile), so every session is a fresh profile. What this driver lacks, and what is
used instead:

- **offline**: WebKitWebDriver has no network emulation; :meth:`WebKitSession.set_offline`
  returns False, and a test takes the server away instead (a stopped server is what a reader
  without a network meets).
- **console**: WebKitWebDriver 2.50 reports no console messages (no BiDi, no log endpoint, and
  MiniBrowser ignores its console-to-stdout setting under automation). A page can still report
  its own: a server that injects ``console_probe.js`` (``PROBE_PATH``) before the page's scripts,
  for requests carrying the ``console-probe`` cookie that :meth:`WebKitSession.watch_console` sets;
  :meth:`WebKitSession.console_errors` reads what the probe recorded.
"""

from __future__ import annotations

import os
from pathlib import Path

from find_browsers import webkit_paths

from .session import Session
from .xvfb import Xvfb

PROBE_JS = Path(__file__).with_name("console_probe.js")
PROBE_PATH = "/__console_probe__.js"
PROBE_COOKIE = "console-probe"

READ_PROBE = """() => { try { return JSON.parse(sessionStorage.getItem("__consoleProbe") || "[]"); }
                        catch (e) { return ["console probe unreadable: " + e]; } }"""


class WebKit:
    engine = "webkit"

    def __init__(self) -> None:
        self.paths = webkit_paths()
        self._xvfb = Xvfb(self.paths.xvfb) if self.paths.xvfb else None
        self.display = self._xvfb.display if self._xvfb else os.environ["DISPLAY"]
        self.version = None

    def new_session(self, width: int = 1280, height: int = 900,
                    page_load_strategy: str = "normal") -> "WebKitSession":
        session = WebKitSession(self, width, height, page_load_strategy)
        self.version = session.version
        return session

    def close(self) -> None:
        if self._xvfb:
            self._xvfb.stop()


class WebKitSession(Session):
    engine = "webkit"

    def __init__(self, webkit: WebKit, width: int, height: int, page_load_strategy: str) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        options = Options()
        options.binary_location = webkit.paths.minibrowser
        options.add_argument("--automation")
        options.page_load_strategy = page_load_strategy
        # The driver's path is given, so that Selenium never looks for (or downloads) one.
        service = Service(executable_path=webkit.paths.driver, env={**os.environ, "DISPLAY": webkit.display})
        self.driver = webdriver.WebKitGTK(options=options, service=service)
        self.version = self.driver.capabilities.get("browserVersion")
        self.driver.set_script_timeout(180)
        # The window is the viewport plus MiniBrowser's own chrome: grow it until the page gets
        # the size asked for.
        self.driver.set_window_size(width, height)
        inner = self.driver.execute_script("return [innerWidth, innerHeight]")
        self.driver.set_window_size(width + (width - inner[0]), height + (height - inner[1]))
        self._frame: str | None = None
        self._probing = False

    def goto(self, url: str, wait: str = "load") -> None:
        self._frame = None
        self.driver.switch_to.default_content()
        self.driver.get(url)  # the page load strategy decides how long this waits

    def reload(self) -> None:
        self._frame = None
        self.driver.switch_to.default_content()
        self.driver.refresh()

    def _enter(self, frame: str | None) -> None:
        if frame == self._frame:
            return
        self.driver.switch_to.default_content()
        self._frame = None
        if frame:
            from selenium.webdriver.common.by import By

            for element in self.driver.find_elements(By.TAG_NAME, "iframe"):
                if frame in (element.get_attribute("src") or ""):
                    self.driver.switch_to.frame(element)
                    self._frame = frame
                    return
            raise LookupError(f"no iframe whose URL contains {frame}")

    def evaluate(self, js: str, *args, frame: str | None = None):
        self._enter(frame)
        return self.driver.execute_script(f"return ({js})(...arguments)", *args)

    def mouse_click(self, x: float, y: float) -> None:
        from selenium.webdriver.common.actions.action_builder import ActionBuilder

        self._enter(None)
        actions = ActionBuilder(self.driver)
        actions.pointer_action.move_to_location(round(x), round(y))
        actions.pointer_action.click()
        actions.perform()

    def set_offline(self, offline: bool) -> bool:
        return False

    def watch_console(self, origin: str) -> None:
        """Ask the servers of ``origin``'s host for the console probe (see the module's doc): set
        its cookie, from a page of that origin (WebDriver sets cookies for the current page only)."""
        self.goto(origin.rstrip("/") + PROBE_PATH)
        self.driver.add_cookie({"name": PROBE_COOKIE, "value": "1", "path": "/"})
        self._probing = True

    def console_errors(self, frame: str | None = None) -> list[str]:
        if not self._probing:
            raise RuntimeError("WebKit reports console errors only through the probe: call watch_console() first")
        return self.evaluate(READ_PROBE, frame=frame)

    def close(self) -> None:
        self.driver.quit()
