"""Boiling water: the energy it takes, how long the kettle runs, what it costs.

Heating a mass m of water from T₁ to T₂ takes Q = m · c · (T₂ − T₁) of heat, with c water's
specific heat capacity (4181 J/(kg·K)). A kettle of power P that passes a share η of it into the
water (the rest warms the kettle and the kitchen) runs for t = Q / (η · P) and draws E = P · t =
Q / η from the mains, which the electricity bill counts in kilowatt-hours (1 kWh = 3.6 MJ).
"""

from __future__ import annotations

from typing import Any, Mapping

from course_calculators.spec import Calculator, Number, Output, Preset

from .constants import JOULES_PER_KWH, WATER_KG_PER_LITRE, WATER_SPECIFIC_HEAT

PARAMS = (
    Number("litres", "Water", 1, 0.1, 5, step=0.1, unit="L", integer=False),
    Number("start", "From", 15, 0, 99, unit="°C", help="The tap's temperature."),
    Number("target", "To", 100, 1, 100, unit="°C"),
    Number("power", "Kettle power", 2000, 300, 3000, step=50, unit="W"),
    Number("efficiency", "Heat that reaches the water", 90, 50, 100, unit="%",
           help="The rest warms the kettle and the air; an electric kettle passes about 80–90 %.", advanced=True),
    Number("price", "Electricity price", 0.30, 0.01, 1.00, step=0.01, unit="€ per kWh", integer=False),
    Number("per_day", "Boils a day", 3, 1, 20),
)

OUTPUTS = (
    Output("heat", "Heat into the water", "J", primary=True),
    Output("time", "Time to boil", "s", primary=True),
    Output("cost", "Cost of one boil", "EUR", primary=True, precision=3),
    Output("energy", "Electricity used", "kWh"),
    Output("yearly_cost", "A year of boils", "EUR"),
    Output("warming", "Temperature rise", "K"),
)

PRESETS = (
    Preset("one-cup", "One cup of tea", {"litres": 0.3, "start": 15, "target": 100, "power": 2000},
           "A cup's worth boils in about a minute; a full 1.7 L kettle takes almost six times as long."),
    Preset("full-kettle", "A full kettle", {"litres": 1.7, "start": 15, "target": 100, "power": 2000},
           "About 0.6 MJ of heat: the energy that would lift a one-tonne car 60 m."),
    Preset("coffee", "Water for coffee, not boiled", {"litres": 1, "start": 15, "target": 94, "power": 2000},
           "94 °C rather than 100 °C saves 7 % of the energy, the time and the money."),
)


def compute(inputs: Mapping[str, Any]):
    rise = inputs["target"] - inputs["start"]
    notes = []
    if rise <= 0:
        notes.append(f"The water is already at {inputs['start']} °C: there is nothing to heat to {inputs['target']} °C.")
        rise = 0
    heat = inputs["litres"] * WATER_KG_PER_LITRE * WATER_SPECIFIC_HEAT * rise
    drawn = heat / (inputs["efficiency"] / 100)
    energy = drawn / JOULES_PER_KWH
    cost = energy * inputs["price"]
    values = {
        "heat": heat,
        "time": drawn / inputs["power"],
        "cost": cost,
        "energy": energy,
        "yearly_cost": cost * inputs["per_day"] * 365,
        "warming": rise,
    }
    return values, notes


SPEC = Calculator(
    id="kettle",
    title="Boiling water",
    summary="The heat, time and cost of boiling water in an electric kettle.",
    params=PARAMS,
    outputs=OUTPUTS,
    presets=PRESETS,
    compute=compute,
)
