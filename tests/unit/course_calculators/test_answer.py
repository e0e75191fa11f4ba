"""A calculator's answer: one sentence computed in Python, the outputs shown with it, the other
outputs under their groups' headings, and stacked bars whose shares Python computes."""

from __future__ import annotations

import pytest

from course_calculators.spec import NOT_COMPUTED, Bar, Calculator, Number, Output, SpecError


def compute(p):
    if p["x"] < 0:
        return {"a": None, "b": None, "c": 1.0}
    return {"a": p["x"] * 2.0, "b": 10.0 - p["x"], "c": 1.0}


OUTS = (Output("a", "A", "number", group="Parts"), Output("b", "B", "number", group="Parts"),
        Output("c", "C", "number", group="Other", primary=True))


def sentence(p, v, t):
    if v["a"] is None:
        return f"A {NOT_COMPUTED}: x is negative."
    return f"A is {t['a']} and B is {t['b']}."


def calc(**kw):
    base = dict(id="t", title="T", params=(Number("x", "X", 2, -5, 10, integer=False),), outputs=OUTS,
                compute=compute)
    return Calculator(**{**base, **kw})


def test_the_sentence_uses_the_outputs_text_and_travels_in_the_result():
    c = calc(answer=sentence, answers=("a", "b"), bars=(Bar("Parts", ("a", "b"), names=("first", "second")),))
    r = c.run({"x": 2})
    assert r.answer == f"A is {r.text['a']} and B is {r.text['b']}."
    assert r.to_dict()["answer"] == r.answer
    parts = r.bars["Parts"]["parts"]
    assert [(p["name"], p["label"], p["share"]) for p in parts] == [("a", "first", 33.3), ("b", "second", 66.7)]
    assert "first" in r.bars["Parts"]["summary"] and "66.7 %" in r.bars["Parts"]["summary"]


def test_not_computed_gives_a_sentence_without_a_number_and_an_empty_bar():
    c = calc(answer=sentence, answers=("a",), bars=(Bar("Parts", ("a", "b")),))
    r = c.run({"x": -1})
    assert r.answer == f"A {NOT_COMPUTED}: x is negative." and not any(ch.isdigit() for ch in r.answer)
    assert r.bars["Parts"] == {"parts": [], "summary": f"Parts: {NOT_COMPUTED}."}


def test_a_negative_part_counts_as_nothing():
    r = calc(bars=(Bar("Parts", ("a", "b")),)).run({"x": 10})  # b = 0
    assert [p["share"] for p in r.bars["Parts"]["parts"]] == [100.0, 0.0]


def test_answer_outputs_come_first_and_the_rest_by_group():
    c = calc(answers=("b",))
    assert [o.name for o in c.answer_outputs] == ["b"]
    assert [(g, [o.name for o in outs]) for g, outs in c.output_groups()] == [("Parts", ["a"]), ("Other", ["c"])]
    assert [o.name for o in calc().answer_outputs] == ["c"]  # without answers: the primary ones


@pytest.mark.parametrize("kw, message", [
    ({"answers": ("nope",)}, "answers names"),
    ({"answers": ("a", "a")}, "answers names"),
    ({"answer": "text"}, "answer must be a function"),
    ({"bars": (Bar("Nope", ("a", "b")),)}, "names no output group"),
    ({"bars": (Bar("Parts", ("a", "zz")),)}, "which are not outputs"),
    ({"bars": (Bar("Parts", ("a", "b")), Bar("Parts", ("b", "a")))}, "one bar per group"),
])
def test_a_wrong_answer_or_bar_fails_the_spec(kw, message):
    with pytest.raises(SpecError, match=message):
        calc(**kw)


def test_a_bar_needs_two_parts_and_one_word_each():
    with pytest.raises(SpecError):
        Bar("Parts", ("a",))
    with pytest.raises(SpecError):
        Bar("Parts", ("a", "b"), names=("one",))


def test_a_bar_of_two_units_fails():
    outs = (Output("a", "A", "bytes", group="G"), Output("b", "B", "seconds", group="G"))
    with pytest.raises(SpecError, match="different units"):
        Calculator(id="t", title="T", params=(), outputs=outs, compute=lambda p: {"a": 1, "b": 1},
                   bars=(Bar("G", ("a", "b")),))


def test_an_empty_sentence_is_refused_at_the_first_run():
    with pytest.raises(ValueError, match="must return a sentence"):
        calc(answer=lambda p, v, t: "").run({})


def test_a_group_is_a_short_heading():
    with pytest.raises(SpecError, match="short heading"):
        Output("a", "A", "number", group="x" * 61)


def test_an_optional_part_at_zero_keeps_its_share_but_leaves_the_legend_and_the_summary():
    bar = Bar("Parts", ("a", "b"), optional=("b",))
    hidden = calc(bars=(bar,)).run({"x": 10}).bars["Parts"]  # b = 0
    assert [(p["name"], p["share"], p["shown"]) for p in hidden["parts"]] == [("a", 100.0, True), ("b", 0.0, False)]
    assert "B" not in hidden["summary"]
    shown = calc(bars=(bar,)).run({"x": 5}).bars["Parts"]  # b = 5
    assert all(p["shown"] for p in shown["parts"]) and "B" in shown["summary"]
    # a part that is not optional is in the legend at 0 too
    assert all(p["shown"] for p in calc(bars=(Bar("Parts", ("a", "b")),)).run({"x": 10}).bars["Parts"]["parts"])


def test_optional_names_only_parts_of_the_bar():
    with pytest.raises(SpecError, match="optional"):
        Bar("Parts", ("a", "b"), optional=("c",))
    with pytest.raises(SpecError, match="optional"):
        Bar("Parts", ("a", "b"), optional="b")
