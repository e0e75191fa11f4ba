"""Cold visits in Chromium, Firefox and WebKit, each started the same way, without Playwright
(whose own builds of Firefox and WebKit are not here).

Each visit starts the engine's stock browser on a fresh profile, headless (Chromium, Firefox) or in
Xvfb (WebKitGTK's MiniBrowser, which has no headless mode), at the page's URL; the bench server
puts the probe at the top of the page's head and takes its readings back (``measure.Probe``); the
browser is ended as soon as they arrive. Times are on the page's own clock. Chromium is here too so
that the engines' ratios compare visits made the same way, round after round
(``network.engine_runs``), not a Playwright run of minutes before.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from find_browsers import CHROMIUM_ARGS, BrowserMissing, firefox_path, minibrowser_path

FIREFOX_PREFS = {
    "browser.shell.checkDefaultBrowser": False, "browser.startup.homepage_override.mstone": "ignore",
    "datareporting.policy.dataSubmissionEnabled": False, "toolkit.telemetry.enabled": False,
    "app.update.enabled": False, "extensions.update.enabled": False, "browser.aboutwelcome.enabled": False,
    "network.captive-portal-service.enabled": False, "network.connectivity-service.enabled": False,
    "browser.safebrowsing.malware.enabled": False, "browser.safebrowsing.phishing.enabled": False,
    "browser.newtabpage.enabled": False, "dom.serviceWorkers.enabled": True,
}


# Where each browser is looked for is written once, in scripts/find_browsers.py.

def firefox() -> str | None:
    try:
        return firefox_path()
    except BrowserMissing:
        return None


def minibrowser() -> str | None:
    try:
        found = minibrowser_path()
    except BrowserMissing:
        return None
    return found if shutil.which("xvfb-run") else None


def available(chromium: str | None = None) -> dict[str, str]:
    """The engines this machine can drive, by name, with their program (``chromium``: the one the
    bench's Playwright drives, which the caller knows)."""
    found = {"chromium": chromium, "firefox": firefox(), "webkit": minibrowser()}
    return {name: path for name, path in found.items() if path}


def _command(engine: str, program: str, url: str, profile: Path) -> tuple[list[str], dict]:
    env = {**os.environ, "HOME": str(profile), "XDG_CACHE_HOME": str(profile / "cache"),
           "XDG_DATA_HOME": str(profile / "data"), "XDG_CONFIG_HOME": str(profile / "config")}
    if engine == "firefox":
        prefs = "".join(f'user_pref("{k}", {str(v).lower() if isinstance(v, bool) else repr(v).replace(chr(39), chr(34))});\n'
                        for k, v in FIREFOX_PREFS.items())
        (profile / "user.js").write_text(prefs)
        return [program, "--headless", "--no-remote", "--profile", str(profile), url], env
    if engine == "chromium":
        return [program, "--headless", *CHROMIUM_ARGS, "--no-default-browser-check",
                f"--user-data-dir={profile}", url], env
    return ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", program, url], env


def cold_ready(engine: str, program: str, url: str, probe, timeout_s: float = 120) -> dict:
    """One cold visit; the probe's readings (readyAt, fcp, valueAt, ms on the page's clock)."""
    probe.results.clear()
    probe.inject = True
    profile = Path(tempfile.mkdtemp(prefix=f"bench-{engine}-"))
    cmd, env = _command(engine, program, url, profile)
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + timeout_s
        while not probe.results and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        if not probe.results:
            raise RuntimeError(f"{engine}: no report from {url} within {timeout_s:.0f} s")
        return probe.results[0]
    finally:
        probe.inject = False
        try:
            os.killpg(proc.pid, signal.SIGTERM)  # the group this call started (xvfb-run, its Xvfb)
            proc.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(profile, ignore_errors=True)
