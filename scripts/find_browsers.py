"""Which browser of each engine the tests and the benchmark drive, found the same way everywhere.

This is the one place that says where each engine is looked for, in this order (the first that
exists wins):

- **chromium** (Playwright): ``$CHROMIUM_PATH``; Playwright's own Chromium
  (``python -m playwright install chromium``); ``chromium``, ``chromium-browser`` or
  ``google-chrome`` on ``PATH``; ``/usr/bin/chromium``.
- **firefox** (Puppeteer over WebDriver BiDi, no geckodriver): ``$FIREFOX_PATH``; ``firefox-esr``,
  then ``firefox`` on ``PATH`` (Debian's ``firefox-esr``, or any Mozilla build of 128 or later).
  Playwright's own Firefox is not used: it is patched for Playwright's protocol, not BiDi.
- **webkit** (Selenium and WebKitWebDriver, driving WebKitGTK's MiniBrowser in Xvfb, since the
  GTK MiniBrowser has no headless mode): ``$WEBKIT_DRIVER_PATH``, else ``WebKitWebDriver`` on
  ``PATH``; ``$MINIBROWSER_PATH``, else ``MiniBrowser`` in ``/usr/lib/<multiarch>/webkit2gtk-4.1/``
  (Debian and Ubuntu: ``libwebkit2gtk-4.1-0``), ``webkit2gtk-4.0/`` or ``/usr/libexec/``;
  ``Xvfb`` on ``PATH`` (or, without it, the ``$DISPLAY`` already there). Playwright's own WebKit
  ships no WebDriver, so it is not used either.

The tests and the benchmark (``bench/launch.py``, ``bench/engines.py``) all look here. Nothing here
downloads a browser. ``ENGINES`` (default ``"chromium firefox webkit"``) chooses the
engines a run drives; the suites of an engine left out skip, saying so.

``python scripts/find_browsers.py --check [engine ...]`` prints what it found and exits 1 with
advice when an engine of ``ENGINES`` (or of those named) is missing; ``--packages`` prints the
Debian packages that would bring the missing ones; ``--install`` installs them with apt-get where
it may (as root, or with a password-less sudo) and otherwise stops with one line naming the
command (``make test`` runs it first). Standard library only: it runs before the virtualenv exists.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ALL_ENGINES = ("chromium", "firefox", "webkit")

#: Flags for Chromium on a closed network: no background traffic, no sandbox as root in CI.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]

#: Debian's packages for each engine (Ubuntu has the same but for firefox-esr).
PACKAGES = {
    "chromium": ["chromium"],
    "firefox": ["firefox-esr"],
    "webkit": ["webkit2gtk-driver", "xvfb"],  # WebKitWebDriver; MiniBrowser comes with libwebkit2gtk-4.1-0
}

ADVICE = {
    "chromium": "install Debian's chromium (apt-get install -y chromium), or Playwright's "
                "(.venv/bin/python -m playwright install chromium), or set CHROMIUM_PATH",
    "firefox": "install Debian's firefox-esr (apt-get install -y firefox-esr), or point FIREFOX_PATH "
               "at a Firefox of version 128 or later (WebDriver BiDi)",
    "webkit": "install Debian's or Ubuntu's webkit2gtk-driver and xvfb (apt-get install -y "
              "webkit2gtk-driver xvfb: WebKitWebDriver, with MiniBrowser from libwebkit2gtk-4.1-0), "
              "or set WEBKIT_DRIVER_PATH and MINIBROWSER_PATH",
}


class BrowserMissing(FileNotFoundError):
    def __init__(self, engine: str, what: str) -> None:
        self.engine = engine
        super().__init__(
            f"No {what} found for the {engine} tests: {ADVICE[engine]}. To run without it: "
            f"ENGINES=\"{' '.join(e for e in ALL_ENGINES if e != engine)}\" make test"
        )


def selected_engines() -> tuple[str, ...]:
    """The engines this run drives: ``ENGINES`` (space- or comma-separated), default all three."""
    raw = os.environ.get("ENGINES", "").replace(",", " ").split()
    unknown = [e for e in raw if e not in ALL_ENGINES]
    if unknown:
        raise SystemExit(f"ENGINES names an unknown engine: {' '.join(unknown)} (known: {' '.join(ALL_ENGINES)})")
    return tuple(raw) or ALL_ENGINES


# -- Chromium ------------------------------------------------------------------------------------

SYSTEM_CHROMIUM = Path("/usr/bin/chromium")  # Debian's, found even when PATH lacks /usr/bin

def playwright_chromium(playwright=None) -> str | None:
    """The path of Playwright's own Chromium when it is installed (``playwright install chromium``)."""
    if playwright is not None:
        path = playwright.chromium.executable_path
        return path if path and Path(path).exists() else None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # before the virtualenv exists (.ci/run): look in Playwright's download folder
        folder = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or Path.home() / ".cache" / "ms-playwright")
        found = sorted(folder.glob("chromium-*/chrome-linux*/chrome"))
        return str(found[-1]) if found else None
    with sync_playwright() as p:
        return playwright_chromium(p)


