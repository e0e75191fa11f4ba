"""scripts/find_browsers.py: the lookup order of each engine, ENGINES, and the advice when one is missing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))

import find_browsers  # noqa: E402


@pytest.fixture
def bare(monkeypatch, tmp_path):
    """A machine with no browser: nothing on PATH, no override, no Playwright download folder."""
    for name in ("CHROMIUM_PATH", "FIREFOX_PATH", "WEBKIT_DRIVER_PATH", "MINIBROWSER_PATH", "DISPLAY", "ENGINES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "pw"))
    monkeypatch.setattr(find_browsers, "MINIBROWSER_GLOBS", (str(tmp_path / "none" / "MiniBrowser"),))
    monkeypatch.setattr(find_browsers, "playwright_chromium", lambda playwright=None: None)
    monkeypatch.setattr(find_browsers, "SYSTEM_CHROMIUM", tmp_path / "usr-bin-chromium")
    return tmp_path


def executable(folder: Path, name: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return str(path)


def test_engines_default_to_all_three_and_may_be_narrowed(monkeypatch):
    monkeypatch.delenv("ENGINES", raising=False)
    assert find_browsers.selected_engines() == ("chromium", "firefox", "webkit")
    monkeypatch.setenv("ENGINES", "chromium, webkit")
    assert find_browsers.selected_engines() == ("chromium", "webkit")
    monkeypatch.setenv("ENGINES", "chromium opera")
    with pytest.raises(SystemExit, match="opera"):
        find_browsers.selected_engines()


def test_a_missing_engine_says_what_to_install_and_how_to_leave_it_out(bare):
    with pytest.raises(find_browsers.BrowserMissing) as missing:
        find_browsers.firefox_path()
    assert "apt-get install -y firefox-esr" in str(missing.value)
    assert 'ENGINES="chromium webkit" make test' in str(missing.value)
    assert find_browsers.missing_packages(("chromium", "firefox", "webkit")) == [
        "chromium", "firefox-esr", "webkit2gtk-driver", "xvfb"]
    assert find_browsers.check(("firefox",)) == 1


def test_an_override_comes_first_then_path(bare, monkeypatch):
    on_path = executable(bare / "bin", "firefox")
    assert find_browsers.firefox_path() == on_path
    esr = executable(bare / "bin", "firefox-esr")
    assert find_browsers.firefox_path() == esr  # Debian's ESR before a plain firefox
    monkeypatch.setenv("FIREFOX_PATH", "/opt/firefox/firefox")
    assert find_browsers.firefox_path() == "/opt/firefox/firefox"


def test_webkit_needs_its_driver_its_browser_and_a_display(bare, monkeypatch):
    driver = executable(bare / "bin", "WebKitWebDriver")
    with pytest.raises(find_browsers.BrowserMissing, match="MiniBrowser"):
        find_browsers.webkit_paths()
    monkeypatch.setenv("MINIBROWSER_PATH", "/opt/webkit/MiniBrowser")
    with pytest.raises(find_browsers.BrowserMissing, match="Xvfb"):
        find_browsers.webkit_paths()
    xvfb = executable(bare / "bin", "Xvfb")
    assert find_browsers.webkit_paths() == find_browsers.WebKit(driver, "/opt/webkit/MiniBrowser", xvfb)
    assert find_browsers.missing_packages(("webkit",)) == []


def test_install_runs_apt_get_for_the_missing_engines_where_it_may(bare, monkeypatch):
    """`make test` on a fresh machine: as root (or with a password-less sudo) the missing engines'
    packages are installed, then checked; the found ones ask for nothing."""
    ran = []

    def apt(command, **kwargs):
        ran.append(command)
        if command[-1] == "firefox-esr":  # the install brings Firefox
            executable(bare / "bin", "firefox-esr")
        return type("Done", (), {"returncode": 0})()

    monkeypatch.setattr(find_browsers, "apt_prefix", lambda: ["sudo", "-n"])
    monkeypatch.setattr(find_browsers.subprocess, "run", apt)
    assert find_browsers.install(("firefox",)) == 0
    assert ran == [["sudo", "-n", "apt-get", "update", "-qq"],
                   ["sudo", "-n", "apt-get", "install", "-y", "-qq", "firefox-esr"]]
    ran.clear()
    assert find_browsers.install(("firefox",)) == 0 and ran == []


def test_install_without_the_right_to_stops_with_one_line_naming_the_command(bare, monkeypatch, capsys):
    monkeypatch.setattr(find_browsers, "apt_prefix", lambda: None)
    assert find_browsers.install(("chromium", "webkit")) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert "sudo apt-get install -y -qq chromium webkit2gtk-driver xvfb" in err
