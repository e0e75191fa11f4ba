"""Pin and compare: a pin's grammar, and the pinned outputs and ratios Python computes."""

from __future__ import annotations

import json

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
