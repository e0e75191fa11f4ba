"""The browser runtime's unit tests: ``tests/js/**/*.test.mjs``, run with Node's own test runner.

They mirror ``course_calculators/browser/`` (``tests/js/page/form.test.mjs`` tests
``browser/page/form.js``) and import its ES modules directly (``node --test``, ``node:assert``; no
npm test framework, no DOM: ``tests/js/fake-dom.mjs`` stands for the few elements a module reads).
Each file runs as one pytest test and fails with Node's report. The snapshot test also expands a
buffer written here by ``snapshot.py``'s own ``pack``.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
from pathlib import Path

import pytest

from course_calculators.plugin import snapshot
from tests.tools import need

HERE = Path(__file__).resolve().parent
FILES = sorted(p.relative_to(HERE).as_posix() for p in HERE.rglob("*.test.mjs"))


@pytest.fixture(scope="module")
def snapshot_fixture(tmp_path_factory) -> Path:
    """An image of 4 KiB pages, some zero, some not, with a short last page; and its packed form."""
    rng = random.Random(7)
    pages = [bytes(snapshot.PAGE) if rng.random() < 0.5 else rng.randbytes(snapshot.PAGE) for _ in range(40)]
    image = b"".join(pages) + rng.randbytes(123)
    out = tmp_path_factory.mktemp("snapshot")
    (out / "image.bin").write_bytes(image)
    (out / "packed.bin").write_bytes(snapshot.pack(image))
    # The diff form: a 40-byte prefix, then pages compared with a base shorter than the image.
    base = bytearray(image[40:40 + snapshot.PAGE * 30])
    base[5] ^= 1  # page 0 differs from the base; the other 29 of its pages are the image's
    (out / "base.bin").write_bytes(bytes(base))
    (out / "packed-diff.bin").write_bytes(snapshot.pack(image, base=bytes(base), offset=40))
    return out


def test_there_are_node_tests():
    assert FILES


@pytest.mark.parametrize("name", FILES)
def test_node(name, snapshot_fixture):
    node = need("node")
    proc = subprocess.run([node, "--test", str(HERE / name)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "SNAPSHOT_FIXTURE": str(snapshot_fixture), "NODE_NO_WARNINGS": "1"})
    report = proc.stdout + proc.stderr
    assert proc.returncode == 0, report
    counts = {k: int(v) for k, v in re.findall(r"^# (pass|fail|skipped|todo) (\d+)$", report, re.M)}
    assert counts.get("pass", 0) > 0 and counts.get("fail") == 0 and counts.get("skipped") == 0, report
