"""A failed run in one line (``course_calculators/failure.py``): the author's file and line inside
``compute()``, never the framework's frames; and ``compute()`` returning exactly its outputs."""

from __future__ import annotations

import json
import math

import pytest

import course_calculators
from course_calculators import failure
from course_calculators.spec import Calculator, Number, Output


def _compute(p):
    if p["x"] > 7:
        return {"y": 1 / 0}  # the line the failure names
    return {"y": p["x"]}


CALC = Calculator(id="fails-high", title="Fails high", params=(Number("x", "X", 2, 0, 10),),
                  outputs=(Output("y", "Y", "count"),), compute=_compute)
RAISING_LINE = _compute.__code__.co_firstlineno + 2


def test_an_exception_names_the_last_frame_inside_the_authors_package():
    with pytest.raises(ZeroDivisionError) as info:
        CALC.run({"x": 9})
    # this test module stands for an author's package ("tests")
    assert failure.author_frame(info.value, "tests.unit.course_calculators.test_failure") == \
        f"tests/unit/course_calculators/test_failure.py:{RAISING_LINE}"
    described = failure.describe(info.value, "tests.unit.course_calculators.test_failure")
    assert str(described) == f"tests/unit/course_calculators/test_failure.py:{RAISING_LINE}: ZeroDivisionError: division by zero"
    assert "Traceback" in described.trace and "\n" not in str(described)


def test_no_frame_of_the_package_gives_an_empty_place():
    try:
        json.loads("{")
    except ValueError as exc:
        assert failure.author_frame(exc, "my_calcs.double") == ""


@pytest.mark.parametrize("returned, words", [
    ({"y": 1, "z": 2}, ["['z']", "no output declares", "outputs: y"]),
    ({}, ["no value for ['y']"]),
    ({"y": math.nan}, ["'y' is not a finite number (nan)"]),
    ({"y": math.inf}, ["'y' is not a finite number (inf)"]),
    ([1], ["returned a list, not a dict"]),
])
def test_compute_returns_exactly_its_declared_outputs_each_finite(returned, words):
    calc = Calculator(id="wrong", title="Wrong", params=(Number("x", "X", 2, 0, 10),),
                      outputs=(Output("y", "Y", "count"),), compute=lambda p: returned)
    with pytest.raises(failure.RunFailure) as info:
        calc.run()
    assert info.value.where.endswith("test_failure.py:" + str(info.value.where.rsplit(":", 1)[1]))
    for word in words:
        assert word in str(info.value)


def _returns_an_extra_output(p):
    if p["x"] > 7:
        return {"y": 1}
    return {"y": 2,
            "z": 3}  # the return that is wrong: the failure points at its first line


def _one_return(p):
    out = {"y": p["x"]}
    out["z"] = 1
    return out  # the only return


@pytest.mark.parametrize("compute, line", [
    (_returns_an_extra_output, _returns_an_extra_output.__code__.co_firstlineno + 3),
    (_one_return, _one_return.__code__.co_firstlineno + 3),
])
def test_an_undeclared_output_points_at_the_return_that_gave_it(compute, line):
    calc = Calculator(id="extra", title="Extra", params=(Number("x", "X", 2, 0, 10),),
                      outputs=(Output("y", "Y", "count"),), compute=compute)
    with pytest.raises(failure.RunFailure) as info:
        calc.run()
    assert info.value.where == f"test_failure.py:{line}" or info.value.where.endswith(f"/test_failure.py:{line}")
    assert "['z'], which no output declares" in str(info.value)


def test_without_a_readable_return_the_def_line_is_named():
    def two(p):
        if p["x"]:
            return {"a": 1}
        return {"b": 2}
    assert failure.return_line(two, {"c": 1}) == failure.function_line(two)
    assert failure.return_line(two, {"b": 1}).endswith(f":{two.__code__.co_firstlineno + 3}")


def test_the_workers_entry_point_raises_the_failure_in_one_line_from_the_exception(monkeypatch):
    monkeypatch.setitem(course_calculators.CALCULATORS, CALC.id, CALC)
    with pytest.raises(failure.RunFailure) as info:
        course_calculators.run_json(CALC.id, json.dumps({"x": "9"}))
    assert str(info.value).endswith(f"test_failure.py:{RAISING_LINE}: ZeroDivisionError: division by zero")
    assert isinstance(info.value.__cause__, ZeroDivisionError)  # the traceback the console shows
    assert "y" in json.loads(course_calculators.run_json(CALC.id, json.dumps({"x": "3"})))["raw"]
