"""The integration layer: real ``mkdocs build`` and ``serve`` runs, Node.js steps (the snapshot, the
math, the bundles), ``make`` — every test here builds or runs something besides Python. Each needs
Node.js and ``node_modules`` (a site build runs Node); a missing one fails the test saying what to
install (``tests/tools.py``)."""

from __future__ import annotations

import pytest

from tests.tools import need_build_tools

pytestmark = pytest.mark.integration


@pytest.fixture(autouse=True, scope="session")
def _build_tools():
    need_build_tools()
