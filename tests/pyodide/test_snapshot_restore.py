"""The built site's memory snapshot restores in Node every time, as the browser worker restores it
(its own readSnapshot, fillFromBase and withBaseFill; ``restore_snapshot.mjs``), and so does a
snapshot whose memory grew beyond the 30 MiB a fresh Pyodide module starts with.

Pyodide 314 copies a snapshot's memory into the module's without growing it first: a build whose
snapshot step outgrew the initial memory (its hash seed is random, and the calculators end within
a megabyte of it) made a snapshot that failed every restore with "offset is out of bounds"
until ``withBaseFill`` grew the memory.
"""

from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path

import pytest

import course_calculators
from course_calculators.plugin import snapshot
from tests.tools import need

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
pytestmark = pytest.mark.pyodide

#: How many fresh modules restore the built snapshot.
RESTORES = 6
#: The memory a freshly instantiated pyodide.asm.wasm has (its declared minimum, 480 pages).
INITIAL_MEMORY = 30 << 20


def one(directory: Path, pattern: str) -> Path:
    found = sorted(directory.glob(pattern))
    assert len(found) == 1, (pattern, found)
    return found[0]


def restore(packed: Path, stdlib: Path, count: int, *flags: str) -> list[dict]:
    proc = subprocess.run([need("node"), str(HERE / "restore_snapshot.mjs"), str(packed), str(stdlib), str(count), *flags],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def expected_results() -> dict[str, str]:
    return {calc_id: course_calculators.run_json(calc_id, "{}") for calc_id in course_calculators.CALCULATORS}


def assert_answers(results: list[dict]) -> None:
    want = {k: json.loads(v) for k, v in expected_results().items()}
    for i, result in enumerate(results):
        assert result["ok"], (i, result["error"])
        assert result["memory"] >= result["heap"], (i, result)
        assert {k: json.loads(v) for k, v in result["results"].items()} == want, i


@pytest.fixture(scope="module")
def assets(chapter_site) -> Path:
    return chapter_site[0] / "assets" / "pyodide"


def test_the_built_snapshot_restores_every_time(assets):
    results = restore(one(assets, "snapshot-*.bin.gz"), one(assets, "stdlib-snapshot-*.zip"), RESTORES)
    assert len(results) == RESTORES
    assert_answers(results)


def test_a_snapshot_whose_memory_grew_restores(assets, tmp_path):
    raw = tmp_path / "snapshot.bin"
    proc = subprocess.run([need("node"), str(HERE / "grown_snapshot.mjs"), str(one(assets, "*/*.whl")), str(raw)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    sizes = json.loads(proc.stdout)
    assert sizes["initial"] == INITIAL_MEMORY
    assert sizes["heap"] > INITIAL_MEMORY
    image = raw.read_bytes()
    packed = tmp_path / "snapshot.bin.gz"  # as plugin/snapshot.py packs it
    packed.write_bytes(gzip.compress(snapshot.pack(image, base=(raw.parent / "snapshot.bin.base").read_bytes(),
                                                   offset=snapshot.header_length(image)), mtime=0))
    stdlib = one(assets, "stdlib-snapshot-*.zip")
    results = restore(packed, stdlib, 2)
    assert [r["heap"] for r in results] == [sizes["heap"]] * 2
    assert_answers(results)
    # The control: restored as before, into the memory as instantiated, it fails as it did in
    # Chromium. (If Pyodide someday grows the memory itself, withBaseFill's growing can go.)
    [bare] = restore(packed, stdlib, 1, "--no-grow")
    assert not bare["ok"] and bare["memory"] == INITIAL_MEMORY
    assert "offset is out of bounds" in bare["error"]