def executable_path(playwright=None) -> str | None:
    """Chromium for Playwright's ``executable_path``: None means Playwright's own browser."""
    if os.environ.get("CHROMIUM_PATH"):
        return os.environ["CHROMIUM_PATH"]
    if playwright_chromium(playwright):
        return None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if SYSTEM_CHROMIUM.exists():
        return str(SYSTEM_CHROMIUM)
    raise BrowserMissing("chromium", "Chromium")


# -- Firefox -------------------------------------------------------------------------------------

def firefox_path() -> str:
    if os.environ.get("FIREFOX_PATH"):
        return os.environ["FIREFOX_PATH"]
    for name in ("firefox-esr", "firefox"):
        found = shutil.which(name)
        if found:
            return found
    raise BrowserMissing("firefox", "Firefox")


# -- WebKit --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class WebKit:
    driver: str            # WebKitWebDriver
    minibrowser: str       # the browser it starts
    xvfb: str | None       # None: use the $DISPLAY already there


MINIBROWSER_GLOBS = (
    "/usr/lib/*/webkit2gtk-4.1/MiniBrowser",
    "/usr/lib/*/webkit2gtk-4.0/MiniBrowser",
    "/usr/libexec/webkit2gtk-4.*/MiniBrowser",
)


def minibrowser_path() -> str:
    if os.environ.get("MINIBROWSER_PATH"):
        return os.environ["MINIBROWSER_PATH"]
    found = [p for pattern in MINIBROWSER_GLOBS for p in sorted(glob.glob(pattern))]
    if not found:
        raise BrowserMissing("webkit", "MiniBrowser")
    return found[0]


def webkit_paths() -> WebKit:
    driver = os.environ.get("WEBKIT_DRIVER_PATH") or shutil.which("WebKitWebDriver")
    if not driver:
        raise BrowserMissing("webkit", "WebKitWebDriver")
    minibrowser = minibrowser_path()
    xvfb = shutil.which("Xvfb")
    if not xvfb and not os.environ.get("DISPLAY"):
        raise BrowserMissing("webkit", "Xvfb (nor a $DISPLAY)")
    return WebKit(driver, minibrowser, xvfb)


# -- the check -----------------------------------------------------------------------------------

def describe(engine: str) -> str:
    """What drives ``engine`` here, in words; raises :class:`BrowserMissing`."""
    if engine == "chromium":
        return executable_path() or "Playwright-managed"
    if engine == "firefox":
        return firefox_path()
    found = webkit_paths()
    return f"{found.minibrowser} through {found.driver}, in {'Xvfb' if found.xvfb else 'DISPLAY=' + os.environ['DISPLAY']}"


def check(engines: tuple[str, ...]) -> int:
    missing = 0
    for engine in engines:
        try:
            print(f"{engine}: {describe(engine)}")
        except BrowserMissing as exc:
            print(f"{engine}: MISSING. {exc}", file=sys.stderr)
            missing += 1
    return 1 if missing else 0


def missing_packages(engines: tuple[str, ...]) -> list[str]:
    needed = []
    for engine in engines:
        try:
            describe(engine)
        except BrowserMissing:
            needed += PACKAGES[engine]
    return needed


def apt_prefix() -> list[str] | None:
    """How this process may run apt-get: directly as root, through a sudo that asks no password,
    or not at all (None)."""
    if not shutil.which("apt-get"):
        return None
    if os.geteuid() == 0:
        return []
    if shutil.which("sudo") and subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode == 0:
        return ["sudo", "-n"]
    return None


def install(engines: tuple[str, ...]) -> int:
    """Install Debian's packages for the engines of ``engines`` that are missing, then check them."""
    needed = missing_packages(engines)
    if needed:
        prefix = apt_prefix()
        command = ["apt-get", "install", "-y", "-qq", *needed]
        if prefix is None:
            print(f"The browsers the tests drive are missing; install them with: sudo apt-get update && "
                  f"sudo {' '.join(command)}   (or leave engines out: ENGINES=\"chromium\" make test)",
                  file=sys.stderr)
            return 1
        print(f"Installing the missing browsers: {' '.join(needed)}", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for step in (["apt-get", "update", "-qq"], command):
            if subprocess.run(prefix + step, env=env, stdout=subprocess.DEVNULL).returncode != 0:
                print(f"{' '.join(prefix + step)} failed; the tests need: {' '.join(needed)}", file=sys.stderr)
                return 1
    return check(engines)


if __name__ == "__main__":
    engines = tuple(a for a in sys.argv[1:] if not a.startswith("-")) or selected_engines()
    if "--install" in sys.argv:
        sys.exit(install(engines))
    if "--packages" in sys.argv:
        print(" ".join(missing_packages(engines)))
        sys.exit(0)
    sys.exit(check(engines))
