"""The spec (course_calculators/calculator.py, params.py, outputs.py): input conversion, spec
validation, specs and results as plain data."""

from __future__ import annotations

import dataclasses
import json
import math

import course_calculators

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llm_inference import kv_cache
from course_calculators.spec import (
    Calculator,
    Chart,
    Choice,
    Number,
    Output,
    Preset,
    Result,
    SpecError,
)

# A stand-alone copy of kv-cache's context parameter and a float parameter, so that the tests of
# conversion do not change when a calculator's spec is tuned.
CONTEXT = Number("context", "Context length", 8192, 1, 1048576, unit="tokens", scale="log")
LATENT = Number("latent_dim", "MLA latent rank", 512, 0, 8192)
PARAMS_B = Number("params_b", "Parameters", 8, 0.1, 2000, step=0.1, unit="B", integer=False)
ATTENTION = Choice("attention", "Attention", "gqa", (("gqa", "GQA / MHA / MQA"), ("mla", "MLA (latent)")))


def _compute(p):
    return {"double": p["x"] * 2, "ok": p["x"] > 0}


def make_calc(**overrides) -> Calculator:
    """A small valid calculator; keyword arguments replace any of its fields."""
    fields = dict(
        id="toy-calc",
        title="Toy",
        params=(Number("x", "X", 5, 0, 10), Choice("mode", "Mode", "a", (("a", "A"), ("b", "B")))),
        outputs=(Output("double", "Double", "count"), Output("ok", "OK", "bool")),
        compute=_compute,
        presets=(Preset("high", "High", {"x": 9, "mode": "b"}),),
    )
    fields.update(overrides)
    return Calculator(**fields)


# ----------------------------------------------------------------------------------------------
# Number.convert
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, expected",
    [(1, 1), (8192, 8192), (1048576, 1048576), ("131072", 131072), (" 42 ", 42), ("42\n", 42),
     (4096.0, 4096), ("4096.0", 4096), ("1e3", 1000), ("+17", 17), ("2.5e+2", 250)],
)
def test_number_in_range_is_taken_as_is(raw, expected):
    value, note = CONTEXT.convert(raw)
    assert value == expected
    assert type(value) is int
    assert note is None


def test_float_param_in_range_is_taken_as_is():
    assert PARAMS_B.convert("70.6") == (70.6, None)
    assert PARAMS_B.convert(0.1) == (0.1, None)
    value, note = PARAMS_B.convert(8)
    assert (value, note) == (8.0, None) and type(value) is float


@pytest.mark.parametrize(
    "raw, expected, word",
    [(0, 1, "minimum"), (-5, 1, "minimum"), ("-1", 1, "minimum"), (0.4, 1, "minimum"),
     (2_000_000, 1048576, "maximum"), ("1e6", 1000000, None), ("1e7", 1048576, "maximum"),
     (2**63, 1048576, "maximum"), (1e308, 1048576, "maximum"),
     # ints beyond the float range: out of range, not a crash (OverflowError before the fix)
     (10**400, 1048576, "maximum"), (-(10**400), 1, "minimum")],
    ids=lambda v: repr(v)[:16],
)
def test_number_out_of_range_is_clamped_with_a_note(raw, expected, word):
    value, note = CONTEXT.convert(raw)
    assert value == expected
    assert type(value) is int
    if word is None:
        assert note is None
    else:
        assert note.startswith("Context length: ")
        assert word in note
        assert CONTEXT.display(expected) in note


NOT_A_NUMBER = [
    "abc", "", "   ", None, True, False, "nan", "NaN", "inf", "-Infinity", float("nan"), float("inf"),
    float("-inf"), "0x10", "1e999", "-1e999", "<script>alert(1)</script>", "1_000", "1,000", "12abc",
    "1e1000", "--1", ".", "e5", "1 000", "4 2", [], {}, object(),
]


@pytest.mark.parametrize("raw", NOT_A_NUMBER, ids=lambda r: "object()" if type(r) is object else repr(r)[:30])
def test_not_a_number_is_rejected_and_the_default_used(raw):
    value, note = CONTEXT.convert(raw)
    assert value == 8192 and type(value) is int
    assert note is not None
    assert note.startswith("Context length: ")
    assert "not a" in note  # "is not a number" / "is not a finite number"
    assert note.endswith("using 8,192 tokens.")


@pytest.mark.parametrize("raw", ["", "   ", None])
def test_empty_value_note(raw):
    assert CONTEXT.convert(raw)[1] == "Context length: an empty value is not a number; using 8,192 tokens."


