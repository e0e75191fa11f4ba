"""kv-cache in Chromium: pre-rendered values, live inputs, presets, URL state, the contract's names."""

from __future__ import annotations

import pytest

import course_calculators
from e2e_helpers import output, set_field, settle, wait_ready

pytestmark = pytest.mark.e2e

PAGE = "inference/kv-cache/"
SPEC = course_calculators.get("kv-cache")


def test_prerendered_without_javascript(browser, base_url):
    ctx = browser.new_context(java_script_enabled=False)
    page = ctx.new_page()
    page.goto(base_url + PAGE)
    root = page.locator('.calc[data-calc="kv-cache"]')
    assert root.get_attribute("data-state") == "static"
    assert output(page, "kv-cache", "kv_bytes_per_token") == ("131072", "128 KiB")
    assert output(page, "kv-cache", "kv_bytes_total") == (str(2**30), "1 GiB")
    # The chart's text alternative is there without JavaScript too.
    assert "usable" in page.locator(".calc__chart-summary").first.text_content()
    ctx.close()


def test_contract_names_exist(page, base_url):
    page.goto(base_url + PAGE)
    root = '.calc[data-calc="kv-cache"]'
    for name in ["layers", "kv_heads", "head_dim", "latent_dim", "rope_dim", "context", "concurrency",
                 "params_b", "gpus"]:
        assert page.locator(f'{root} input[type=number][name="{name}"]').count() == 1, name
    for name in ["attention", "kv_dtype", "weight_dtype", "gpu"]:
        assert page.locator(f'{root} select[name="{name}"]').count() == 1, name
    assert page.locator(f'{root} select[name="attention"] option[value="mla"]').count() == 1
    for dtype in ["bf16", "fp16", "fp8", "fp8_e4m3", "fp8_e5m2", "int8_per_token_head", "fp8_per_token_head",
                  "int4_per_token_head", "nvfp4", "fp8_ds_mla", "nvfp4_ds_mla"]:
        assert page.locator(f'{root} select[name="kv_dtype"] option[value="{dtype}"]').count() == 1
    for gpu in ["h100-sxm", "h200", "a100-80g", "rtx-4090"]:
        assert page.locator(f'{root} select[name="gpu"] option[value="{gpu}"]').count() == 1
    for name in ["kv_bytes_per_token", "kv_bytes_total", "weight_bytes", "total_bytes", "fits"]:
        assert page.locator(f'{root} output[data-output="{name}"]').count() == 1, name
    for preset in ["llama3-8b", "llama3-8b-128k", "gpt3-mha", "deepseek-v3-mla"]:
        assert page.locator(f'{root} button[data-preset="{preset}"]').count() == 1, preset
    assert page.locator(f"{root} [data-message][role=status]").count() == 1


def test_reaches_ready_with_no_console_error_and_no_foreign_request(page, base_url):
    page.goto(base_url + PAGE)
    wait_ready(page, "kv-cache")
    assert output(page, "kv-cache", "kv_bytes_per_token") == ("131072", "128 KiB")
    assert page.watch.errors == []
    assert page.watch.external == []


@pytest.mark.parametrize(
    "preset, name, raw, text",
    [
        ("llama3-8b", "kv_bytes_per_token", "131072", "128 KiB"),
        ("llama3-8b-128k", "kv_bytes_total", str(16 * 2**30), "16 GiB"),
        ("gpt3-mha", "kv_bytes_per_token", str(4718592), "4.5 MiB"),
        ("deepseek-v3-mla", "kv_bytes_per_token", "70272", "68.6 KiB"),
    ],
)
def test_presets(page, base_url, preset, name, raw, text):
    page.goto(base_url + PAGE)
    wait_ready(page, "kv-cache")
    page.click(f'.calc[data-calc="kv-cache"] button[data-preset="{preset}"]')
    settle(page, "kv-cache")
    assert output(page, "kv-cache", name) == (raw, text)
    if preset == "llama3-8b-128k":
        kv = int(output(page, "kv-cache", "kv_bytes_total")[0])
        weights = float(output(page, "kv-cache", "weight_bytes")[0])
        assert kv > weights
    # The browser's answer is CPython's answer.
    expected = SPEC.run(dict(SPEC.preset(preset).values))
    for out in SPEC.outputs:
        assert output(page, "kv-cache", out.name) == (expected.raw[out.name], expected.text[out.name])


