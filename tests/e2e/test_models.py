"""Your model, your GPUs, in Chromium: a published model by name, a pasted config.json, a shape
the reader edits, the scenario shared by every calculator of the chapter, measured points on the
roofline, and the engine-true figures the issue names."""

from __future__ import annotations

import json

import pytest

import course_calculators
from llm_inference.models import CATALOGUE
from e2e_helpers import output, reveal, settle, wait_ready

pytestmark = pytest.mark.e2e

KV = "inference/kv-cache/"
KV_ROOT = '.calc[data-calc="kv-cache"]'


def choose(page, root: str, name: str, value: str) -> None:
    reveal(page, root, name)
    page.select_option(f'{root} select[name="{name}"]', value)


#: The reader's scenario as page/scenario.js stores it: {scenario: value}.
STORED = "() => JSON.parse(localStorage.getItem('calculators-scenario') || '{}').values || {}"


def field(page, root: str, name: str) -> str:
    return page.input_value(f'{root} [name="{name}"]:not([type=range])')


def test_a_model_by_name_fills_its_shape_and_an_edit_makes_it_custom(page, base_url):
    page.goto(base_url + KV)
    wait_ready(page, "kv-cache")
    choose(page, KV_ROOT, "model", "llama-3.1-70b")
    settle(page, "kv-cache")
    assert output(page, "kv-cache", "kv_bytes_per_token") == ("327680", "320 KiB")
    assert field(page, KV_ROOT, "layers") == "80"
    assert "Llama" in output(page, "kv-cache", "model_name")[1]
    stored = page.evaluate(STORED)  # the model carries its shape: none of it is stored
    assert stored["model"] == "llama-3.1-70b" and "layers" not in stored and "heads" not in stored
    # Editing a filled shape turns the choice to custom, and Python keeps the reader's value.
    reveal(page, KV_ROOT, "layers")  # the shape is folded under "More parameters"
    page.fill(f'{KV_ROOT} input[type=number][name="layers"]', "40")
    page.press(f'{KV_ROOT} input[type=number][name="layers"]', "Tab")
    settle(page, "kv-cache")
    assert field(page, KV_ROOT, "model") == "custom"
    assert field(page, KV_ROOT, "layers") == "40"
    assert output(page, "kv-cache", "kv_bytes_per_token") == ("163840", "160 KiB")
    # Shared as Python's answer says: the custom model carries nothing, the reader's shape itself
    # (the 70B's other fields with it), so the next page computes the same shape.
    stored = page.evaluate(STORED)
    assert "model" not in stored and stored["layers"] == "40" and stored["heads"] == "64", stored
    page.click('nav.md-nav--primary a[href$="two-phases/"]')
    page.wait_for_function("() => location.pathname.endsWith('/two-phases/')")
    wait_ready(page, "decode-roofline")
    settle(page, "decode-roofline")
    root = '.calc[data-calc="decode-roofline"]'
    assert (field(page, root, "model"), field(page, root, "layers"), field(page, root, "heads")) == ("custom", "40", "64")
    assert page.watch.errors == []


def test_deepseek_v3_on_eight_h200s_at_128k_holds_about_five_sequences(page, base_url):
    page.goto(base_url + KV)
    wait_ready(page, "kv-cache")
    page.click(f'{KV_ROOT} button[data-preset="deepseek-v3-mla"]')
    settle(page, "kv-cache")
    raw, _ = output(page, "kv-cache", "max_sequences")
    assert 4 <= int(raw) <= 6, raw  # the latent sits whole on every GPU: not the pooled 45
    spec = course_calculators.get("kv-cache")
    assert raw == spec.run(spec.preset("deepseek-v3-mla").values).raw["max_sequences"]


def test_a_pasted_config_is_read_by_python_and_a_broken_one_computes_nothing(page, base_url):
    page.goto(base_url + KV)
    wait_ready(page, "kv-cache")
    config = json.dumps(CATALOGUE["qwen2.5-7b"].config)
    reveal(page, KV_ROOT, "config")
    page.fill(f'{KV_ROOT} textarea[name="config"]', config)
    settle(page, "kv-cache")
    want = course_calculators.get("kv-cache").run({"config": config})
    assert output(page, "kv-cache", "kv_bytes_per_token") == (want.raw["kv_bytes_per_token"], want.text["kv_bytes_per_token"])
    message = page.text_content(f"{KV_ROOT} [data-message]")
    assert "sliding" in message.lower()  # Qwen2.5's sliding_window with use_sliding_window false: a named trap
    page.fill(f'{KV_ROOT} textarea[name="config"]', '{"num_hidden_layers": 32,')
    settle(page, "kv-cache")
    message = page.text_content(f"{KV_ROOT} [data-message]")
    assert "not valid JSON" in message and "Nothing is computed" in message
    # not the numbers of the model the form still shows: empty, and said so
    for name in ("kv_bytes_per_token", "fits", "max_concurrency", "model_name"):
        assert output(page, "kv-cache", name) == ("", "not computed"), name
    assert page.watch.errors == []


