"""everyday_physics/kettle.py: Q = m·c·ΔT by hand, and the figures its presets' notices state."""

from __future__ import annotations

import pytest

from everyday_physics import kettle

SPEC = kettle.SPEC


def test_one_litre_from_tap_to_boiling_by_hand():
    values = SPEC.run({}).values  # 1 L, 15 → 100 °C, 2000 W, 90 %, €0.30 per kWh, 3 a day
    heat = 1.0 * 4181.3 * 85
    assert values["heat"] == pytest.approx(heat)
    assert values["time"] == pytest.approx(heat / 0.9 / 2000)
    assert values["energy"] == pytest.approx(heat / 0.9 / 3.6e6)
    assert values["cost"] == pytest.approx(heat / 0.9 / 3.6e6 * 0.30)
    assert values["yearly_cost"] == pytest.approx(values["cost"] * 3 * 365)
    text = SPEC.run({}).text
    assert (text["heat"], text["time"], text["cost"], text["energy"]) == ("355 kJ", "3.29 min", "€0.033", "110 Wh")


def test_water_already_hot_enough_needs_nothing_and_says_so():
    result = SPEC.run({"start": 90, "target": 60})
    assert result.values["heat"] == 0 and result.values["cost"] == 0
    assert any("nothing to heat" in note for note in result.notes)


def test_the_presets_say_what_they_show():
    cup = SPEC.run(SPEC.preset("one-cup").values).values
    full = SPEC.run(SPEC.preset("full-kettle").values).values
    coffee = SPEC.run(SPEC.preset("coffee").values).values
    boiled = SPEC.run({**SPEC.preset("coffee").values, "target": 100}).values
    assert 50 < cup["time"] < 70  # "about a minute"
    assert 5.5 < full["time"] / cup["time"] < 6  # "almost six times as long"
    assert full["heat"] / (1000 * 9.80665) == pytest.approx(60, rel=0.05)  # "lift a one-tonne car 60 m"
    assert round(full["heat"] / 1e6, 1) == 0.6
    assert round((1 - coffee["energy"] / boiled["energy"]) * 100) == 7  # "saves 7 %"
