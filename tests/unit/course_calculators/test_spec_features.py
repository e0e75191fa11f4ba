"""Spec features beyond plain parameters: per-output precision, free text, parameters one choice
fills (``fills`` + ``resolve``), chart details, and shared scenario parameters."""

from __future__ import annotations

import pytest

from course_calculators.spec import Calculator, Choice, Computed, Number, Output, SpecError, Text

SHAPES = {"small": {"layers": 4, "width": 2}, "large": {"layers": 8, "width": 5}}


def resolve(p):
    if p["model"] == "custom":
        return {}
    return SHAPES[p["model"]]


def area(p):
    return {"area": p["layers"] * p["width"]}


def make(**extra):
    return Calculator(
        id="shape", title="Shape",
        params=(Choice("model", "Model", "small", (("small", "Small"), ("large", "Large"), ("custom", "Custom")),
                       fills=("layers", "width"), custom="custom", scenario="model"),
                Number("layers", "Layers", 4, 1, 10), Number("width", "Width", 2, 1, 6)),
        outputs=(Output("area", "Area", "count"),), compute=area, resolve=resolve, **extra)


def test_a_choice_fills_the_parameters_it_names():
    calc = make()
    assert calc.run({"model": "large"}).inputs == {"model": "large", "layers": 8, "width": 5}
    assert calc.run({"model": "large"}).text["area"] == "40"
    # custom: the reader's own values stand
    assert calc.run({"model": "custom", "layers": 3, "width": 3}).values["area"] == 9


def test_resolved_values_are_checked_like_a_readers():
    calc = Calculator(
        id="shape", title="Shape",
        params=(Choice("model", "Model", "a", (("a", "A"), ("custom", "Custom")), fills=("layers",), custom="custom"),
                Number("layers", "Layers", 4, 1, 10)),
        outputs=(Output("area", "Area", "count"),), compute=lambda p: {"area": p["layers"]},
        resolve=lambda p: {"layers": 99})
    result = calc.run({"model": "a"})
    assert result.inputs["layers"] == 10 and any("above the maximum" in n for n in result.notes)


@pytest.mark.parametrize("kwargs, words", [
    (dict(fills=("nope",), custom="custom"), "not other parameters"),
    (dict(fills=("layers",)), "needs custom="),
])
def test_bad_fills_are_refused(kwargs, words):
    with pytest.raises(SpecError, match=words):
        Calculator(id="shape", title="Shape",
                   params=(Choice("model", "Model", "small", (("small", "S"), ("custom", "C")), **kwargs),
                           Number("layers", "Layers", 4, 1, 10)),
                   outputs=(Output("area", "Area", "count"),), compute=area, resolve=resolve)


def test_filling_parameters_needs_a_resolve_function():
    with pytest.raises(SpecError, match="needs a resolve function"):
        Calculator(id="shape", title="Shape",
                   params=(Choice("model", "Model", "small", (("small", "S"), ("custom", "C")), fills=("layers",),
                                  custom="custom"), Number("layers", "Layers", 4, 1, 10)),
                   outputs=(Output("area", "Area", "count"),), compute=area)


def test_text_parameters_take_text_and_cut_what_is_too_long():
    text = Text("config", "Pasted config.json", max_length=10)
    assert text.convert('{"a": 1}') == ('{"a": 1}', None)
    assert text.convert(None) == ("", None)
    cut, note = text.convert("x" * 20)
    assert cut == "x" * 10 and "cut" in note
    value, note = text.convert(12)
    assert value == "" and "not text" in note
    with pytest.raises(SpecError):
        Text("config", "Config", default="x" * 11, max_length=10)


@pytest.mark.parametrize("unit, precision, value, shown", [
    ("usd", 2, 496, "$496.00"), ("usd", 2, 61.95, "$61.95"), ("usd", 0, 61.95, "$62"),
    ("usd", 0, 1_234_567.4, "$1,234,567"), ("count", 1, 1234.56, "1,234.6"), ("ratio", 2, 3, "3.00×"),
    ("fraction", 1, 0.7, "70.0%"), ("usd", 2, -5, "−$5.00"),
])
def test_per_output_precision(unit, precision, value, shown):
    assert Output("x", "X", unit, precision=precision).text(value) == shown