def test_non_finite_notes_say_finite():
    for raw in (float("nan"), float("inf"), "1e999"):
        assert "not a finite number" in CONTEXT.convert(raw)[1]


def test_tiny_exponent_is_a_finite_zero():
    # '1e-999' parses to 0.0: a finite number, clamped where 0 is out of range, taken where it is in.
    value, note = CONTEXT.convert("1e-999")
    assert value == 1 and "minimum" in note
    assert LATENT.convert("1e-999") == (0, None)
    assert PARAMS_B.convert("1e-999")[0] == 0.1


def test_markup_is_echoed_as_plain_truncated_text():
    raw = "<script>alert(1)</script>" * 4
    value, note = CONTEXT.convert(raw)
    assert value == 8192
    assert "'<script>alert(1)</scrip…'" in note  # quoted, cut to 24 characters
    assert len(note) < 100


def test_unicode_digits_are_a_number():
    # \d and float() both accept other scripts' decimal digits ('١٢' is 12), in CPython and Pyodide alike.
    assert CONTEXT.convert("١٢") == (12, None)


def test_underscore_digits_are_not_python_literals():
    # float('1_000') == 1000.0 in Python; the spec takes plain decimals only, the same in every runtime.
    assert float("1_000") == 1000.0
    assert CONTEXT.convert("1_000")[0] == 8192


@pytest.mark.parametrize("raw", ["4.5", 4.5])
def test_non_integer_for_integer_param_is_rounded_with_a_note(raw):
    value, note = CONTEXT.convert(raw)
    assert type(value) is int
    assert value in (4, 5)  # today 4: Python's round() goes half to even (the same in Pyodide)
    assert note == f"Context length: {raw!r} rounded to {value} tokens."


@pytest.mark.parametrize("raw, expected", [("4.4", 4), ("4.6", 5), (1000.2, 1000), ("7.0", 7)])
def test_rounding_direction(raw, expected):
    value, note = CONTEXT.convert(raw)
    assert value == expected
    assert (note is None) == (float(raw) == expected)


def test_float_param_is_not_rounded():
    assert PARAMS_B.convert("4.5") == (4.5, None)


def test_bool_is_not_a_number_even_though_it_is_an_int():
    assert LATENT.convert(True) == (512, "MLA latent rank: True is not a number; using 512.")
    assert LATENT.convert(False)[0] == 512


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=40), st.floats(), st.integers(min_value=-(10**400), max_value=10**400),
                 st.none(), st.booleans(), st.decimals(allow_nan=True).map(str)))
def test_convert_never_raises_and_stays_in_range(raw):
    for param in (CONTEXT, LATENT, PARAMS_B):
        value, note = param.convert(raw)
        assert param.min <= value <= param.max
        assert math.isfinite(value)
        assert type(value) is (int if param.integer else float)
        if note is None:  # taken as given: the value is the input's number
            assert not isinstance(raw, bool)
            assert float(raw.strip() if isinstance(raw, str) else raw) == value
        else:
            assert note.startswith(param.label + ": ")


# ----------------------------------------------------------------------------------------------
# Choice.convert
# ----------------------------------------------------------------------------------------------


def test_choice_known_word_taken():
    assert ATTENTION.convert("mla") == ("mla", None)
    assert ATTENTION.convert(" gqa ") == ("gqa", None)


@pytest.mark.parametrize("raw", ["mha", "", None, "GQA", 1, True, "<b>mla</b>", "gqa,mla"])
def test_choice_unknown_word_gives_default_with_note(raw):
    value, note = ATTENTION.convert(raw)
    assert value == "gqa"
    assert note.startswith("Attention: ")
    assert "not a known choice" in note
    assert note.endswith("using gqa.")


def test_choice_display_and_values():
    assert ATTENTION.values == ["gqa", "mla"]
    assert ATTENTION.display("mla") == "MLA (latent)"


# ----------------------------------------------------------------------------------------------
# Calculator.convert / check_overrides
# ----------------------------------------------------------------------------------------------


def test_unknown_parameter_is_ignored_with_a_note():
    calc = make_calc()
    values, notes = calc.convert({"x": 3, "nope": 7})
    assert values == {"x": 3, "mode": "a"}
    assert notes == ["Unknown parameter 'nope' ignored."]


