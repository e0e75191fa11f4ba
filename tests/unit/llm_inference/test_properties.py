"""Property tests over every calculator's whole parameter space (hypothesis, CPython).

Strategies come from the specs themselves — each Number's min/max/integer/log scale, each Choice's
words — so a parameter added tomorrow is covered without touching this file. Properties:

* any input in range: ``run()`` never raises, takes the input as given, every numeric output is a
  finite number, every text free of NaN/Infinity/undefined/null, the result strict JSON;
* raw junk (what a URL or a number field can carry): a note naming the parameter and the
  default (or the clamped bound) used instead, and still a valid, finite result;
* monotonic where the physics says so (more context, more KV; more bandwidth, more tokens/s; a
  higher cache hit, a lower bill; ...): ``test_properties_monotonic.py`` and, for kv-cache,
  ``test_properties_monotonic_kv_cache.py``. Three files, not one: ``make test`` gives each test
  file whole to one of its two workers, and this one file was the longest job of the run.

Runs are reproducible (``derandomize=True``, no example database) and bounded: about 4,000
examples in all, ~15 s on one core.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import course_calculators
from llm_inference.models import CATALOGUE
from course_calculators.spec import NOT_COMPUTED, Calculator, Choice, Number, Text

CALCS = list(course_calculators.CALCULATORS.values())
IDS = [c.id for c in CALCS]

#: Shared settings: reproducible in CI, no wall-clock deadline (a slow CI box is not a bug).
PROPERTY = settings(max_examples=100, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
#: The monotonic properties hold in a regime (a layout vLLM accepts, both outputs computed), which
#: most draws of the whole space miss: filtering is their design, so hypothesis is told not to fail
#: on it (it keeps drawing, up to its own limit, until it has the examples).
MONOTONIC = settings(PROPERTY, max_examples=60,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

#: Words a number never turns into on a page ("Infinity Fabric", AMD's interconnect, is a name).
BAD_WORDS = re.compile(r"\b(nan|inf|infinity(?! fabric)|undefined|null)\b", re.IGNORECASE)

#: Raw strings no parameter accepts: each must be refused with a note.
JUNK = [
    "NaN", "nan", "-nan", "inf", "+inf", "-inf", "Infinity", "-Infinity", "infinity",
    "0x1F", "0b101", "0o17", "1e999", "-1e999", "1e1000", "", " ", "\t\n",
    "<img src=x onerror=alert(1)>", "<script>window.__pwned=1</script>", "\"><svg onload=alert(1)>",
    "javascript:alert(1)", "1_000", "1,000", "12abc", "--1", ".", "e5", "1 000", "None", "null",
    "undefined", "true", "[]", "{}", "%3Cimg%3E", "\u00a0", "\u2212" "5", "½", "٫5",
]
#: Raw strings that are numbers after all (stripped, other scripts' digits, an exponent that
#: underflows to 0): each is either taken as its number, or clamped/refused with a note.
MAYBE_NUMBERS = [" 42 ", "42\n", "١٢", "１２", "1e-999", "-0", "+0.5", "1e3", "99999999999999999999", "-5"]


# -- strategies drawn from the specs ------------------------------------------------------------


#: Texts a pasted config.json may hold: none, published configs, and JSON that cannot be read.
CONFIG_TEXTS = ["", *(json.dumps(CATALOGUE[m].config) for m in ("llama-3.1-8b", "deepseek-v3", "gemma-3-27b",
                                                                  "qwen2.5-7b")),
                '{"num_hidden_layers": 32,', "[]", '{"hidden_size": 4096}']


def value_strategy(param: Number | Choice | Text) -> st.SearchStrategy:
    """Any value the parameter accepts, with its bounds and default likely."""
    if isinstance(param, Text):
        return st.sampled_from(CONFIG_TEXTS)
    if isinstance(param, Choice):
        return st.sampled_from(param.values)
    lo, hi = param.min, param.max
    edges = st.sampled_from([lo, hi, param.default])
    if param.integer:
        lo, hi = int(lo), int(hi)
        plain = st.integers(lo, hi)
        if param.scale == "log":  # log-uniform, so small contexts are drawn as often as large ones
            logs = st.floats(math.log(lo), math.log(hi)).map(lambda x: min(hi, max(lo, round(math.exp(x)))))
            plain = st.one_of(plain, logs)
        return st.one_of(edges.map(int), plain)
    plain = st.floats(lo, hi, allow_nan=False, allow_infinity=False)
    if param.scale == "log":
        plain = st.one_of(plain, st.floats(math.log(lo), math.log(hi)).map(lambda x: min(hi, max(lo, math.exp(x)))))
    return st.one_of(edges.map(float), plain)


def coherent(calc: Calculator, raw: dict[str, Any]) -> dict[str, Any]:
    """``raw`` as a reader's setting: the fields a chosen model fills left to it, a pasted config
    applied last (it fills the model too). Without this, almost every drawn setting would set a
    shape field beside its model, which makes the model custom (the filled-field rule, tested on
    its own below): the space of catalogue models would go untested."""
    out = dict(raw)
    for filler in calc.fillers.values():
        if filler.name in out and isinstance(filler, Choice) and filler.fills_now(filler.convert(out[filler.name])[0]):
            for name in filler.fills:
                out.pop(name, None)
    for filler in calc.fillers.values():
        if isinstance(filler, Text) and filler.name in out:
            out[filler.name] = out.pop(filler.name)
    return out


def inputs_strategy(calc: Calculator) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({p.name: value_strategy(p) for p in calc.params}).map(lambda raw: coherent(calc, raw))


def junk_strategy(calc: Calculator) -> st.SearchStrategy[dict[str, str]]:
    """Raw junk for a non-empty subset of the parameters."""
    names = [p.name for p in calc.params]
    return st.dictionaries(st.sampled_from(names), st.sampled_from(JUNK + MAYBE_NUMBERS), min_size=1)


def custom(calc: Calculator) -> dict[str, str]:
    """Inputs that leave a calculator's model to the reader (no catalogue model fills the shape)."""
    return {"model": "custom"} if "model" in calc.param_map else {}


