"""Inline figures: ``{calc <id> <output> …}`` rendered by the calculators at build time."""

from __future__ import annotations

import json
import re

import markdown
import pytest

import course_calculators
from course_calculators.plugin import figures


def convert(text: str, page: str = "page.md") -> str:
    state = figures.PageFigures()
    state.start(page, text)
    return markdown.Markdown(extensions=[figures.FiguresExtension(lambda: state)]).convert(text)


def test_a_figure_is_the_calculators_own_text_and_raw_value():
    out = convert("A 128K sequence: {calc kv-cache kv_bytes_per_sequence preset=llama3-8b-128k}.")
    want = course_calculators.get("kv-cache").run(course_calculators.get("kv-cache").preset("llama3-8b-128k").values)
    m = re.search(r'data-value="(\d+)">([^<]+)</span>', out)
    assert m.groups() == (want.raw["kv_bytes_per_sequence"], want.text["kv_bytes_per_sequence"]) == ("17179869184", "16 GiB")


def test_overrides_apply_over_the_preset():
    out = convert("{calc kv-cache kv_bytes_per_token preset=llama3-8b kv_dtype=fp8}")
    assert ">64 KiB</span>" in out


def test_code_is_left_alone():
    text = "`{calc kv-cache kv_bytes_total}`\n\n```\n{calc kv-cache kv_bytes_total}\n```\n"
    assert "calc-figure" not in markdown.Markdown(extensions=["fenced_code", figures.FiguresExtension(
        lambda: figures.PageFigures())]).convert(text)


def test_a_following_figure_carries_its_inputs():
    out = convert("{calc kv-cache kv_bytes_total follow}")
    m = re.search(r'data-inputs="([^"]+)"', out)
    assert "data-follow" in out and json.loads(m.group(1).replace("&quot;", '"'))["context"] == 8192


@pytest.mark.parametrize("text, words", [
    ("x\n{calc no-such kv_bytes_total}", ["page.md:2", "unknown calculator id 'no-such'"]),
    ("{calc kv-cache nope}", ["page.md:1", "no output 'nope'"]),
    ("{calc kv-cache kv_bytes_total preset=nope}", ["unknown preset 'nope'"]),
    ("{calc kv-cache kv_bytes_total contxt=4}", ["Unknown parameter 'contxt'"]),
    ("{calc kv-cache kv_bytes_total context=lots}", ["'lots' is not a number"]),
])
def test_a_bad_figure_names_the_page_and_line(text, words):
    with pytest.raises(figures.FigureError) as info:
        convert(text)
    for word in words:
        assert word in str(info.value)