def test_convert_overlays_defaults_and_collects_every_note():
    calc = make_calc()
    assert calc.defaults() == {"x": 5, "mode": "a"}
    values, notes = calc.convert({"x": "99", "mode": "zzz"})
    assert values == {"x": 10, "mode": "a"}
    assert len(notes) == 2


@pytest.mark.parametrize(
    "overrides", [{"nope": 1}, {"x": 11}, {"x": "abc"}, {"x": 2.5}, {"mode": "c"}, {"x": None}]
)
def test_check_overrides_raises_on_any_note(overrides):
    with pytest.raises(SpecError):
        make_calc().check_overrides(overrides)


def test_check_overrides_returns_values_when_clean():
    assert make_calc().check_overrides({"x": "7", "mode": "b"}) == {"x": 7, "mode": "b"}
    assert make_calc().check_overrides({}) == {"x": 5, "mode": "a"}


def test_kv_cache_check_overrides_on_real_spec():
    values = kv_cache.SPEC.check_overrides({"context": "131072", "gpu": "h200"})
    assert values["context"] == 131072 and values["gpu"] == "h200"
    with pytest.raises(SpecError, match="Unknown parameter"):
        kv_cache.SPEC.check_overrides({"contxt": 131072})


# ----------------------------------------------------------------------------------------------
# Invalid specs
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(name="x", label="X", default=11, min=0, max=10),  # default above range
        dict(name="x", label="X", default=-1, min=0, max=10),  # default below range
        dict(name="X", label="X", default=1, min=0, max=10),  # not snake_case
        dict(name="my-x", label="X", default=1, min=0, max=10),
        dict(name="x", label="X", default=float("nan"), min=0, max=10),
        dict(name="x", label="X", default=1, min=0, max=float("inf")),
        dict(name="x", label="X", default=True, min=0, max=10),
        dict(name="x", label="X", default="1", min=0, max=10),
        dict(name="x", label="X", default=1, min=0, max=10, step=0),
        dict(name="x", label="X", default=1, min=0, max=10, scale="log"),  # log needs min > 0
        dict(name="x", label="X", default=1, min=1, max=10, scale="cubic"),
        dict(name="x", label="X", default=1.5, min=0, max=10),  # integer param, non-integer default
    ],
)
def test_invalid_number_spec(kwargs):
    with pytest.raises(SpecError):
        Number(**kwargs)


def test_invalid_choice_spec():
    with pytest.raises(SpecError, match="not one of"):
        Choice("c", "C", "z", (("a", "A"), ("b", "B")))
    with pytest.raises(SpecError, match="duplicate"):
        Choice("c", "C", "a", (("a", "A"), ("a", "A again")))
    with pytest.raises(SpecError):
        Choice("Bad Name", "C", "a", (("a", "A"),))


def test_unknown_output_unit():
    with pytest.raises(SpecError, match="unknown unit"):
        Output("distance", "Distance", "parsecs")
    with pytest.raises(SpecError):
        Output("Bad-name", "X", "bytes")


def test_duplicate_names():
    with pytest.raises(SpecError, match="duplicate parameter names"):
        make_calc(params=(Number("x", "X", 5, 0, 10), Number("x", "X again", 5, 0, 10)))
    with pytest.raises(SpecError, match="duplicate parameter names"):
        make_calc(params=(Number("x", "X", 5, 0, 10), Choice("x", "X", "a", (("a", "A"),))))
    with pytest.raises(SpecError, match="duplicate output names"):
        make_calc(outputs=(Output("double", "D", "count"), Output("double", "D2", "count")))
    with pytest.raises(SpecError, match="duplicate preset ids"):
        make_calc(presets=(Preset("p", "P", {"x": 1}), Preset("p", "P", {"x": 2})))


@pytest.mark.parametrize("bad_id", ["", "Toy", "toy_calc", "toy calc", "-toy", "toy-", "toy--calc", "1toy"])
def test_bad_calculator_id(bad_id):
    with pytest.raises(SpecError, match="kebab-case"):
        make_calc(id=bad_id)


@pytest.mark.parametrize(
    "values", [{"x": 11}, {"x": "abc"}, {"nope": 1}, {"mode": "c"}, {"x": 2.5}, {"x": float("nan")}]
)
def test_preset_with_bad_values(values):
    with pytest.raises(SpecError, match="preset 'bad'"):
        make_calc(presets=(Preset("bad", "Bad", values),))


def test_preset_with_bad_id():
    with pytest.raises(SpecError, match="kebab-case"):
        make_calc(presets=(Preset("Bad_Preset", "Bad", {"x": 1}),))