def test_number_field_and_slider_drive_outputs(page, base_url):
    page.goto(base_url + PAGE)
    wait_ready(page, "kv-cache")
    set_field(page, "kv-cache", "context", "131072")
    settle(page, "kv-cache")
    assert output(page, "kv-cache", "kv_bytes_total") == (str(16 * 2**30), "16 GiB")
    # The slider moves in powers of two: position 10 is 1,024 tokens. Python placed it for the
    # value typed (the result's `slider`).
    slider = page.locator('.calc[data-calc="kv-cache"] input[type=range][data-for="context"]')
    assert slider.input_value() == str(course_calculators.get("kv-cache").param_map["context"].stop_of(131072))
    slider.evaluate("(e) => { e.value = '10'; e.dispatchEvent(new Event('input', {bubbles: true})); }")
    settle(page, "kv-cache")
    assert page.input_value('.calc[data-calc="kv-cache"] input[type=number][name="context"]') == "1024"
    assert output(page, "kv-cache", "kv_bytes_total")[0] == str(1024 * 131072)
    set_field(page, "kv-cache", "kv_dtype", "fp8")
    settle(page, "kv-cache")
    assert output(page, "kv-cache", "kv_bytes_per_token") == ("65536", "64 KiB")


def test_out_of_range_and_garbage_are_clamped_or_rejected_with_a_note(page, base_url):
    page.goto(base_url + PAGE)
    wait_ready(page, "kv-cache")
    set_field(page, "kv-cache", "concurrency", "100000")
    settle(page, "kv-cache")
    message = page.text_content('.calc[data-calc="kv-cache"] [data-message]')
    assert "above the maximum" in message
    assert output(page, "kv-cache", "kv_bytes_total")[0] == str(4096 * 2**30)
    for text in ("NaN", "Infinity", "undefined", "null"):
        assert text not in page.text_content('.calc[data-calc="kv-cache"] dl')


def test_url_state_round_trip(page, base_url):
    page.goto(base_url + PAGE + "?kv-cache.context=131072")
    wait_ready(page, "kv-cache")
    assert output(page, "kv-cache", "kv_bytes_total") == (str(16 * 2**30), "16 GiB")
    set_field(page, "kv-cache", "concurrency", "4")
    settle(page, "kv-cache")
    page.wait_for_function("() => location.search.includes('kv-cache.concurrency=4')")
    assert "kv-cache.concurrency=4" in page.url and "kv-cache.context=131072" in page.url
    page.goto(page.url)
    wait_ready(page, "kv-cache")
    assert output(page, "kv-cache", "kv_bytes_total")[0] == str(64 * 2**30)


def test_bad_url_values_never_break_the_widget(page, base_url):
    page.goto(base_url + PAGE + "?kv-cache.context=%3Cimg%20src%3Dx%3E&kv-cache.gpu=tpu&kv-cache.layers=1e999")
    wait_ready(page, "kv-cache")
    message = page.text_content('.calc[data-calc="kv-cache"] [data-message]')
    assert "not a known choice" in message and "not a" in message
    assert page.locator(".calc img").count() == 0
    assert output(page, "kv-cache", "kv_bytes_per_token") == ("131072", "128 KiB")
    assert page.watch.errors == []


def test_burst_of_inputs_ends_on_the_last_value(page, base_url):
    page.goto(base_url + PAGE)
    wait_ready(page, "kv-cache")
    page.eval_on_selector(
        '.calc[data-calc="kv-cache"] input[type=number][name="concurrency"]',
        """(e) => { for (let i = 1; i <= 300; i++) { e.value = String(i);
                     e.dispatchEvent(new Event('input', {bubbles: true})); } }""",
    )
    settle(page, "kv-cache")
    assert output(page, "kv-cache", "kv_bytes_total")[0] == str(300 * 2**30)
