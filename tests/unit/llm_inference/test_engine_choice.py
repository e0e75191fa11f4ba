"""The engine input on kv-cache: SGLang's token pool for catalogue models by name in their shipped
format, checked against public SGLang startup logs (engines/sglang_logs.py), and vLLM's figures
unchanged when vLLM is chosen."""

from __future__ import annotations

import pytest

from llm_inference.accuracy_sglang import READER_INPUTS
from llm_inference.engines.sglang_logs import BY_ID
from llm_inference.kv_cache import SPEC

#: (log id, inputs a reader of that log enters): the model by catalogue name, shipped format; the
#: Accuracy page's SGLang section rebuilds the same logs from the same inputs.
CASES = READER_INPUTS


def run(**inputs):
    raw = {**SPEC.preset("llama3-8b").values, "engine": "sglang", "weight_dtype": "shipped", **inputs}
    SPEC.check_overrides(raw)
    return SPEC.run(raw)


@pytest.mark.parametrize("log_id", sorted(CASES))
def test_max_total_num_tokens_of_public_logs_within_two_percent(log_id):
    printed = BY_ID[log_id].parsed["tokens"]
    r = run(**CASES[log_id])
    tokens = r.values["kv_cache_tokens"]
    assert tokens == pytest.approx(printed, rel=0.02), (tokens, printed)
    assert f"max_total_num_tokens={tokens}" in r.values["startup_lines"]
    assert f"KV Cache is allocated. #tokens: {tokens}, K size: " in r.values["startup_lines"]


def test_the_memory_bar_adds_up_to_the_visible_memory_under_sglang():
    r = run(**CASES["llama70b-h200-tp8-v053"])
    v = r.values
    parts = v["weight_bytes_per_gpu"] + v["activation_bytes"] + v["runtime_bytes"] + v["kv_cache_memory"]
    from llm_inference.hardware import GPUS
    assert parts == pytest.approx(GPUS["h200"].visible, rel=1e-9)
    assert v["free_bytes_per_gpu"] == 0
    assert v["block_size"] == 1
    assert "SGLang 0.5.3 rules" in v["engine_release"] and "(automatic)" in v["engine_release"]


def test_page_size_rounds_the_pool_down_to_whole_pages():
    tokens_1 = run(**CASES["qwen3-14b-48gb-v046"]).values["kv_cache_tokens"]
    tokens_64 = run(**CASES["qwen3-14b-48gb-v046"], sglang_page_size=64).values["kv_cache_tokens"]
    assert tokens_64 == tokens_1 // 64 * 64


def test_sglang_refuses_what_it_does_not_model_with_the_reason():
    r = run(model="gemma-4-31b-nvfp4", gpu="h100-sxm", gpus=1)  # layers of two shapes: not modelled
    assert r.values["kv_cache_tokens"] == 0 and not r.values["fits"]
    assert any("SGLang refuses this" in n and "shapes" in n for n in r.notes)
    r = run(model="qwen3-14b", gpu="rtx-3090", gpus=1)  # no nvidia-smi total for the automatic fraction
    assert any("give --mem-fraction-static" in n for n in r.notes)


def test_vllm_is_the_default_and_unchanged():
    raw = dict(SPEC.preset("llama3-8b").values)
    vllm = SPEC.run(raw).values
    assert SPEC.run({**raw, "engine": "vllm"}).values == vllm
    assert vllm["startup_lines"].startswith("Available KV cache memory: ")
    sglang = SPEC.run({**raw, "engine": "sglang"}).values
    assert sglang["kv_cache_tokens"] != vllm["kv_cache_tokens"]
