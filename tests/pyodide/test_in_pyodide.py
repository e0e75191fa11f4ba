"""The calculators under real Pyodide (Node, from the npm package) give CPython's answers exactly."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import course_calculators
from tests.tools import need

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.pyodide


@pytest.fixture(scope="module")
def pyodide_results(chapter_site):
    node = need("node")
    site = chapter_site[0]
    proc = subprocess.run([node, str(ROOT / "tests/pyodide/run_calculators.mjs"), str(site)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def test_runs_in_webassembly(pyodide_results):
    assert pyodide_results["platform"] == "emscripten"


def test_every_case_matches_cpython(pyodide_results):
    cases = pyodide_results["cases"]
    expected_ids = set()
    for calc in course_calculators.CALCULATORS.values():
        expected_ids.add(f"{calc.id}:defaults")
        expected_ids.update(f"{calc.id}:{p.id}" for p in calc.presets)
        expected_ids.add(f"{calc.id}:garbage")
    assert set(cases) == expected_ids
    for key, got in cases.items():
        calc_id, _, case = key.partition(":")
        calc = course_calculators.get(calc_id)
        if case == "defaults":
            raw = {}
        elif case == "garbage":
            raw = {p.name: "<b>nan</b>" for p in calc.params}
        else:
            raw = dict(calc.preset(case).values)
        want = json.loads(json.dumps(course_calculators.run(calc_id, raw)))
        assert got == want, key


def test_reference_figures_in_pyodide(pyodide_results):
    cases = pyodide_results["cases"]
    assert cases["kv-cache:llama3-8b"]["text"]["kv_bytes_per_token"] == "128 KiB"
    assert cases["kv-cache:llama3-8b-128k"]["text"]["kv_bytes_total"] == "16 GiB"
    assert cases["kv-cache:gpt3-mha"]["text"]["kv_bytes_per_token"] == "4.5 MiB"
    assert cases["kv-cache:deepseek-v3-mla"]["raw"]["kv_bytes_per_token"] == "70272"
