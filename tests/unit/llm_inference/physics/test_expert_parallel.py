"""Expert parallelism (vLLM's --enable-expert-parallel): whole experts per GPU, by vLLM's expert map.

The figures are worked out by hand from the shapes of the checkpoints (config.json) and vLLM's rules
(physics/expert_parallel_sources.py), then set against what the calculators compute.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from course_calculators.units import GiB
from llm_inference import decode_roofline, engine_choice, scenario
from llm_inference.engines import sglang
from llm_inference.hardware import GPUS
from llm_inference.kv_cache import SPEC
from llm_inference.physics import Layout, Model, decode_step, expert_parallel, place
from llm_inference.physics.expert_parallel import experts_per_rank, largest_share
from llm_inference.physics.sglang_pool import SGLangSettings
from llm_inference.physics.weights import as_plan

MIXTRAL = scenario.catalogue_model("mixtral-8x7b")
DEEPSEEK_V3 = scenario.catalogue_model("deepseek-v3")
LLAMA_8B = scenario.catalogue_model("llama-3.1-8b")
H100 = GPUS["h100-sxm"]

# Mixtral 8x7B: 32 layers, hidden 4096, 8 experts of width 14336 (w1, w3, w2), bf16
MIXTRAL_EXPERT_INDEX_BYTES = 32 * 3 * 4096 * 14336 * 2  # one expert index, all 32 MoE layers


def deployment(model_id: str, gpus: int, ep: str, **more):
    raw = {"model": model_id, "gpus": gpus, "context": 8192, "expert_parallel": ep, **more}
    result = SPEC.run(raw)
    d, _ = engine_choice.deployment_from_inputs(result.inputs)
    return d, result


# -- the expert map ------------------------------------------------------------------------------


def test_the_pull_requests_own_example_before_and_after():
    # PR #21497: 30 experts on 8 ranks, [3]*7 + [9] before, [4]*6 + [3]*2 after
    assert experts_per_rank(30, 8, "0.10.0") == (3, 3, 3, 3, 3, 3, 3, 9)
    assert experts_per_rank(30, 8, "0.10.1") == (4, 4, 4, 4, 4, 4, 3, 3)


def test_eight_experts_on_three_gpus():
    assert experts_per_rank(8, 3) == (3, 3, 2)  # base 2, remainder 2 to ranks 0 and 1
    assert experts_per_rank(8, 3, "0.9.1") == (2, 2, 4)  # the old map: the last rank takes the rest
    assert largest_share(8, 3) == 3 and largest_share(8, 3, "0.9.1") == 4
    for ep in range(1, 40):  # every split adds up to the experts, the fullest rank is ceil(E / EP)
        assert sum(experts_per_rank(60, ep)) == 60
        assert largest_share(60, ep) == -(-60 // ep)


def test_more_gpus_than_experts_leaves_some_without():
    assert experts_per_rank(8, 16) == (1,) * 8 + (0,) * 8
    assert experts_per_rank(8, 16, "0.9.1") == (0,) * 15 + (8,)  # 8 // 16 = 0 on all but the last


def test_ep_size_is_tp_times_dp():
    assert expert_parallel.ep_size(8) == 8 and expert_parallel.ep_size(2, 4) == 8


# -- Mixtral 8x7B on 16 H100s, by hand --------------------------------------------------------------


def test_mixtral_on_sixteen_h100s_by_hand():
    """With EP: 8 experts over 16 GPUs, the first 8 hold one whole expert each (11.27 GB, all 32 layers)
    where tensor parallelism gives every GPU 1/16 of all 8 (half an expert's bytes): +5.25 GiB of
    weights. The fused-MoE workspace (Triton, bf16) is M × top_k × (max(I, H) + max(2I, H)) × 2 bytes
    at M = 8,192 batched tokens, k = 2: I = 896 (14336 / 16) gives 0.25 GiB, the whole I = 14336 gives
    1.3125 GiB. 5.25 + 1.0625 = 6.3125 GiB less KV; at 1 KV head × 128 × 2 × 2 B × 32 layers = 16 KiB
    per token, 16-token blocks, that is 25,856 blocks fewer: 525 → 475 sequences of 8,192 tokens
    (512 blocks each). The previous attempt's 10.7 GiB and 475 vs 525 are the same figures."""
    off, r_off = deployment("mixtral-8x7b", 16, "off")
    on, r_on = deployment("mixtral-8x7b", 16, "on")
    p_off, p_on = off.pool, on.pool
    assert p_off.placement.expert_parallel == 1 and p_on.placement.expert_parallel == 16
    assert p_on.placement.tensor_parallel == 16 and p_on.placement.kv_heads_per_gpu == 1  # attention unchanged
    extra = p_on.weight_bytes - p_off.weight_bytes
    assert extra == pytest.approx(MIXTRAL_EXPERT_INDEX_BYTES * (1 - 8 / 16), rel=1e-9)
    assert extra / GiB == pytest.approx(5.25)
    assert round(p_on.weight_bytes / GiB, 2) == 10.72
    assert p_off.moe_backend == p_on.moe_backend == "triton"
    assert p_off.moe_workspace_bytes == 8192 * 2 * (4096 + 4096) * 2 == 0.25 * GiB
    assert p_on.moe_workspace_bytes == 8192 * 2 * (14336 + 28672) * 2 == 1.3125 * GiB
    assert p_off.available_bytes - p_on.available_bytes == pytest.approx(6.3125 * GiB, rel=1e-9)
    assert p_off.bytes_per_token == p_on.bytes_per_token == 1 * 128 * 2 * 2 * 32
    assert p_off.num_blocks - p_on.num_blocks == 6.3125 * GiB // (16 * 16384)
    assert (p_off.sequences(8192), p_on.sequences(8192)) == (525, 475)
    assert r_on.values["max_sequences"] == 475 and r_off.values["max_sequences"] == 525
    assert any("8 GPUs hold no expert" in n for n in r_on.notes)
    assert not any("Expert parallel" in n for n in r_off.notes)


def test_mixtral_on_sixteen_gpus_at_an_old_release_puts_every_expert_on_the_last_gpu():
    plan = as_plan(MIXTRAL, "bf16")
    new, old = plan.on(H100, "0.33.0"), plan.on(H100, "0.9.1")
    ep_new = place(MIXTRAL, Layout(16, expert_parallel=True), new)
    ep_old = place(MIXTRAL, Layout(16, expert_parallel=True), old)
    assert ep_old.weight_bytes_per_gpu - ep_new.weight_bytes_per_gpu == pytest.approx(
        7 * MIXTRAL_EXPERT_INDEX_BYTES, rel=1e-9)  # 8 experts on the last rank where 0.10.1 puts 1


def test_the_decode_step_streams_the_experts_the_placement_holds():
    plan = as_plan(MIXTRAL, "bf16").on(H100)
    tp, ep = place(MIXTRAL, Layout(16), plan), place(MIXTRAL, Layout(16, expert_parallel=True), plan)
    s_tp = decode_step(MIXTRAL, tp, H100, plan, "bf16", batch=1, context=1024)
    s_ep = decode_step(MIXTRAL, ep, H100, plan, "bf16", batch=1, context=1024)
    # one token touches 2 of the 8 experts: a quarter of what the GPU holds, whole experts or slices
    share = 2 / 8
    expected = share * (plan.routed_bytes(1, ep=16) - plan.routed_bytes(16))
    assert s_ep.weight_bytes_per_gpu - s_tp.weight_bytes_per_gpu == pytest.approx(expected, rel=1e-9)
    assert s_ep.kv_bytes_per_gpu == s_tp.kv_bytes_per_gpu


# -- DeepSeek-V3 on 8 GPUs: EP and TP hold the same bytes ---------------------------------------------


def test_deepseek_v3_on_eight_h200s_ep_equals_tp():
    """256 experts over 8 GPUs: 32 whole experts each, the same bytes as 1/8 of all 256 (width 2048 splits
    into 256-column slices, whole 128 × 128 fp8 blocks). The workspace is the same too: with H = 7168
    above 2I = 4096, max(I, H) and max(2I, H) are H whether I is 2048 or 256. So the same pool."""
    off, _ = deployment("deepseek-v3", 8, "off", gpu="h200")
    on, result = deployment("deepseek-v3", 8, "on", gpu="h200")
    assert on.placement.expert_parallel == 8
    assert experts_per_rank(256, 8) == (32,) * 8
    assert on.pool.weight_bytes == pytest.approx(off.pool.weight_bytes, rel=1e-12)
    assert on.pool.moe_workspace_bytes == off.pool.moe_workspace_bytes
    assert on.pool.num_blocks == off.pool.num_blocks and on.pool.sequences(8192) == off.pool.sequences(8192)
    assert any("each holds 32 of the 256 routed experts" in n for n in result.notes)


# -- what is not modelled, and what the flag does not touch ------------------------------------------


def test_redundant_experts_without_eplb_or_split_unevenly_are_refused_as_vllm_does():
    plan = as_plan(MIXTRAL, "bf16").on(H100)
    s = expert_parallel.share(MIXTRAL, plan, 8, redundant_experts=2)
    assert "EPLB is not enabled" in s.refusal and s.note() == s.refusal and s.routed_bytes_per_gpu == 0
    # 8 + 2 = 10 physical experts over 8 ranks: "EPLB currently only supports even distribution"
    assert "even distribution" in expert_parallel.share(MIXTRAL, plan, 8, redundant_experts=2, eplb=True).refusal
    assert "more than one GPU" in expert_parallel.eplb_refusal(8, 1, 0, eplb=True)
    assert "negative" in expert_parallel.problem(MIXTRAL, 8, -1)
    assert expert_parallel.share(MIXTRAL, plan, 8).problem == ""
    old = as_plan(MIXTRAL, "bf16").on(H100, version="0.20.0")
    assert "0.23.0" in expert_parallel.share(MIXTRAL, old, 8, redundant_experts=8, eplb=True).problem


def test_eplb_holds_e_plus_r_over_ep_experts_and_a_layer_of_them_as_its_buffer():
    # Mixtral 8x7B, 8 redundant experts over EP 8 (vllm/model_executor/layers/fused_moe/layer.py
    # determine_expert_counts): 16 physical experts, 2 whole ones on every GPU instead of 1
    s = expert_parallel.share(MIXTRAL, as_plan(MIXTRAL, "bf16").on(H100), 8, redundant_experts=8, eplb=True)
    assert (s.problem, s.refusal, s.per_rank) == ("", "", (2,) * 8)
    assert s.routed_bytes_per_gpu == 2 * MIXTRAL_EXPERT_INDEX_BYTES
    # EplbState.add_model: expert_buffer = empty_like of the first MoE layer's local expert weights
    assert s.eplb_buffer_bytes == 2 * 3 * 4096 * 14336 * 2
    # its tables over 32 MoE layers, 8 logical and 16 physical experts (0.33.0): int64
    # physical→logical 32 × 16, logical→physical 32 × 8 × 1024, replica counts 32 × 8, last load
    # 32 × 8; int32 load pass 32 × 16 and window 1000 × 32 × 16
    tables = 8 * (32 * 16 + 32 * 8 * 1024 + 32 * 8 + 32 * 8) + 4 * (32 * 16 + 1000 * 32 * 16)
    assert s.eplb_table_bytes == tables == 4_155_392
    assert "8 redundant copies, 2 whole experts on each GPU" in s.note()


def test_eplb_without_redundant_experts_still_keeps_its_buffer_and_tables():
    # Qwen3-30B-A3B bf16 over EP 4: 32 experts a GPU as without EPLB; the buffer is one layer's 32
    # experts (3 × 2048 × 768 bf16 each), the tables 48 layers of 128 experts, 0.28.0 without last load
    qwen = scenario.catalogue_model("qwen3-30b-a3b")
    plan = as_plan(qwen, "bf16").on(H100, version="0.28.0")
    s = expert_parallel.share(qwen, plan, 4, eplb=True)
    assert s.per_rank == (32,) * 4 and s.routed_bytes_per_gpu == expert_parallel.share(qwen, plan, 4).routed_bytes_per_gpu
    assert s.eplb_buffer_bytes == 32 * 3 * 2048 * 768 * 2 == 301_989_888
    assert s.eplb_table_bytes == 8 * (48 * 128 + 48 * 128 * 1024 + 48 * 128) + 4 * (48 * 128 + 1000 * 48 * 128)
    assert expert_parallel.eplb_table_bytes(48, 128, 0, "0.33.0") - s.eplb_table_bytes == 8 * 48 * 128


def test_a_dense_model_ignores_the_flag():
    assert expert_parallel.share(LLAMA_8B, "bf16", 8) is None
    off, r_off = deployment("llama-3.1-8b", 2, "off")
    on, r_on = deployment("llama-3.1-8b", 2, "on")
    assert on.placement == replace(off.placement, layout=on.placement.layout)
    assert r_on.values == r_off.values
    assert any("no routed experts" in n for n in r_on.notes)


def test_ep_off_leaves_every_number_unchanged():
    for model_id, gpus, more in (("mixtral-8x7b", 16, {}), ("deepseek-v3", 8, {"gpu": "h200"}),
                                 ("qwen3-30b-a3b", 4, {}), ("llama-3.1-8b", 1, {})):
        base = {"model": model_id, "gpus": gpus, "context": 8192, **more}
        plain, off = SPEC.run(base), SPEC.run({**base, "expert_parallel": "off"})
        assert off.values == plain.values and off.notes == plain.notes
    raw = {"model": "mixtral-8x7b", "gpus": 8}
    assert decode_roofline.SPEC.run({**raw, "expert_parallel": "off"}).values == decode_roofline.SPEC.run(raw).values
    plan = as_plan(MIXTRAL, "bf16").on(H100)
    assert place(MIXTRAL, Layout(8, expert_parallel=False), plan) == place(MIXTRAL, Layout(8), plan)


def test_the_reader_input_reaches_the_layout():
    p = {"gpus": 4, "pipeline_stages": 1, "attention_parallel": "tp"}
    assert scenario.layout_from_inputs({**p, "expert_parallel": "on"}).expert_parallel
    assert not scenario.layout_from_inputs(p).expert_parallel
    assert "expert_parallel" in SPEC.param_map and "expert_parallel" in decode_roofline.SPEC.param_map


def test_pipeline_stages_keep_ep_within_a_stage():
    plan = as_plan(MIXTRAL, "bf16").on(H100)
    p = place(MIXTRAL, Layout(16, pipeline_stages=2, expert_parallel=True), plan)
    assert p.tensor_parallel == 8 and p.expert_parallel == 8  # EP = the stage's TP group


def test_sglang_refuses_ep_and_a_zero_byte_cell():
    on, _ = deployment("mixtral-8x7b", 8, "on")
    pool = replace(on, sglang=SGLangSettings()).pool
    assert not pool.starts and "--ep-size" in pool.problem
    empty = Model(layers=4, kv_heads=8, head_dim=0, heads=8)
    with pytest.raises(ValueError, match="0 bytes"):
        sglang.model_cell_bytes(empty)
    with pytest.raises(ValueError, match="cell"):
        sglang.profiled_tokens(10.0, 20.0, 0.9, 0)
    result = SPEC.run({"model": "custom", "attention": "mla", "latent_dim": 0, "rope_dim": 0, "engine": "sglang"})
    assert result.values["max_sequences"] == 0  # refused with a note; it divided by zero before
    assert any("0 bytes of SGLang's KV pool" in n for n in result.notes)
