"""Shared pytest setup: make the repository root importable, however pytest is started.

Kept minimal on purpose; suite-specific fixtures live in each suite's own conftest.py.
"""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