def test_unknown_preset_lookup():
    calc = make_calc()
    assert calc.preset("high").values == {"x": 9, "mode": "b"}
    with pytest.raises(SpecError, match="unknown preset"):
        calc.preset("nope")


# ----------------------------------------------------------------------------------------------
# run(): outputs are checked
# ----------------------------------------------------------------------------------------------


def test_run_formats_every_output():
    result = make_calc().run({"x": 3})
    assert result.values == {"double": 6, "ok": True}
    assert result.text == {"double": "6", "ok": "yes"}
    assert result.raw == {"double": "6", "ok": "1"}
    assert result.notes == []


def test_run_rejects_missing_and_non_finite_outputs():
    with pytest.raises(ValueError, match="no value"):
        make_calc(compute=lambda p: {"double": 1}).run()
    with pytest.raises(ValueError, match="finite"):
        make_calc(compute=lambda p: {"double": float("nan"), "ok": True}).run()
    with pytest.raises(ValueError, match="finite"):
        make_calc(compute=lambda p: {"double": True, "ok": True}).run()


def test_run_keeps_compute_notes_after_conversion_notes():
    calc = make_calc(compute=lambda p: ({"double": 0, "ok": False}, ["from compute"]))
    assert calc.run({"x": "abc"}).notes[-1] == "from compute"
    assert len(calc.run({"x": "abc"}).notes) == 2


def test_chart_rejects_non_finite_values():
    chart = Chart("line", "T", "x", "y", ["a", "b"], [{"name": "s", "values": [1.0, float("inf")]}])
    with pytest.raises(ValueError, match="non-finite"):
        chart.to_dict()
    ok = Chart("grid", "T", "x", "y", ["a", "b"], [{"name": "s", "values": [1, None]}])
    assert ok.to_dict()["series"] == [{"name": "s", "values": [1, None], "states": ["held", "free"], "hues": [47, None]}]


# ----------------------------------------------------------------------------------------------
# Specs and results as plain data
# ----------------------------------------------------------------------------------------------


def _is_plain(data) -> bool:
    if isinstance(data, dict):
        return all(isinstance(k, str) and _is_plain(v) for k, v in data.items())
    if isinstance(data, list):
        return all(_is_plain(v) for v in data)
    return data is None or isinstance(data, (str, int, float, bool))


def test_kv_cache_spec_exact_values():
    params = kv_cache.SPEC.param_map
    context = params["context"]
    assert (context.kind, context.name, context.label, context.default, context.min, context.max, context.step,
            context.unit, context.help, context.integer, context.scale, context.advanced) == (
        "number", "context", "Context length", 8192, 1, 1048576, 1, "tokens", "Tokens per sequence: vLLM's max_model_len.",
        True, "log", False)
    assert params["attention"].kind == "choice"
    assert params["attention"].default == "gqa"
    assert [list(c) for c in params["attention"].choices] == [["gqa", "GQA / MHA / MQA"], ["mla", "MLA (latent)"]]
    assert params["kv_dtype"].values == ["bf16", "fp16", "fp8", "fp8_e4m3", "fp8_e5m2", "int8_per_token_head",
                                         "fp8_per_token_head", "int4_per_token_head", "nvfp4", "fp8_ds_mla",
                                         "nvfp4_ds_mla"]  # vLLM's --kv-cache-dtype layouts
    assert params["params_b"].integer is False
    out = kv_cache.SPEC.output_map["kv_bytes_per_token"]
    assert (out.name, out.label, out.unit, out.help) == ("kv_bytes_per_token", "KV cache per token", "bytes", "")
    assert kv_cache.SPEC.output_map["fits"].unit == "bool"
    presets = {p.id: p for p in kv_cache.SPEC.presets}
    assert set(presets) >= {"llama3-8b", "llama3-8b-128k", "gpt3-mha", "deepseek-v3-mla"}
    assert presets["llama3-8b-128k"].values["context"] == 131072
    assert json.loads(json.dumps(dict(presets["llama3-8b"].values), allow_nan=False)) == dict(presets["llama3-8b"].values)


def test_widget_contract_names_exist_in_kv_cache():
    names = set(kv_cache.SPEC.param_map)
    assert names >= {"layers", "kv_heads", "head_dim", "attention", "latent_dim", "rope_dim", "kv_dtype",
                     "context", "concurrency", "params_b", "weight_dtype", "gpu", "gpus"}
    outputs = set(kv_cache.SPEC.output_map)
    assert outputs >= {"kv_bytes_per_token", "kv_bytes_total", "weight_bytes", "total_bytes", "fits"}


