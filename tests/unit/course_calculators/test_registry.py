"""course_calculators/__init__.py: the registry and the worker's JSON entry point."""

from __future__ import annotations

import json

import pytest

import llm_inference
import course_calculators
from course_calculators.spec import Calculator, SpecError


def test_registry_holds_every_module_once():
    assert len(course_calculators.CALCULATORS) == len(llm_inference.MODULES)
    for calc_id, spec in course_calculators.CALCULATORS.items():
        assert isinstance(spec, Calculator) and spec.id == calc_id
        assert spec.module.startswith("llm_inference.")
    assert course_calculators.get("kv-cache").id == "kv-cache"


def test_unknown_id_names_the_known_ones():
    with pytest.raises(SpecError, match="kv-cache"):
        course_calculators.get("kv-cash")


def test_run_json_round_trip():
    out = json.loads(course_calculators.run_json("kv-cache", json.dumps({"context": "131072"})))
    assert out["raw"]["kv_bytes_total"] == str(16 * 2**30)
    assert out["text"]["kv_bytes_total"] == "16 GiB"
    assert out["notes"] == []


@pytest.mark.parametrize("raw_json", ["[]", "null", "42", '"context"', "{}"])
def test_run_json_non_object_means_defaults(raw_json):
    out = json.loads(course_calculators.run_json("kv-cache", raw_json))
    assert out["inputs"] == course_calculators.get("kv-cache").defaults()


def test_run_json_bad_values_become_notes_not_errors():
    # model "custom": a catalogue model would fill the shape over the reader's layers and KV heads
    raw = '{"model": "custom", "context": 1e400, "concurrency": NaN, "kv_heads": -Infinity, "gpu": null, "x": 1,' \
          ' "layers": 1' + "0" * 400 + "}"
    out = json.loads(course_calculators.run_json("kv-cache", raw))
    assert out["inputs"]["context"] == 8192 and out["inputs"]["concurrency"] == 1
    assert out["inputs"]["kv_heads"] == 8 and out["inputs"]["gpu"] == "h100-sxm"
    assert out["inputs"]["layers"] == 256  # a 401-digit integer: clamped (it used to raise OverflowError)
    conversion = [n for n in out["notes"] if not n.startswith("Custom shape:")]  # the rest: the book's own
    assert len(conversion) == 6