def test_precision_only_where_it_means_something():
    with pytest.raises(SpecError, match="unit .bytes. takes no precision"):
        Output("x", "X", "bytes", precision=2)
    with pytest.raises(SpecError, match="integer from 0 to 6"):
        Output("x", "X", "usd", precision=9)


def test_chart_details_reach_a_chart_that_takes_them():
    seen = {}

    def compute(p):
        return Computed(values={"area": 1}, notes=["a note"], details={"steps": [1, 2, 3]})

    def chart(p, v, details):
        seen.update(details)
        return []

    calc = Calculator(id="d", title="D", params=(Number("x", "X", 1, 0, 2),), outputs=(Output("area", "A", "count"),),
                      compute=compute, chart=chart)
    result = calc.run({})
    assert seen == {"steps": [1, 2, 3]} and result.notes == ["a note"]
    assert "steps" not in result.values  # details are not outputs


def test_an_output_compute_leaves_none_is_shown_not_computed():
    """None is "not computed" (the notes say why), never a number from other inputs."""
    from course_calculators.spec import NOT_COMPUTED, Calculator, Number, Output

    def compute(p):
        if p["x"] > 5:
            return {"y": None, "ok": None, "name": None}, ["x above 5: nothing is computed."]
        return {"y": p["x"] * 2.0, "ok": True, "name": "twice"}

    calc = Calculator(
        id="none-demo", title="None", summary="Outputs may be not computed.",
        params=(Number("x", "X", 1, 0, 10),),
        outputs=(Output("y", "Y", "count"), Output("ok", "OK", "bool", words=("no", "yes")),
                 Output("name", "Name", "text")),
        compute=compute)
    shown = calc.run({"x": 7})
    assert shown.values == {"y": None, "ok": None, "name": None}
    assert set(shown.text.values()) == {NOT_COMPUTED} and set(shown.raw.values()) == {""}
    assert shown.notes == ["x above 5: nothing is computed."]
    assert calc.run({"x": 2}).text["y"] == "4"


# -- units that follow a choice (units.follow) -------------------------------------------------------

from course_calculators import units  # noqa: E402

R = 8.314462618  # J/(mol·K)


def _gas(p):
    # compute works in the choices' default units, whatever the reader picked: mol, L, K → kPa
    return {"pressure": p["n"] * R * p["temperature"] / p["volume"]}


def gas(**extra) -> Calculator:
    return Calculator(
        id="ideal-gas", title="Ideal gas",
        params=(Number("n", "Amount", 1, 0.01, 10, step=0.01, integer=False, unit="mol"),
                Number("volume", "Volume", 22.4, 0.1, 1000, step=0.1, integer=False, unit=units.follow("volume_unit")),
                Choice("volume_unit", "Volume in", "L", (("L", "litres"), ("m³", "cubic metres"))),
                Number("temperature", "Temperature", 273.15, 1, 1000, step=0.05, integer=False,
                       unit=units.follow("temperature_unit")),
                Choice("temperature_unit", "Temperature in", "K", (("K", "kelvin"), ("°C", "degrees Celsius"))),
                Choice("pressure_unit", "Pressure in", "kPa", (("kPa", "kPa"), ("atm", "atm"), ("bar", "bar")))),
        outputs=(Output("pressure", "Pressure", units.follow("pressure_unit"), primary=True),), compute=_gas, **extra)


def test_an_output_is_shown_in_the_unit_chosen_and_kept_in_computes_unit():
    calc = gas()
    default = calc.run()
    assert default.text["pressure"] == "101 kPa"
    for unit, text in (("atm", "1 atm"), ("bar", "1.01 bar")):
        result = calc.run({"pressure_unit": unit})
        assert result.text["pressure"] == text
        assert result.raw["pressure"] == default.raw["pressure"]  # data-value: compute's kPa, always


