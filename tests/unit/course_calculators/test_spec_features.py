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