def filled_names(calc: Calculator, inputs: dict[str, Any]) -> set[str]:
    """Parameters a model or a pasted config filled in this run (``inputs`` as resolved)."""
    names: set[str] = set()
    for param in calc.params:
        if isinstance(param, Choice) and param.fills and inputs[param.name] != param.custom:
            names.update(param.fills)
        if isinstance(param, Text) and param.fills and inputs[param.name].strip():
            names.update(param.fills)
    return names


# -- checks shared by every property ------------------------------------------------------------


def check_result(calc: Calculator, result, *, check_notes: bool = True) -> dict[str, Any]:
    """Every output finite (or a word), every text clean, the whole result strict JSON."""
    outputs = calc.output_map
    for name, value in result.values.items():
        out = outputs[name]
        raw, text = result.raw[name], result.text[name]
        if value is None:  # not computed (a refused config, a layout not modelled): the notes say why
            assert raw == "" and text == NOT_COMPUTED, (name, raw, text)
            assert result.notes, name
            continue
        if out.unit == "bool":
            assert raw in ("0", "1"), (name, raw)
        elif out.unit == "text":
            assert isinstance(value, str) and value.strip(), (name, value)
        else:
            assert not isinstance(value, bool) and math.isfinite(value), (name, value)
            assert math.isfinite(float(raw)), (name, raw)
        for shown in (raw, text):
            assert not BAD_WORDS.search(shown), (name, shown)
            assert "None" not in shown, (name, shown)
    if check_notes:  # notes about junk echo the junk; the others must be clean
        for note in result.notes:
            assert not BAD_WORDS.search(note), note
    data = result.to_dict()
    text = json.dumps(data, allow_nan=False)
    assert json.loads(text) == data
    for chart in data["charts"]:
        for series in chart["series"]:
            numbers = [v for point in series["points"] for v in point] if chart["kind"] == "xy" else series["values"]
            assert all(v is None or math.isfinite(v) for v in numbers)
    return data


# -- the whole parameter space ------------------------------------------------------------------


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_any_input_in_range_runs_clean(calc):
    @PROPERTY
    @given(inputs_strategy(calc))
    def prop(raw):
        result = calc.run(raw)
        filled = filled_names(calc, result.inputs)
        for name, value in raw.items():  # in range: taken as given (unless a model filled it), no conversion note
            if name not in filled:
                assert result.inputs[name] == value
        param_labels = tuple(p.label + ":" for p in calc.params)
        assert not [n for n in result.notes if n.startswith(param_labels)], result.notes
        check_result(calc, result)
        for out in calc.outputs:
            if result.values[out.name] is None:
                continue
            if out.unit == "fraction":
                assert -1e-12 <= result.values[out.name] <= 1 + 1e-12, (out.name, result.values[out.name])
            elif out.unit not in ("bool", "text", "ratio"):
                assert result.values[out.name] >= 0, (out.name, result.values[out.name])

    prop()


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_browser_strings_take_the_same_path(calc):
    """The worker gets every field as a string (``el.value``) through ``run_json``: same answer."""

    @settings(PROPERTY, max_examples=40)
    @given(inputs_strategy(calc))
    def prop(raw):
        as_strings = {k: (repr(v) if isinstance(v, float) else str(v)) for k, v in raw.items()}
        out = json.loads(course_calculators.run_json(calc.id, json.dumps(as_strings)))
        assert out == json.loads(json.dumps(calc.run(raw).to_dict()))

    prop()


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_junk_is_refused_with_a_note_and_a_valid_value(calc):
    @PROPERTY
    @given(junk_strategy(calc))
    def prop(raw):
        setting = coherent(calc, {**custom(calc), **raw})
        result = calc.run(setting)
        check_result(calc, result, check_notes=False)
        params = calc.param_map
        filled = filled_names(calc, result.inputs)
        for name, junk in raw.items():
            if name not in setting:  # left to the model the junk chose
                continue
            param = params[name]
            value = result.inputs[name]
            expected, note = param.convert(junk)
            if isinstance(param, Text):  # any text is text: a config that cannot be read says so
                assert value == junk and note is None
                assert not junk.strip() or any(n.startswith("config.json:") for n in result.notes)
                continue
            if name in filled:  # a model (the junk model's default) filled it
                continue
            assert value == expected
            if isinstance(param, Choice):
                assert value == param.default and note in result.notes
                continue
            assert param.min <= value <= param.max and math.isfinite(value)
            assert type(value) is (int if param.integer else float)
            if junk in JUNK:
                assert note is not None and note in result.notes, (junk, result.notes)
                assert note.startswith(param.label + ": ") and "not a" in note
                assert value == param.convert(param.default)[0]
            elif note is None:  # a number after all, taken as given
                assert value == float(junk.strip())
            else:
                assert note in result.notes

    prop()