def test_a_pasted_hybrid_shows_its_state_and_an_unmodelled_kind_is_named(page, base_url):
    page.goto(base_url + KV)
    wait_ready(page, "kv-cache")
    config = json.dumps(CATALOGUE["qwen3-next-80b-a3b"].config)
    reveal(page, KV_ROOT, "config")
    page.fill(f'{KV_ROOT} textarea[name="config"]', config)
    settle(page, "kv-cache")
    want = course_calculators.get("kv-cache").run({"config": config})
    for name in ("kv_bytes_per_token", "state_bytes_per_sequence", "block_size", "max_concurrency"):
        assert output(page, "kv-cache", name) == (want.raw[name], want.text[name]), name
    assert output(page, "kv-cache", "kv_bytes_per_token")[1] == "24 KiB"
    assert "Gated DeltaNet" in page.text_content(f"{KV_ROOT} [data-message]")
    page.fill(f'{KV_ROOT} textarea[name="config"]', '{"model_type": "rwkv7", "num_hidden_layers": 24}')
    settle(page, "kv-cache")
    assert "RWKV-7" in page.text_content(f"{KV_ROOT} [data-message]")
    assert output(page, "kv-cache", "kv_bytes_per_token") == ("", "not computed")
    assert page.watch.errors == []


def test_the_gpu_chosen_in_one_calculator_is_every_calculators_until_reset(page, base_url):
    page.goto(base_url + KV)
    wait_ready(page, "kv-cache")
    choose(page, KV_ROOT, "gpu", "h200")
    settle(page, "kv-cache")
    assert "gpu=h200" in page.url
    # Instant navigation to the roofline page: its calculator has the same GPU.
    page.click('nav.md-nav--primary a[href$="two-phases/"]')
    page.wait_for_function("() => location.pathname.endsWith('/two-phases/')")
    wait_ready(page, "decode-roofline")
    settle(page, "decode-roofline")
    root = '.calc[data-calc="decode-roofline"]'
    assert field(page, root, "gpu") == "h200"
    spec = course_calculators.get("decode-roofline")
    initial = page.eval_on_selector(root, "r => JSON.parse(r.dataset.initial)")
    want = spec.run({**initial, "gpu": "h200"})
    assert output(page, "decode-roofline", "tokens_per_s") == (want.raw["tokens_per_s"], want.text["tokens_per_s"])
    # Reset returns every calculator to the book's values.
    page.click(f'{root} [data-action="reset"]')
    settle(page, "decode-roofline")
    assert field(page, root, "gpu") == initial["gpu"]
    page.goto(base_url + KV)
    wait_ready(page, "kv-cache")
    assert field(page, KV_ROOT, "gpu") == page.eval_on_selector(KV_ROOT, "r => JSON.parse(r.dataset.initial).gpu")


def test_a_link_that_sets_a_shape_but_no_model_is_a_custom_shape(page, base_url):
    page.goto(base_url + KV + "?kv-cache.layers=40")
    wait_ready(page, "kv-cache")
    settle(page, "kv-cache")
    assert field(page, KV_ROOT, "model") == "custom"
    assert field(page, KV_ROOT, "layers") == "40"


def test_the_roofline_shows_measured_runs_with_their_sources(page, base_url):
    page.goto(base_url + "inference/two-phases/")
    wait_ready(page, "decode-roofline")
    root = '.calc[data-calc="decode-roofline"]'
    charts = json.loads(page.eval_on_selector(f"{root} [data-charts]", "e => e.dataset.charts"))
    xy = [c for c in charts if c["kind"] == "xy"]
    assert xy, [c["kind"] for c in charts]
    measured = [s for c in xy for s in c["series"] if s.get("kind") == "points"]
    labels = [label for s in measured for label in s.get("point_labels", [])]
    assert len(labels) >= 10 and all("http" in label or "—" in label or ":" in label for label in labels)
    # Drawn live (the build's SVG steps aside), and its table lists every point.
    page.locator(root + " figure[data-chart]").last.scroll_into_view_if_needed()
    page.wait_for_function("(sel) => Array.from(document.querySelectorAll(sel)).every((f) => f.hasAttribute('data-drawn'))",
                           arg=f"{root} figure[data-chart]:not(:has(.calc__grid))", timeout=30_000)
    assert page.watch.errors == []


def test_without_javascript_every_chart_shows_its_picture(browser, base_url):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        for path in ("inference/kv-cache/", "inference/two-phases/", "inference/paged-attention/"):
            page.goto(base_url + path)
            for box in page.locator(".calc__canvas").all():
                svg = box.locator("svg.calc-svg")
                assert svg.count() == 1
                size = svg.bounding_box()
                assert size and size["width"] > 200 and size["height"] > 100
    finally:
        context.close()
