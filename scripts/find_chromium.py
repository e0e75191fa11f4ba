"""Which Chromium the tests and the benchmark drive: Playwright's own where installed, else the system's.

Playwright cannot download its browser on machines without internet; Debian's ``chromium`` package
(``/usr/bin/chromium``) works in its place. ``--check`` exits non-zero with advice when neither exists.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

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


def playwright_chromium(playwright=None) -> str | None:
    """The path of Playwright's own Chromium when it is installed (``playwright install chromium``)."""
    if playwright is not None:
        path = playwright.chromium.executable_path
        return path if path and Path(path).exists() else None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    with sync_playwright() as p:
        return playwright_chromium(p)


def executable_path(playwright=None) -> str | None:
    """None means Playwright's own browser; otherwise the system Chromium's path."""
    if os.environ.get("CHROMIUM_PATH"):
        return os.environ["CHROMIUM_PATH"]
    if playwright_chromium(playwright):
        return None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if Path("/usr/bin/chromium").exists():
        return "/usr/bin/chromium"
    raise FileNotFoundError(
        "No Chromium found: install Debian's `chromium` (apt-get install -y chromium), "
        "or Playwright's browser (playwright install chromium), or set CHROMIUM_PATH."
    )


if __name__ == "__main__":
    try:
        path = executable_path()
    except FileNotFoundError as exc:
        print(exc, file=sys.stderr)
        sys.exit(1)
    print(f"Chromium: {path or 'Playwright-managed'}")