FILLING = [(c, f) for c in CALCS for f in c.fillers.values() if isinstance(f, Choice)]


@pytest.mark.parametrize("calc,filler", FILLING, ids=[f"{c.id}-{f.name}" for c, f in FILLING])
def test_a_filled_field_set_beside_its_filler_is_the_readers(calc, filler):
    """The filled-field rule over the whole space: a field set after the choice that fills it, to
    another value than the one filled, is taken as given; the choice turns custom, with a note,
    and the other fields keep the choice's values."""
    numbers = [calc.param_map[n] for n in filler.fills if isinstance(calc.param_map[n], Number)]

    @PROPERTY
    @given(st.sampled_from([v for v in filler.values if v != filler.custom]), st.data())
    def prop(choice, data):
        param = data.draw(st.sampled_from(numbers))
        value = data.draw(value_strategy(param))
        chosen = calc.run({filler.name: choice})
        result = calc.run({filler.name: choice, param.name: value})
        assert result.inputs[param.name] == param.convert(value)[0]
        if result.inputs[param.name] == chosen.inputs[param.name]:
            assert result.inputs[filler.name] == choice  # the value the choice fills changes nothing
            return
        assert result.inputs[filler.name] == filler.custom
        assert any(n.startswith(f"{param.label}: ") and " set beside " in n for n in result.notes), result.notes
        others = [n for n in filler.fills if n != param.name]
        assert {n: result.inputs[n] for n in others} == {n: chosen.inputs[n] for n in others}
        check_result(calc, result)

    prop()


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_out_of_range_numbers_are_clamped_with_a_note(calc):
    numbers = [p for p in calc.params if isinstance(p, Number)]

    @PROPERTY
    @given(st.data())
    def prop(data):
        param = data.draw(st.sampled_from(numbers))
        span = param.max - param.min + 1
        raw = data.draw(st.one_of(
            st.floats(param.max + span * 1e-3, 1e300), st.floats(-1e300, param.min - span * 1e-3),
            st.integers(int(param.max) + 1, 10**400), st.integers(-(10**400), math.floor(param.min) - 1),
        ))
        # A decimal string beyond the float range ('1' and 400 zeros) overflows to infinity and is
        # refused as not finite (like '1e999'); an int object that large is clamped.
        as_text = isinstance(raw, int) and abs(raw) < 10**300 and data.draw(st.booleans())
        result = calc.run({**custom(calc), param.name: str(raw) if as_text else raw})
        bound = param.max if raw > param.max else param.min
        assert result.inputs[param.name] == (int(bound) if param.integer else float(bound))
        word = "maximum" if raw > param.max else "minimum"
        assert any(n.startswith(param.label + ": ") and word in n for n in result.notes), result.notes
        check_result(calc, result, check_notes=False)

    prop()


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_every_preset_runs_clean(calc):
    for preset in calc.presets:
        result = calc.run(preset.values)
        assert all(result.inputs[k] == calc.param_map[k].convert(v)[0] for k, v in preset.values.items())
        check_result(calc, result)


def test_unknown_keys_are_ignored_with_a_note():
    for calc in CALCS:
        result = calc.run({"no_such_param": "1", "<b>x</b>": "2"})
        assert result.inputs == calc.defaults()
        assert [n for n in result.notes if n.startswith("Unknown parameter")] == [
            "Unknown parameter 'no_such_param' ignored.", "Unknown parameter '<b>x</b>' ignored."
        ]


def test_run_json_survives_any_json():
    for calc in CALCS:
        for payload in ("[]", "null", "1", '"x"', '{"a": [1, 2]}', '{"' + calc.params[0].name + '": {"x": 1}}'):
            out = json.loads(course_calculators.run_json(calc.id, payload))
            assert set(out) == {"inputs", "inputs_text", "raw", "text", "notes", "charts", "pin", "changed", "slider",
                                "answer", "bars", "scenario"}
        # A pin is any text a link may carry: a bad one is a note, never a failure.
        for pin in ("%%", "=&=", "preset=nope&x=1", "default", calc.params[0].name + "=<b>"):
            out = json.loads(course_calculators.run_json(calc.id, json.dumps({"pin": pin})))
            assert set(out["compare"]["outputs"]) == {o.name for o in calc.outputs}
        out = json.loads(course_calculators.run_json(calc.id, json.dumps({"pin": 5})))
        assert "compare" not in out
