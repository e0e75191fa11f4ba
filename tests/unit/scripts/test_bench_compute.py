"""``bench/compute.py`` without timing anything that matters: its cases cover every preset and the
hardest inputs, and its table has a row per calculator (the figures themselves are ``make bench``'s)."""

from __future__ import annotations

import sys
from pathlib import Path

import course_calculators

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))

from bench import compute  # noqa: E402


def test_cases_are_every_preset_and_the_hardest_inputs():
    calc = course_calculators.get("unit-economics")
    names = [name for name, _ in compute.cases(calc)]
    assert names[:len(calc.presets)] == [p.id for p in calc.presets]
    assert names[len(calc.presets):] == ["hardest 1", "hardest 2"]
    for _, raw in compute.cases(calc):
        calc.run(raw)  # the hardest inputs stay valid inputs


def test_table_has_a_row_per_calculator():
    results = compute.measure(course_calculators.CALCULATORS.values(), repeats=1)
    table = compute.markdown(results)
    for cid, r in results.items():
        assert f"| `{cid}` | {r['cases']} |" in table
        assert r["slowest_ms"] >= r["median_ms"] >= 0
