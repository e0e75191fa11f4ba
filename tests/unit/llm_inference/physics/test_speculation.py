"""physics/speculation.py and its place in vLLM's pool (physics/budget.py), against derivations by hand
from vLLM's source (engines/vllm_speculation.py: a draft model sharded over the target's TP ranks, an
MTP layer = one decoder layer of the target's shape + eh_proj + norms + its own LM head, the input
embedding shared; the drafter's attention layers in the target's KV groups)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from llm_inference import deployment_inputs_speculation as dis
from llm_inference.decode_roofline import SPEC as ROOFLINE
from llm_inference.hardware import GPUS
from llm_inference.kv_cache import SPEC
from llm_inference.models.quantization import SHIPPED
from llm_inference.physics import fleet
from llm_inference.physics.budget import Engine
from llm_inference.physics.deployment import deploy
from llm_inference.physics.placement import Layout
from llm_inference.physics.speculation import (DRAFT_MODEL, MTP, Speculation, drafter, lm_head_bytes,
                                                mtp_extra_bytes)
from llm_inference.scenario import _catalogue_plan, catalogue_model

GiB = 2**30


def deployment(model_id, gpu, gpus, spec=Speculation(), kv="bf16"):
    return deploy(catalogue_model(model_id), GPUS[gpu], Layout(gpus=gpus), Engine(speculation=spec),
                  _catalogue_plan(model_id, "", SHIPPED), kv)


def draft(model_id, k=3, **kw):
    return Speculation(DRAFT_MODEL, k, draft=catalogue_model(model_id),
                       draft_weights=_catalogue_plan(model_id, "", SHIPPED), draft_name=model_id, **kw)


# -- Llama 3.1 70B with Llama 3.1 8B drafting, TP 4 on H100s -------------------------------------

#: Llama 3.1 8B by hand: embedding and LM head 128,256 × 4,096 each; per layer q, o 4,096², k, v
#: 1,024 × 4,096, the MLP 3 × 4,096 × 14,336, two norms of 4,096; a final norm. bf16.
LLAMA8B_SHARDED = 2 * 128256 * 4096 + 32 * (2 * 4096 * 4096 + 2 * 1024 * 4096 + 3 * 4096 * 14336)
LLAMA8B_NORMS = 32 * 2 * 4096 + 4096  # replicated on every rank


def test_a_draft_model_is_sharded_over_the_targets_tp_ranks():
    per_gpu = LLAMA8B_SHARDED * 2 // 4 + LLAMA8B_NORMS * 2
    assert per_gpu == 4_015_529_984  # 3.74 GiB: the 8B's 16.06 GB over 4 ranks, norms whole
    pool = deployment("llama-3.1-70b", "h100-sxm", 4, draft("llama-3.1-8b")).pool
    assert pool.drafter_bytes == per_gpu
    # 8 KV heads over 4 ranks: 2 per GPU, K and V × 128 × 2 bytes, in the 8B's 32 layers and the 70B's 80
    assert pool.drafter.token_bytes == 32 * 2 * 2 * 128 * 2 == 32_768
    assert pool.bytes_per_token == (80 + 32) * 1024 == 114_688


def test_the_drafter_comes_off_the_budget_and_its_layers_join_the_blocks():
    context = 8192
    off = deployment("llama-3.1-70b", "h100-sxm", 4).pool
    on = deployment("llama-3.1-70b", "h100-sxm", 4, draft("llama-3.1-8b")).pool
    assert on.available_bytes == pytest.approx(off.available_bytes - 4_015_529_984)
    # one block: 16 tokens × 1,024 bytes in each of 80 + 32 layers (one group, the pages equal)
    assert on.layers_per_group == 112 and on.page_bytes == 16 * 1024
    assert on.num_blocks == int(on.available_bytes // (16 * 1024) // 112)
    assert on.concurrency(context) == pytest.approx(on.num_blocks / (context // 16))
    assert round(off.concurrency(context), 2) == 55.79
    assert round(on.concurrency(context), 2) == 35.57


# -- DeepSeek-V3 with its MTP layer, TP 8 on H200s ------------------------------------------------

def test_an_mtp_layer_is_a_decoder_layer_of_the_target_plus_eh_proj_norms_and_its_own_head():
    d = deployment("deepseek-v3", "h200", 8, Speculation(MTP, 1, mtp_layers=1))
    pool = d.pool
    # eh_proj 2 × 7,168 → 7,168, replicated in bf16; enorm, hnorm, shared_head.norm; the shared head's
    # 129,280 rows (a multiple of 64) over 8 ranks, bf16
    eh_proj, norms, head = 2 * 7168 * 7168 * 2, 3 * 7168 * 2, 129280 // 8 * 7168 * 2
    assert (eh_proj, head) == (205_520_896, 231_669_760)
    assert mtp_extra_bytes(d.model, 8) == eh_proj + norms + head
    assert lm_head_bytes(129280, 7168, 8) == head
    layer = d.weights.rank_bytes(tp=8, layers=range(60, 61), first=False, last=False)
    assert pool.drafter_bytes == layer + eh_proj + norms + head
    # the layer by hand: 256 routed experts of 3 × 7,168 × 2,048 fp8 over 8 ranks (with 128 × 128 fp32
    # block scales), which dominate; MLA, the shared expert, the router and norms add ~50 MB
    routed = 256 * 3 * 7168 * 2048 // 8 + 256 * (32 * 56 + 56 * 16) * 4 // 8
    assert routed == 1_409_630_208
    assert layer == pytest.approx(1.4597e9, rel=1e-4)
    assert pool.drafter_bytes / GiB == pytest.approx(1.7666, abs=1e-4)
    # its attention caches one more latent per token: (512 + 64) × 2 bytes
    assert pool.drafter.token_bytes == 1152 and pool.drafter.kv_layers == 1


def test_the_mtp_layer_costs_deepseek_v3_a_sixteenth_of_its_sequences_at_128k():
    context = 131072
    off = deployment("deepseek-v3", "h200", 8).pool
    on = deployment("deepseek-v3", "h200", 8, Speculation(MTP, 1, mtp_layers=1)).pool
    assert on.available_bytes == pytest.approx(off.available_bytes - on.drafter_bytes)
    assert on.layers_per_group == 62 and on.page_bytes == 16 * 1152
    assert on.num_blocks == int(on.available_bytes // (16 * 1152) // 62)
    assert round(off.concurrency(context), 2) == 4.92
    assert round(on.concurrency(context), 2) == 4.64


def test_the_mtp_layers_are_read_from_the_config():
    assert dis.mtp_layers({"num_nextn_predict_layers": 1}) == 1
    assert dis.mtp_layers({"text_config": {"mtp_num_hidden_layers": 2}}) == 2
    assert dis.mtp_layers({"num_nextn_predict_layers": 0}) == 0
    spec = dis.speculation_of({"model": "deepseek-v3", "speculation": "mtp", "num_speculative_tokens": 1},
                              catalogue_model, lambda m: None)
    assert (spec.method, spec.k, spec.mtp_layers) == (MTP, 1, 1)
    assert dis.speculation_of({"speculation": "off"}, catalogue_model, lambda m: None) == Speculation()


# -- refusals --------------------------------------------------------------------------------------

def refusal(model_id, gpu, gpus, spec):
    return deployment(model_id, gpu, gpus, spec).pool.drafter.refusal


def test_what_is_not_modelled_or_refused_by_vllm_refuses_the_run_with_a_note():
    assert "EAGLE" in refusal("llama-3.1-70b", "h100-sxm", 4, Speculation("eagle3", 3))
    assert "no multi-token-prediction" in refusal("llama-3.1-70b", "h100-sxm", 4, Speculation(MTP, 1))
    assert "hybrid" in refusal("qwen3-next-80b-a3b", "h200", 2, Speculation(MTP, 1, mtp_layers=1))
    assert "draft TP" in refusal("llama-3.1-70b", "h100-sxm", 4, draft("llama-3.1-8b", draft_tp=1))
    assert "tensor-parallel" in refusal("deepseek-v3", "h200", 8, Speculation(MTP, 1, mtp_layers=1, draft_tp=1))
    assert "vocabulary" in refusal("llama-3.1-70b", "h100-sxm", 4, draft("qwen3-0.6b"))
    pool = deployment("llama-3.1-70b", "h100-sxm", 4, Speculation("eagle", 3)).pool
    assert pool.problem and not pool.starts and pool.concurrency(8192) == 0


def test_the_fewest_gpus_skip_sizes_the_drafter_refuses():
    # Qwen3-32B (64 query, 8 KV heads) drafted by Qwen3-0.6B (16 query, 8 KV heads): both split over 8
    d = deployment("qwen3-32b", "h100-sxm", 1, draft("qwen3-0.6b"))
    n = fleet.fewest_gpus(d, 8192, 1)
    assert n and d.resized(gpus=n).pool.starts and not d.resized(gpus=n).pool.problem


def test_off_leaves_every_figure_unchanged():
    assert Engine() == Engine(speculation=Speculation())
    for spec in (Speculation(), Speculation(MTP, 0, mtp_layers=1)):  # off, or no speculative token
        assert drafter(spec, catalogue_model("llama-3.1-8b"), GPUS["h100-sxm"], None, "bf16").weight_bytes == 0
    for spec, preset in ((SPEC, "llama3-70b"), (SPEC, "deepseek-v3-mla"), (ROOFLINE, "deepseek-v3-moe")):
        raw = dict(spec.preset(preset).values)
        assert spec.run(raw).values == spec.run({**raw, "speculation": "off", "num_speculative_tokens": 5}).values
        assert spec.run(raw).notes == spec.run({**raw, "speculation": "off"}).notes


def test_the_calculators_show_the_drafter():
    raw = {**SPEC.preset("llama3-70b").values, "gpus": 4, "speculation": "draft_model",
           "draft_model": "llama-3.1-8b"}
    out = SPEC.run(raw)
    assert out.values["drafter_bytes_per_gpu"] == 4_015_529_984
    assert out.values["drafter_kv_bytes_per_token"] == 32_768
    assert any("Speculative decoding with Llama 3.1 8B" in n for n in out.notes)
    off = SPEC.run({**raw, "speculation": "off"}).values
    assert off["drafter_bytes_per_gpu"] == 0 and out.values["max_concurrency"] < off["max_concurrency"]
    assert replace(Speculation(), k=3).on is False  # off whatever k


def test_the_memory_chart_counts_the_drafters_weights_as_the_budget_does():
    """The chart's fixed part (its top line less the sequences' KV) grows by the drafter's weights,
    the bytes the budget takes off before the KV cache."""
    raw = {**SPEC.preset("llama3-70b").values, "gpus": 4, "speculation": "draft_model",
           "draft_model": "llama-3.1-8b"}

    def fixed_gib(inputs):
        chart = next(c for c in SPEC.run(inputs).charts if c["title"].startswith("One GPU's memory"))
        used, kv = (s["values"] for s in chart["series"][:2])
        return used[0] - kv[0], chart
    on, chart = fixed_gib(raw)
    off, _ = fixed_gib({**raw, "speculation": "off"})
    assert on - off == pytest.approx(4_015_529_984 / 2**30, abs=0.002)
    assert "+ drafter" in chart["series"][0]["name"] and "the drafter 3.74 GiB" in chart["summary"]