@pytest.mark.parametrize("preset", [None] + [p.id for p in kv_cache.SPEC.presets])
def test_result_to_dict_is_strict_json(preset):
    raw = kv_cache.SPEC.preset(preset).values if preset else {}
    result = kv_cache.SPEC.run(raw)
    assert isinstance(result, Result)
    data = result.to_dict()
    assert set(data) == {"inputs", "inputs_text", "raw", "text", "notes", "charts", "pin", "changed", "slider", "answer",
                         "bars", "scenario"}
    assert set(data["inputs_text"]) == set(data["inputs"]) == set(kv_cache.SPEC.param_map)
    assert _is_plain(data)
    text = json.dumps(data, allow_nan=False)
    assert json.loads(text) == data
    assert set(data["raw"]) == set(data["text"]) == {o.name for o in kv_cache.SPEC.outputs}
    assert all(isinstance(v, str) for v in data["raw"].values())


def test_result_to_dict_with_bad_input_still_strict_json():
    data = kv_cache.SPEC.run({"context": "NaN", "gpu": "<img>", "bogus": 1}).to_dict()
    json.dumps(data, allow_nan=False)
    assert data["inputs"]["context"] == 8192 and data["inputs"]["gpu"] == "h100-sxm"
    assert len(data["notes"]) == 3


# ----------------------------------------------------------------------------------------------
# Invalid specs fail at definition time, naming the problem
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(default=5, min=10, max=0), "min 10 must be below max 0"),
        (dict(default=5, min=5, max=5), "min 5 must be below max 5"),
        (dict(default=5, min=0, max=10, step=0.5), "integer step"),
        (dict(default=5, min=0, max=10, label=""), "label must be a non-empty string"),
        (dict(default=5, min=0, max=10, label=None), "label must be a non-empty string"),
        (dict(default=11, min=0, max=10), "default 11 is outside [0, 10]"),
        (dict(default=1, min=0, max=10, step=-1), "step must be positive"),
    ],
)
def test_invalid_number_spec_names_the_problem(kwargs, words):
    fields = {"name": "x", "label": "X", **kwargs}
    with pytest.raises(SpecError) as info:
        Number(**fields)
    assert "parameter 'x'" in str(info.value)
    assert words in str(info.value)


def test_float_step_is_fine_for_a_float_parameter():
    assert Number("x", "X", 0.5, 0, 1, step=0.05, integer=False).step == 0.05


@pytest.mark.parametrize(
    "choices, words",
    [
        ((), "non-empty sequence"),
        ([], "non-empty sequence"),
        ("ab", "non-empty sequence"),
        ({"a": "A"}, "non-empty sequence"),
        (("a", "b"), "not a (value, label) pair"),
        ((("a", "A", "extra"),), "not a (value, label) pair"),
        ((("", "Empty"),), "must be a non-empty word"),
        (((" a", "Spaced"),), "must be a non-empty word"),
        (((1, "One"),), "must be a non-empty word"),
        ((("a", ""),), "label of choice 'a'"),
    ],
)
def test_invalid_choice_list(choices, words):
    with pytest.raises(SpecError, match="parameter 'c'") as info:
        Choice("c", "C", "a", choices)
    assert words in str(info.value)


def test_invalid_output_fields():
    with pytest.raises(SpecError, match="output 'o': label"):
        Output("o", "", "bytes")
    with pytest.raises(SpecError, match="output 'o': words"):
        Output("o", "O", "bool", words=("no",))
    with pytest.raises(SpecError, match="output 'o': words"):
        Output("o", "O", "bool", words=("", "yes"))


def test_invalid_preset_fields():
    with pytest.raises(SpecError, match="preset id 'Bad Preset' must be kebab-case"):
        Preset("Bad Preset", "Bad", {})
    with pytest.raises(SpecError, match="preset 'p': label"):
        Preset("p", " ", {})
    with pytest.raises(SpecError, match="preset 'p': values must be a mapping"):
        Preset("p", "P", [("x", 1)])


