"""Every calculator of the catalogue in Chromium: names from the contract, every preset, 375 px screens."""

from __future__ import annotations

import pytest

import course_calculators
from e2e_helpers import layout_problems, output, settle, wait_ready

pytestmark = pytest.mark.e2e

#: Where each calculator lives, and the names ../shared/widget-contract.md promises.
CATALOGUE = {
    "kv-cache": ("inference/kv-cache/",
                 ["layers", "kv_heads", "head_dim", "attention", "latent_dim", "rope_dim", "kv_dtype", "context",
                  "concurrency", "params_b", "weight_dtype", "gpu", "gpus"],
                 ["kv_bytes_per_token", "kv_bytes_total", "weight_bytes", "total_bytes", "fits"],
                 ["llama3-8b", "llama3-8b-128k", "gpt3-mha", "deepseek-v3-mla"]),
    "decode-roofline": ("inference/two-phases/",
                        ["params_b", "active_params_b", "weight_dtype", "gpu", "gpus", "batch", "context",
                         "prompt_tokens"],
                        ["tokens_per_s", "throughput", "ttft_s", "bound", "fits"],
                        ["h100-70b-bf16"]),
    "paged-attention": ("inference/paged-attention/", ["block_size"],
                        ["utilization_contiguous", "utilization_paged", "throughput_gain"], []),
    "speculative-decoding": ("inference/speculative-decoding/", ["acceptance", "draft_tokens", "draft_cost"],
                             ["tokens_per_pass", "speedup"], []),
    "sampling": ("inference/sampling/", ["temperature", "top_k", "top_p"], ["top_prob", "candidates"], []),
    "unit-economics": ("inference/unit-economics/", ["dau", "remix_rate", "pgc_rate", "cache_hit"],
                       ["daily_generations", "monthly_cost_flagship", "monthly_cost_mid", "monthly_cost_small"],
                       ["defaults", "cache-0", "cache-95", "remix-10"]),
}


@pytest.mark.parametrize("calc_id", sorted(CATALOGUE))
def test_contract_names_and_every_preset_match_cpython(page, base_url, calc_id):
    path, params, outputs, presets = CATALOGUE[calc_id]
    page.goto(base_url + path)
    wait_ready(page, calc_id)
    root = f'.calc[data-calc="{calc_id}"]'
    for name in params:
        assert page.locator(f'{root} input[type=number][name="{name}"], {root} select[name="{name}"]').count() == 1, name
    for name in outputs:
        assert page.locator(f'{root} output[data-output="{name}"]').count() == 1, name
    spec = course_calculators.get(calc_id)
    for preset in presets:
        assert page.locator(f'{root} button[data-preset="{preset}"]').count() == 1, preset
    for preset in spec.presets:
        page.click(f'{root} button[data-preset="{preset.id}"]')
        settle(page, calc_id)
        expected = spec.run(dict(preset.values))
        for out in spec.outputs:
            assert output(page, calc_id, out.name) == (expected.raw[out.name], expected.text[out.name]), (preset.id, out.name)
    assert page.watch.errors == []


PAGES = ["", "inference/two-phases/", "inference/kv-cache/", "inference/paged-attention/",
         "inference/quantization/", "inference/speculative-decoding/", "inference/sampling/",
         "inference/unit-economics/", "inference/summary/"]


@pytest.mark.parametrize("path", PAGES)
def test_no_horizontal_scroll_at_375_px(browser, base_url, path):
    ctx = browser.new_context(viewport={"width": 375, "height": 740})
    page = ctx.new_page()
    page.goto(base_url + path)
    page.wait_for_load_state("networkidle")
    width = page.evaluate("document.documentElement.scrollWidth")
    problems = layout_problems(page)  # widget content inside its widget, every control reachable
    ctx.close()
    assert width <= 375, f"{path}: page is {width}px wide"
    assert problems == [], f"{path}: " + "; ".join(problems)