def test_an_input_is_typed_in_the_unit_chosen_and_computed_in_the_defaults():
    calc = gas()
    same = calc.run({"temperature_unit": "°C", "temperature": "0", "volume_unit": "m³", "volume": "0.0224"})
    assert same.values["pressure"] == pytest.approx(calc.run().values["pressure"])
    assert same.inputs["temperature"] == 0 and same.inputs["volume"] == 0.0224  # the form shows what was typed
    assert same.notes == []
    assert "temperature_unit=%C2%B0C" in same.pin and "temperature=0" in same.pin  # a link reads back the same
    from course_calculators.setting import Setting
    again = calc.run(base=Setting.from_query(same.pin))
    assert again.inputs == same.inputs and again.values == same.values


def test_the_range_is_checked_in_the_unit_chosen():
    calc = gas()
    hot = calc.run({"temperature_unit": "°C", "temperature": "5000"})  # 1000 K is 726.85 °C
    assert hot.inputs["temperature"] == 726.85
    assert hot.notes == ["Temperature: 5000 °C is above the maximum; using 726.85 °C."]
    cold = calc.run({"temperature_unit": "°C", "temperature": "-300"})
    assert cold.inputs["temperature"] == -272.15 and "below the minimum" in cold.notes[0]
    # the bound shown is itself in range: running it again says nothing
    assert calc.run({"temperature_unit": "°C", "temperature": str(hot.inputs["temperature"])}).notes == []


def test_a_fence_or_preset_out_of_range_in_the_unit_chosen_is_an_error_naming_the_range():
    with pytest.raises(SpecError, match=r"Temperature: 900 °C is above the maximum, an error: the range is "
                                        r"from -272\.15 °C to 726\.85 °C\."):
        gas().check_overrides({"temperature_unit": "°C", "temperature": "900"})
    from course_calculators.spec import Preset
    with pytest.raises(SpecError, match="preset 'hot': Temperature: 900 °C is above the maximum, an error"):
        gas(presets=(Preset("hot", "Hot", {"temperature_unit": "°C", "temperature": 900}),))


@pytest.mark.parametrize("params, words", [
    ((Number("v", "V", 1, 0, 2, integer=False, unit=units.follow("nowhere")),), "'nowhere', which is not a Choice"),
    ((Number("v", "V", 1, 0, 2, integer=False, unit=units.follow("u")),
      Choice("u", "U", "L", (("L", "litres"), ("kPa", "kPa")))), "not unit names of one quantity"),
])
def test_a_unit_must_follow_a_choice_of_units_of_one_quantity(params, words):
    with pytest.raises(SpecError, match=words):
        Calculator(id="bad-units", title="Bad", params=params, outputs=(Output("y", "Y", "number"),),
                   compute=lambda p: {"y": 1})


def test_a_followed_number_is_typed_not_slid():
    with pytest.raises(SpecError, match="integer=False and a linear scale"):
        Number("v", "V", 1, 0, 2, unit=units.follow("u"))  # integer by default
    with pytest.raises(SpecError, match="integer=False and a linear scale"):
        Number("v", "V", 1, 1, 2, integer=False, scale="log", unit=units.follow("u"))


def test_the_widget_types_a_followed_number_and_shows_the_chosen_units_text():
    from course_calculators.plugin import render

    page = render.widget(gas(), {"pressure_unit": "atm", "temperature_unit": "°C", "temperature": "0"},
                         dom_id="calc-gas")
    assert 'data-for="n"' in page  # a number in a fixed unit keeps its slider
    assert 'data-for="temperature"' not in page and 'data-for="volume"' not in page  # typed only
    import re
    assert re.search(r'name="temperature"[^>]* value="0(\.0)?"', page)  # as typed, in °C
    assert ">1 atm<" in page
