"""Pin and compare: a pin's grammar, and the pinned outputs and ratios Python computes."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest

import course_calculators
from course_calculators import compare, contract
from course_calculators.spec import Number, Output, SpecError, Calculator

KV = course_calculators.get("kv-cache")


def test_a_pin_is_a_query_of_the_inputs_that_differ_from_the_defaults():
    inputs = KV.run({"context": 131072, "concurrency": 4}).inputs
    assert compare.encode(KV, inputs) == "context=131072&concurrency=4"
    assert compare.encode(KV, KV.defaults()) == compare.DEFAULTS
    assert compare.decode(KV, "context=131072&concurrency=4") == ([("context", "131072"), ("concurrency", "4")], [])
    assert compare.decode(KV, compare.DEFAULTS) == ([], [])


def test_a_pin_may_start_from_a_preset_and_override_it():
    raw, notes = compare.decode(KV, "preset=llama3-8b-128k&concurrency=2")
    assert raw == [*KV.preset("llama3-8b-128k").values.items(), ("concurrency", "2")] and notes == []
    raw, notes = compare.decode(KV, "preset=nope&context=4096")
    assert raw == [("context", "4096")] and "no preset 'nope'" in notes[0]


def test_the_ratio_is_live_over_pinned_of_the_raw_values():
    live = KV.run({"context": 131072})
    out = compare.compare(KV, live, "context=8192")
    pinned = KV.run({"context": 8192})
    total = out["outputs"]["kv_bytes_total"]
    assert total["raw"] == pinned.raw["kv_bytes_total"] and total["text"] == pinned.text["kv_bytes_total"]
    assert float(total["ratio"]) == live.values["kv_bytes_total"] / pinned.values["kv_bytes_total"] == 16
    assert total["ratio_text"] == "16×"
    # A verdict has no ratio: it is the same or it differs.
    assert out["outputs"]["fits"]["ratio"] == "" and out["outputs"]["fits"]["ratio_text"] in ("same", "differs")
    assert out["differs"] == [{"name": "context", "label": "Context length", "pinned": "8,192 tokens",
                               "live": "131,072 tokens"}]
    # The defaults are the llama3-8b preset: the pin is named after it.
    assert out["summary"] == "Pinned: Llama 3 8B. Now: Context length 8,192 tokens → 131,072 tokens."


def test_a_pin_equal_to_a_preset_is_named_after_it():
    preset = KV.preset("llama3-8b-128k")
    out = compare.compare(KV, KV.run(preset.values), "preset=llama3-8b-128k")
    assert out["preset"] == preset.label
    assert out["summary"] == f"Pinned: {preset.label}. The live setting is the same."
    assert all(o["ratio_text"] in ("1×", "same") for o in out["outputs"].values())


def test_the_comparison_gives_the_pins_canonical_form():
    """A page pins inputs nothing has computed yet as its form holds them (every field, in
    order): the comparison's ``pin`` is the canonical pin of that setting, which replaces it."""
    live = KV.run({"context": "5000"})
    form = {name: str(value) for name, value in live.inputs.items()}
    out = compare.compare(KV, live, urlencode(form))
    assert out["pin"] == live.pin == "context=5000"
    assert out["summary"] == "Pinned. The live setting is the same."
    assert compare.compare(KV, live, "context=08192")["pin"] == compare.DEFAULTS


@pytest.mark.parametrize("live, pinned, expected", [(2, 1, 2.0), (0, 0, 1.0), (1, 0, None), (True, 1, None),
                                                    ("a", "b", None), (float("inf"), 1, None)])
def test_ratio(live, pinned, expected):
    assert compare.ratio(live, pinned) == expected


def test_run_json_takes_the_pin_as_a_reserved_input():
    out = json.loads(course_calculators.run_json("kv-cache", json.dumps({"context": "131072", "pin": "context=8192"})))
    assert out["compare"]["outputs"]["kv_bytes_total"]["ratio_text"] == "16×"
    assert not any("pin" in note for note in out["notes"])  # no "Unknown parameter 'pin'"
    out = json.loads(course_calculators.run_json("kv-cache", json.dumps({"pin": "bogus=1"})))
    assert out["compare"]["notes"] == ["Pinned: Unknown parameter 'bogus' ignored."]


@pytest.mark.parametrize("name", contract.RESERVED_NAMES)
def test_no_parameter_may_take_a_reserved_name(name):
    with pytest.raises(SpecError, match="reserved"):
        Calculator(id="x", title="X", params=(Number(name, "P", 1, 0, 2),), outputs=(Output("y", "Y", "count"),),
                   compute=lambda p: {"y": 1})


# -- the pinned setting's curves on the live charts ------------------------------------------------


def test_the_pinned_curves_are_drawn_beside_the_live_ones():
    out = course_calculators.run("kv-cache", {"context": 65536, contract.PIN_KEY: "context=8192"})
    live = KV.run({"context": 65536}).charts
    pinned = KV.run({"context": 8192}).charts
    line = out["charts"][0]
    assert line["series"][:len(live[0]["series"])] == live[0]["series"]  # the live series first, unchanged
    added = line["series"][len(live[0]["series"]):]
    assert added and all(s["pinned"] is True and s["name"].endswith(compare.PINNED_SUFFIX) for s in added)
    # each pinned curve is the pinned run's own, taking the colour of the live series it pins
    curves = [s for s in pinned[0]["series"] if s.get("kind", "line") in compare.PINNED_KINDS]
    assert [s["values"] for s in added if s.get("kind", "line") != "rule"] == [s["values"] for s in curves]
    assert [s["like"] for s in added if s.get("kind", "line") != "rule"] == [
        [x["name"] for x in live[0]["series"]].index(s["name"]) for s in curves]
    # the same GPU: its memory rule is the same and is not drawn twice
    assert not any(s.get("kind") == "rule" for s in added)
    # without a pin the charts are the live ones alone
    assert course_calculators.run("kv-cache", {"context": 65536})["charts"] == live


def test_a_pinned_rule_is_drawn_where_it_differs():
    out = course_calculators.run("kv-cache", {"gpu": "a100-40g", contract.PIN_KEY: "gpu=h100-sxm"})
    rules = [s for s in out["charts"][0]["series"] if s.get("kind") == "rule"]
    assert [s.get("pinned", False) for s in rules] == [False, True]


def test_charts_on_other_axes_and_simulations_take_no_pinned_series():
    live = {"kind": "line", "title": "T", "x_label": "x", "y_label": "y", "labels": ["a", "b"], "y_log": False,
            "x_log": False, "series": [{"name": "s", "values": [1, 2]}]}
    other = {**live, "labels": ["a", "c"]}
    assert compare.overlay([live], [other]) == [live]
    assert compare.overlay([live], [{**live, "y_label": "z"}]) == [live]
    assert compare.overlay([live], []) == [live]
    player = {**live, "frames": [{"label": "Step 0", "summary": ""}]}
    assert compare.overlay([player], [player]) == [player]
    grid = {**live, "kind": "grid"}
    assert compare.overlay([grid], [grid]) == [grid]
    both = compare.overlay([live], [live])[0]
    assert [s["name"] for s in both["series"]] == ["s", "s (pinned)"] and both["series"][1]["like"] == 0


def test_the_build_draws_a_fence_pin_on_its_picture():
    from course_calculators.plugin import render

    html = render.widget(KV, {"context": 65536}, dom_id="calc-kv", pin="context=8192")
    assert "calc-svg__pinned" in html and "(pinned)" in html
    assert "calc-svg__pinned" not in render.widget(KV, {"context": 65536}, dom_id="calc-kv")
