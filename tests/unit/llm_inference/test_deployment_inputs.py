"""llm_inference/deployment_inputs.py: --block-size through both calculators, against a derivation by
hand from vLLM's source (vllm/v1/core/kv_cache_utils.py: a page is block_size tokens of one layer;
num_blocks = available // (page × layers); a request of max_model_len tokens takes
cdiv(max_model_len, block_size) blocks; maximum concurrency = num_blocks ÷ that)."""

from __future__ import annotations

import pytest

from llm_inference import deployment_inputs
from llm_inference.decode_roofline import SPEC as ROOFLINE
from llm_inference.engines import vllm
from llm_inference.kv_cache import SPEC

LLAMA3_8B = dict(SPEC.preset("llama3-8b").values)
#: Llama 3.1 8B, bf16 KV: K and V × 8 KV heads × head dim 128 × 2 bytes, in each of 32 layers.
LLAMA_BYTES_PER_TOKEN_LAYER = 2 * 8 * 128 * 2
LLAMA_LAYERS = 32


def run(spec=SPEC, preset="llama3-8b", **overrides):
    raw = {**spec.preset(preset).values, **overrides}
    spec.check_overrides(raw)
    return spec.run(raw).values


def test_the_default_is_vllms_and_every_offered_size_a_kernel_block_of_each_backend():
    param = deployment_inputs.engine_inputs()[0]
    assert param.name == "block_size" and int(param.default) == vllm.DEFAULT_BLOCK_SIZE == 16
    # FlashAttention / Triton: MultipleOf(16); FlashInfer: [16, 32, 64]
    assert all(b % 16 == 0 and b in (16, 32, 64) for b in deployment_inputs.BLOCK_SIZES)
    assert deployment_inputs.block_size_of({}) == 16
    assert deployment_inputs.block_size_of({"block_size": "64"}) == 64


def test_both_calculators_offer_it():
    assert "block_size" in {p.name for p in SPEC.params}
    assert "block_size" in {p.name for p in ROOFLINE.params}


def test_the_default_leaves_every_figure_as_it_was():
    assert run() == run(block_size="16")


@pytest.mark.parametrize("block", [16, 32, 64])
def test_blocks_and_concurrency_follow_the_block_size(block):
    context = 1000
    out = run(block_size=str(block), context=context)
    available = out["kv_cache_memory"]  # the budget itself does not depend on the block size
    assert available == run(context=context)["kv_cache_memory"]
    page_all_layers = block * LLAMA_BYTES_PER_TOKEN_LAYER * LLAMA_LAYERS
    blocks = int(available // page_all_layers)
    per_request = -(-context // block)
    assert out["block_size"] == block
    assert out["max_concurrency"] == pytest.approx(blocks / per_request)


def test_a_larger_block_rounds_a_short_request_up():
    # 1,000 tokens: 63 blocks of 16 (1,008 tokens) but 16 of 64 (1,024): fewer requests fit
    assert run(block_size="64", context=1000)["max_concurrency"] < run(context=1000)["max_concurrency"]


def test_a_hybrid_model_grows_the_block_from_the_chosen_size():
    # Qwen3-Next: the attention block grows until a page holds a recurrent state (engines.vllm_hybrid.
    # hybrid_block_size: align × cdiv(state page, align × attention page per token), align = max(16, block));
    # 576 tokens is a multiple of 16, 32 and 64, so each choice gives the same block and pool
    default = run(preset="qwen3-next-hybrid")
    assert default["block_size"] == 576
    for block in ("32", "64"):
        out = run(preset="qwen3-next-hybrid", block_size=block)
        assert out["block_size"] == 576
        assert out["kv_cache_tokens"] == default["kv_cache_tokens"]


def test_decode_roofline_reads_the_same_pool():
    a = run(ROOFLINE, preset=ROOFLINE.presets[0].id, block_size="64", context=1000)
    b = run(ROOFLINE, preset=ROOFLINE.presets[0].id, context=1000)
    assert a["max_concurrency"] <= b["max_concurrency"]


# -- EPLB's redundant experts (--enable-eplb, num_redundant_experts) ----------------------------

def test_redundant_experts_default_to_eplb_off_and_both_calculators_offer_them():
    param = next(p for p in SPEC.params if p.name == "redundant_experts")
    assert param.default == 0 and deployment_inputs.redundant_experts_of({}) == 0  # EPLBConfig: default 0
    assert deployment_inputs.redundant_experts_of({"redundant_experts": 4}) == 4
    assert "redundant_experts" in {p.name for p in ROOFLINE.params}
    base = {"model": "qwen3-30b-a3b", "gpus": 4, "context": 8192, "expert_parallel": "on"}
    assert SPEC.run({**base, "redundant_experts": 0}).values == SPEC.run(base).values


def test_redundant_experts_reach_the_roofline_pool_not_its_speed():
    """Qwen3-30B-A3B on 4 × H100, EP 4, R = 4 (figures as in test_kv_cache): the pool loses 840,261,888 bytes
    a GPU, 2,137 blocks of 16 tokens; a step still reads one replica of each routed expert, so the speed
    stays."""
    raw = {"model": "qwen3-30b-a3b", "gpus": 4, "expert_parallel": "on"}
    off, on = ROOFLINE.run(raw).values, ROOFLINE.run({**raw, "redundant_experts": 4}).values
    assert off["tokens_per_s"] == on["tokens_per_s"]
    assert off["kv_cache_tokens"] - on["kv_cache_tokens"] == 2137 * 16
