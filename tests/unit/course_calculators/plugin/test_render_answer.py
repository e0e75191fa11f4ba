"""The widget HTML leads its results with the answer: the sentence, then the answer outputs; the
other outputs under their groups' headings, a group's bar with Python's shares as widths; the
empty "your scenario" line after the controls; each field of a scenario marked."""

from __future__ import annotations

import re

import course_calculators
from course_calculators.plugin import render
from llm_inference import answers, kv_cache


def html_of(calc_id: str) -> str:
    return render.widget(course_calculators.get(calc_id), dom_id=f"calc-{calc_id}")


def test_the_results_start_with_the_sentence_and_the_answer_outputs():
    html = html_of("kv-cache")
    results = html[html.index('class="calc__results"'):html.index("data-pin-bar")]
    sentence = re.search(r"<p class=\"calc__answer\" data-answer>([^<]+)</p>", results).group(1)
    assert sentence == kv_cache.SPEC.run().answer.replace("'", "&#39;")
    shown = re.findall(r'data-output="(\w+)"', results)
    assert shown == list(answers.KV_CACHE)


def test_the_other_outputs_sit_under_their_headings_in_order():
    html = html_of("kv-cache")
    headings = re.findall(r'<div class="calc__group" data-group="([^"]+)">', html)
    assert headings[:2] == [answers.MEMORY_PER_GPU, answers.WHAT_FITS] or headings[0] == answers.KV_SIZES
    assert set(headings) >= {answers.MEMORY_PER_GPU, answers.WHAT_FITS, answers.KV_SIZES, answers.COST}
    for name in answers.KV_CACHE:  # each answer output once, in the results
        assert html.count(f'data-output="{name}"') == 1


def test_the_memory_bar_carries_pythons_shares():
    html = html_of("kv-cache")
    bars = kv_cache.SPEC.run().bars[answers.MEMORY_PER_GPU]["parts"]
    widths = re.findall(r'data-bar-part="(\w+)" style="width: ([0-9.]+)%"', html)
    assert [(n, float(w)) for n, w in widths] == [(p["name"], p["share"]) for p in bars]


def test_an_optional_part_at_zero_has_no_legend_entry_in_the_page():
    html = html_of("kv-cache")  # LoRA off by default: its slice is 0, its legend entry hidden
    keys = dict(re.findall(r'<li data-bar-key="(\w+)"( hidden)?>', html))
    assert keys["lora_bytes_per_gpu"] == " hidden"
    assert all(not hidden for name, hidden in keys.items() if name != "lora_bytes_per_gpu")


def test_the_scenario_line_is_empty_hidden_and_after_the_controls():
    html = html_of("decode-roofline")
    form = html[html.index("<form"):html.index("</form>")]
    assert form.rstrip().endswith('<div class="calc__scenario" data-scenario-line hidden></div>')
    for name, scenario in (("context", "context"), ("batch", "concurrency"), ("config", "config")):
        assert re.search(rf'name="{name}"[^>]*data-scenario="{scenario}"', html), name