@pytest.mark.parametrize(
    "overrides, words",
    [
        (dict(title=""), "toy-calc: title must be a non-empty string"),
        (dict(params=(Number("x", "X", 5, 0, 10), "mode")), "params holds a str ('mode'), not a Number, Choice or Text"),
        (dict(params={"x": Number("x", "X", 5, 0, 10)}), "params must be a sequence"),
        (dict(outputs=(Output("double", "D", "count"), {"name": "ok"})), "outputs holds a dict"),
        (dict(outputs=()), "at least one output"),
        (dict(presets=({"x": 1},)), "presets holds a dict"),
        (dict(compute="x * 2"), "compute must be a function"),
        (dict(chart="line"), "chart must be a function"),
    ],
)
def test_invalid_calculator_fields(overrides, words):
    with pytest.raises(SpecError) as info:
        make_calc(**overrides)
    assert words in str(info.value)


def test_duplicate_names_are_named():
    with pytest.raises(SpecError, match="duplicate parameter names: x$"):
        make_calc(params=(Number("x", "X", 5, 0, 10), Number("x", "X again", 5, 0, 10)))
    with pytest.raises(SpecError, match="duplicate output names: double$"):
        make_calc(outputs=(Output("double", "D", "count"), Output("double", "D2", "count")))


def test_preset_naming_an_unknown_parameter_says_which_and_suggests():
    with pytest.raises(SpecError) as info:
        make_calc(presets=(Preset("bad", "Bad", {"mdoe": "b"}),))
    message = str(info.value)
    assert message.startswith("toy-calc: preset 'bad': Unknown parameter 'mdoe'")
    assert "did you mean 'mode'?" in message and "known: x, mode" in message
    assert "ignored" not in message  # at definition time nothing is ignored: it is an error


def test_preset_with_an_out_of_range_value_says_it_is_an_error_and_the_range():
    # Fatal, so never worded as a correction ("using 10"): the build uses nothing, it stops.
    with pytest.raises(SpecError) as info:
        make_calc(presets=(Preset("bad", "Bad", {"x": 11}),))
    message = str(info.value)
    assert message.startswith("toy-calc: preset 'bad': X: 11 is above the maximum, an error: the range is from ")
    assert "using" not in message


def test_refusals_name_the_range_or_the_choices():
    calc = make_calc()
    x = calc.param_map["x"]
    assert x.refusal(x.default) is None
    assert x.refusal(-5).startswith("X: -5 is below the minimum, an error: the range is from ")
    assert x.refusal("abc").startswith("X: 'abc' is not a number, an error")
    assert calc.param_map["mode"].refusal("c") == "Mode: 'c' is not a known choice, an error: the choices are a, b."


def test_check_overrides_reports_every_problem_at_once():
    with pytest.raises(SpecError) as info:
        make_calc().check_overrides({"zzz": 1, "x": "abc", "mode": "c"})
    message = str(info.value)
    assert "Unknown parameter 'zzz': known: x, mode." in message  # nothing close: no suggestion
    assert "X: 'abc' is not a number" in message
    assert "Mode: 'c' is not a known choice" in message


def test_chart_reading_an_unknown_output_names_it():
    calc = make_calc(chart=lambda p, v: Chart("line", "T", "x", "y", ["a"], [{"name": "s", "values": [v["tripled"]]}]))
    with pytest.raises(SpecError, match="toy-calc: chart\\(\\) reads 'tripled', which is neither a parameter nor an output"):
        calc.run()


def test_compute_reading_an_unknown_parameter_names_it():
    calc = make_calc(compute=lambda p: {"double": p["y"] * 2, "ok": True})
    with pytest.raises(SpecError, match="toy-calc: compute\\(\\) reads 'y', which is not a parameter; parameters: x, mode"):
        calc.run()


def test_other_key_errors_in_compute_stay_key_errors():
    table = {"a": 1}
    calc = make_calc(compute=lambda p: {"double": table[p["mode"]] + table["b"], "ok": True})
    with pytest.raises(KeyError) as info:  # a bug in a lookup table, not in the spec: left as it is
        calc.run({"mode": "a"})
    assert not isinstance(info.value, SpecError)


def test_compute_and_chart_see_plain_mappings():
    seen = {}

    def chart(p, v):
        seen.update(p=p.get("nope", "default"), v=dict(v))
        return []

    result = make_calc(chart=chart).run({"x": 2})
    assert seen == {"p": "default", "v": {"double": 4, "ok": True}}
    assert type(result.inputs) is dict


def test_every_shipped_spec_passes_the_checks():

    for calc in course_calculators.CALCULATORS.values():
        assert Calculator(**{f.name: getattr(calc, f.name) for f in dataclasses.fields(Calculator)}) == calc
