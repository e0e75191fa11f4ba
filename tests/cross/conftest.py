"""Firefox and WebKit: the smoke suite, written once and run on each engine.

The site is the session's build (``chapter_server`` in ``tests/conftest.py``). Each engine is
started once per session (``engines``), every test runs on Firefox and on WebKit (``engine``,
parametrized) and gets a page in a fresh profile (``session``). How each engine is found, and driven:
``scripts/find_browsers.py`` and ``scripts/browsers/``. ``ENGINES`` chooses the engines; a test of
an engine left out skips, saying so.

WebKit's driver reports no console messages: its sessions ask this suite's servers for the
console probe (``scripts/browsers/console_probe.py``), which every server here carries.
"""

from __future__ import annotations

import sys
from contextlib import ExitStack
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from browsers import launch  # noqa: E402
from browsers.console_probe import probe_hook  # noqa: E402
from find_browsers import selected_engines  # noqa: E402
from serving import StaticServer  # noqa: E402

ENGINES = ("firefox", "webkit")


@pytest.fixture(scope="session")
def site(chapter_server) -> StaticServer:
    """The chapter's server, with the console probe for the sessions that ask for it."""
    if probe_hook not in chapter_server.hooks:
        chapter_server.hooks.append(probe_hook)
    return chapter_server


@pytest.fixture(scope="session")
def engines():
    """Each engine started once per session, when a test first asks for it, and kept to the end:
    pytest would otherwise stop one and start the other at every switch of the parameter
    (each test file, at least)."""
    with ExitStack() as stack:
        running: dict = {}

        def get(name: str):
            if name not in running:
                running[name] = stack.enter_context(launch(name))
            return running[name]

        yield get


@pytest.fixture(params=ENGINES)
def engine(request, engines):
    if request.param not in selected_engines():
        pytest.skip(f"ENGINES leaves {request.param} out")
    return engines(request.param)


@pytest.fixture
def session(engine, site):
    s = engine.new_session()
    try:
        if s.engine == "webkit":
            s.watch_console(site.url)
        yield s
    finally:
        s.close()


@pytest.fixture
def serve_dir():
    """``serve_dir(folder)``: another server (another origin) with the probe; stopped at the end."""
    servers = []

    def start(folder: Path) -> StaticServer:
        server = StaticServer(folder)
        server.hooks.append(probe_hook)
        servers.append(server.start())
        return server

    yield start
    for server in servers:
        try:
            server.stop()
        except OSError:
            pass  # a test stopped it already (offline)
