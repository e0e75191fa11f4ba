"""physics/speculation.py and its place in vLLM's pool (physics/budget.py), against derivations by hand
from vLLM's source (engines/vllm_speculation.py: a draft model sharded over the target's TP ranks, an
MTP layer = one decoder layer of the target's shape + eh_proj + norms + its own LM head, the input
embedding shared; the drafter's attention layers in the target's KV groups)."""

from __future__ import annotations

import copy
import json
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
from llm_inference.engines import vllm
from llm_inference.engines.vllm import LayerGroup
from llm_inference.engines.vllm_speculation import release_problem
from llm_inference.physics.speculation import (DRAFT_MODEL, MTP, NGRAM, Speculation, drafter, lm_head_bytes,
                                                mtp_extra_bytes, qwen_mtp_extra_bytes)
from llm_inference.models import CATALOGUE
from llm_inference.physics.cache_layout import from_available, layout
from llm_inference.physics.placement import place
from llm_inference.scenario import _catalogue_plan, _parsed, catalogue_model, model_from_shape

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
    # from 0.16.0 the proposer points shared_head.head at the target's LM head: no head of its own
    assert pool.drafter_bytes == layer + eh_proj + norms
    assert mtp_extra_bytes(d.model, 8, own_head=False) == eh_proj + norms
    old = deploy(d.model, GPUS["h200"], Layout(gpus=8), Engine(speculation=Speculation(MTP, 1, mtp_layers=1),
                                                               version="0.14.0"),
                 _catalogue_plan("deepseek-v3", "", SHIPPED), "bf16").pool
    assert old.drafter_bytes == layer + eh_proj + norms + head
    # the layer by hand: 256 routed experts of 3 × 7,168 × 2,048 fp8 over 8 ranks (with 128 × 128 fp32
    # block scales), which dominate; MLA, the shared expert, the router and norms add ~50 MB
    routed = 256 * 3 * 7168 * 2048 // 8 + 256 * (32 * 56 + 56 * 16) * 4 // 8
    assert routed == 1_409_630_208
    assert layer == pytest.approx(1.4597e9, rel=1e-4)
    assert pool.drafter_bytes / GiB == pytest.approx(1.5509, abs=1e-4)
    assert old.drafter_bytes / GiB == pytest.approx(1.7666, abs=1e-4)
    # its attention caches one more latent per token: (512 + 64) × 2 bytes
    assert pool.drafter.token_bytes == 1152 and pool.drafter.kv_layers == 1


def test_the_mtp_layer_costs_deepseek_v3_a_twentieth_of_its_sequences_at_128k():
    context = 131072
    off = deployment("deepseek-v3", "h200", 8).pool
    on = deployment("deepseek-v3", "h200", 8, Speculation(MTP, 1, mtp_layers=1)).pool
    assert on.available_bytes == pytest.approx(off.available_bytes - on.drafter_bytes)
    assert on.layers_per_group == 62 and on.page_bytes == 16 * 1152
    assert on.num_blocks == int(on.available_bytes // (16 * 1152) // 62)
    assert round(off.concurrency(context), 2) == 4.92
    assert round(on.concurrency(context), 2) == 4.67


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
    assert "NotImplementedError" in refusal("nemotron-3-super-120b-a12b", "h200", 4,
                                            Speculation(MTP, 1, mtp_layers=1, mtp_pattern="M*E"))
    assert "names no MTP layers" in refusal("nemotron-3-super-120b-a12b", "h200", 4, Speculation(MTP, 1, mtp_layers=1))
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


# -- the MTP layer of a Gated DeltaNet hybrid: Qwen3.5, Qwen3.6, Qwen3-Next -------------------------

def hybrid(model_id, gpu, gpus, k=0, model_type="qwen3_5", kv="bf16", version=None, **kw):
    """A hybrid's deployment with MTP (k speculative tokens, which also widen its states) or without."""
    spec = Speculation(MTP, k, mtp_layers=1, model_type=model_type, **kw) if k else Speculation()
    engine = Engine(speculation=spec, num_spec=k, **({"version": version} if version else {}))
    return deploy(catalogue_model(model_id), GPUS[gpu], Layout(gpus=gpus), engine,
                  _catalogue_plan(model_id, "", SHIPPED), kv)


#: Qwen3.5-27B's full-attention decoder layer by hand (config: hidden 5,120, 24 heads and 4 KV heads of
#: 256, attn_output_gate, intermediate 17,408): q_proj 5,120 → 2 × 24 × 256 (query and gate), k and v
#: 5,120 → 4 × 256, o_proj 24 × 256 → 5,120, q_norm and k_norm of 256, the MLP 3 × 5,120 × 17,408, two
#: norms of 5,120. bf16.
QWEN35_27B_ATTENTION_LAYER = 2 * (5120 * 2 * 24 * 256 + 2 * 5120 * 4 * 256 + 24 * 256 * 5120 + 2 * 256
                                  + 3 * 5120 * 17408 + 2 * 5120)


def test_a_qwen35_mtp_layer_is_a_full_attention_layer_plus_fc_and_three_norms():
    assert QWEN35_27B_ATTENTION_LAYER == 744_510_464
    # fc: ColumnParallelLinear(2 × 5,120 → 5,120), 5,120 / TP output rows; pre_fc_norm_hidden,
    # pre_fc_norm_embedding and norm of 5,120; no embedding, no LM head (the target's, shared)
    fc, norms = 5120 * 2 * 5120 * 2, 3 * 5120 * 2
    d = hybrid("qwen3.5-27b", "h100-sxm", 1, k=3)
    assert qwen_mtp_extra_bytes(d.model, 1) == fc + norms == 104_888_320
    assert d.pool.drafter_bytes == QWEN35_27B_ATTENTION_LAYER + fc + norms == 849_398_784  # 0.79 GiB
    assert d.pool.drafter_bytes < 248320 * 5120 * 2  # less than one vocabulary-sized matrix
    # its full-attention layer caches one more token of 4 KV heads × 256 × (K, V) × 2 bytes
    assert d.pool.drafter.token_bytes == 4 * 256 * 2 * 2 == 4096 and d.pool.drafter.kv_layers == 1
    # at TP 2 the layer is halved but for its norms, and fc's rows are halved
    two = hybrid("qwen3.5-27b", "h100-sxm", 2, k=3).pool
    half = (QWEN35_27B_ATTENTION_LAYER - 2 * (2 * 256 + 2 * 5120)) // 2 + 2 * (2 * 256 + 2 * 5120)
    assert two.drafter_bytes == half + fc // 2 + norms
    assert two.drafter.token_bytes == 2 * 256 * 2 * 2


def test_the_mtp_layer_joins_the_full_attention_group_and_the_blocks_fall():
    """Qwen3.5-27B on one H100, vLLM 0.33, 128k context: 16 full-attention and 48 Gated DeltaNet layers.
    The state (fp32 SSM 48 × 128 × 128, conv 10,240 channels × (3 + k) columns in bf16) is 3,207,168
    bytes without speculation and 3,268,608 with k = 3; both fit 13 attention pages of 64 × 4,096 bytes
    (align mode with FlashInfer's GDN checkpoint: a 64-token grid), so the block is 832 tokens either way.
    Groups of 16 become groups of 17: the full-attention type has 17 layers (48 is not under 1.5 × 17),
    the 48 state layers fill 3 groups of 17 (3 padding layers)."""
    context = 131072
    off = hybrid("qwen3.5-27b", "h100-sxm", 1).pool
    on = hybrid("qwen3.5-27b", "h100-sxm", 1, k=3).pool
    assert (off.block_size, on.block_size) == (832, 832) and on.page_bytes == off.page_bytes == 832 * 4096
    assert (off.layers_per_group, on.layers_per_group) == (16, 17)
    assert [g.kind for g in on.groups] == ["full", "mamba", "mamba", "mamba"] == [g.kind for g in off.groups]
    assert on.available_bytes == pytest.approx(off.available_bytes - 849_398_784)
    assert off.num_blocks == int(off.available_bytes // (832 * 4096) // 16) == 254
    assert on.num_blocks == int(on.available_bytes // (832 * 4096) // 17) == 225
    # a request: cdiv(131,072, 832) = 158 attention blocks; per state group 2 pages (align), 1 checkpoint
    # page and, with MTP, 3 speculative pages
    assert off.concurrency(context) == pytest.approx(254 / (158 + 3 * 3))
    assert on.concurrency(context) == pytest.approx(225 / (158 + 3 * (3 + 3)))
    assert (round(off.concurrency(context), 2), round(on.concurrency(context), 2)) == (1.52, 1.28)


def test_qwen3_next_builds_one_mtp_layer_with_its_moe():
    """Qwen3-Next-80B-A3B at TP 2: its config names no MTP count, vLLM builds one layer; the layer is
    gated attention (16 heads, 2 KV heads of 256) with the MoE (512 experts of 3 × 2,048 × 512, a shared
    expert of 512, its gate, the router)."""
    assert dis.mtp_layers(CATALOGUE["qwen3-next-80b-a3b"].config) == 1
    attention = (2048 * 2 * 16 * 256 + 2 * 2048 * 2 * 256 + 16 * 256 * 2048) // 2
    experts = 512 * 3 * 2048 * 512 // 2 + 3 * 2048 * 512 // 2
    replicated = 512 * 2048 + 2048 + 2 * 256 + 2 * 2048  # router, shared-expert gate, q/k norms, layer norms
    fc, norms = 2048 // 2 * 2 * 2048, 3 * 2048
    pool = hybrid("qwen3-next-80b-a3b", "h200", 2, k=3, model_type="qwen3_next").pool
    assert pool.drafter_bytes == 2 * (attention + experts + replicated + fc + norms) == 1_651_532_800
    assert pool.drafter.token_bytes == 1 * 256 * 2 * 2
    assert pool.layers_per_group == 13  # 12 full-attention layers and the MTP's


def test_an_nvfp4_checkpoint_that_leaves_mtp_unquantized_gets_a_bf16_mtp_layer():
    """NVIDIA's Qwen3.6 NVFP4 release ignores ``mtp*``: vLLM builds ``mtp.layers.0`` and ``mtp.fc`` with the
    quant config, whose ignore list leaves them in bf16, as in the bf16 release."""
    bf16 = hybrid("qwen3.6-35b-a3b", "b200", 1, k=2, model_type="qwen3_5_moe").pool
    nvfp4 = hybrid("qwen3.6-35b-a3b-nvfp4", "b200", 1, k=2, model_type="qwen3_5_moe").pool
    assert nvfp4.drafter_bytes == bf16.drafter_bytes > 0 and not nvfp4.drafter.refusal


def test_a_quantized_checkpoint_quantizes_the_qwen_mtp_layer_too():
    """Qwen3.5-27B in fp8 with 128 × 128 block scales (quant_method fp8, no ignore list), one H100: the MTP
    layer's linear layers and fc are fp8 (one byte a weight, an fp32 scale per 128 × 128 block), its norms
    bf16. By hand from the config (hidden 5,120; 24 heads and 4 KV heads of 256, gated; intermediate 17,408)."""
    def fp8(rows, cols):
        return rows * cols + -(-rows // 128) * -(-cols // 128) * 4
    layer = (fp8(2 * 24 * 256, 5120) + 2 * fp8(4 * 256, 5120) + fp8(5120, 24 * 256) + 2 * fp8(17408, 5120)
             + fp8(5120, 17408) + (2 * 256 + 2 * 5120) * 2)
    fc, norms = fp8(5120, 2 * 5120), 3 * 5120 * 2
    assert layer + fc + norms == 424_829_184  # half the bf16 layer's 849,398,784
    spec = Speculation(MTP, 3, mtp_layers=1, model_type="qwen3_5")
    model, gpu = catalogue_model("qwen3.5-27b"), GPUS["h100-sxm"]
    plan = _catalogue_plan("qwen3.5-27b", "", "fp8-block")
    off = deploy(model, gpu, Layout(gpus=1), Engine(), plan, "bf16").pool
    on = deploy(model, gpu, Layout(gpus=1), Engine(speculation=spec, num_spec=3), plan, "bf16").pool
    assert on.drafter_bytes == 424_829_184 and not on.drafter.refusal
    assert on.available_bytes == pytest.approx(off.available_bytes - 424_829_184)
    # the blocks: groups of 16 become 17 (the MTP layer joins the full-attention type), as in bf16
    assert (off.layers_per_group, on.layers_per_group) == (16, 17)
    assert on.num_blocks == int(on.available_bytes // on.page_bytes // 17)
    assert (round(off.concurrency(131072), 2), round(on.concurrency(131072), 2)) == (4.2, 3.7)


def test_glm45_air_fp8_mtp_layer_is_fp8_like_its_last_layer():
    """GLM-4.5-Air in fp8 with 128 × 128 block scales on 2 H100s, MTP k = 1 (glm4_moe_mtp.py: model.layers.46
    a Glm4MoeDecoderLayer built with the quant config, eh_proj an nn.Linear in bf16). By hand from the config
    (hidden 4,096; 96 heads and 8 KV heads of 128 with q/k/v biases; 128 experts and a shared one of 1,408)."""
    def fp8(rows, cols):
        return rows * cols + -(-rows // 128) * -(-cols // 128) * 4
    attention = (fp8(96 * 128 // 2, 4096) + 2 * fp8(4 * 128, 4096) + fp8(4096, 96 * 128 // 2)
                 + (96 * 128 + 2 * 8 * 128) // 2 * 2)  # q, k, v (4 of 8 KV heads), o; the biases in bf16
    moe = 128 * 3 * fp8(1408 // 2, 4096) + 3 * fp8(1408 // 2, 4096) + 128 * 4096 * 2  # experts, shared, router
    layer = attention + moe + 2 * 4096 * 2  # and the two layer norms
    eh_proj, norms = 2 * 4096 * 4096 * 2, 3 * 4096 * 2
    assert layer + eh_proj + norms == 1_238_996_224  # 1.15 GiB
    spec = Speculation(MTP, 1, mtp_layers=1, model_type="glm4_moe")
    model, plan = catalogue_model("glm-4.5-air"), _catalogue_plan("glm-4.5-air", "", "fp8-block")
    off = deploy(model, GPUS["h100-sxm"], Layout(gpus=2), Engine(), plan, "bf16").pool
    on = deploy(model, GPUS["h100-sxm"], Layout(gpus=2), Engine(speculation=spec, num_spec=1), plan, "bf16").pool
    assert on.drafter_bytes == 1_238_996_224
    # 4 KV heads × 128 × (K, V) × 2 bytes in 46 layers, and one more
    assert (off.bytes_per_token, on.bytes_per_token) == (46 * 2048, 47 * 2048)
    assert (off.layers_per_group, on.layers_per_group) == (46, 47)
    assert (off.num_blocks, on.num_blocks) == (11004, 9966)
    assert (round(off.concurrency(131072), 2), round(on.concurrency(131072), 2)) == (1.34, 1.22)


#: GLM-5's MTP layer (model.layers.78) in bf16 on one of 8 ranks, by hand from its config (hidden 6,144;
#: 64 heads; q_lora 2,048, kv_lora 512 + rope 64; nope 192, v 256; indexer 32 heads of 128; 256 experts
#: and a shared one of 2,048): the low-rank q_a / kv_a, the indexer's wq_b / wk / weights_proj and the
#: router replicated, q_b / kv_b / o and the experts split over 8.
GLM5_REPLICATED = 2048 * 6144 + 576 * 6144 + 4096 * 2048 + 128 * 6144 + 32 * 6144 + 256 * 6144
GLM5_SPLIT = (16384 * 2048 + 28672 * 512 + 6144 * 16384 + 3 * 2048 * 6144 + 256 * 3 * 2048 * 6144) // 8
GLM5_NORMS = 2048 + 512 + 2 * 128 + 2 * 6144  # q_a / kv_a layernorms, the indexer's k_norm (weight, bias), two
GLM5_MTP_LAYER_BF16 = (GLM5_REPLICATED + GLM5_SPLIT + GLM5_NORMS) * 2
GLM5_EH_PROJ_NORMS = (2 * 6144 * 6144 + 3 * 6144) * 2  # eh_proj (nn.Linear, bf16, replicated), enorm, hnorm, head norm


def test_the_ignore_list_decides_the_glm5_mtp_layers_format():
    """vLLM builds model.layers.78 with the checkpoint's quant config. NVIDIA's GLM-5 NVFP4 excludes
    ``model.layers.78*``: the layer is bf16 (while layer 77's experts are NVFP4). Z.ai's GLM-5-FP8 names
    only layer 78's norms, eh_proj and router in modules_to_not_convert: its linear layers are fp8."""
    assert GLM5_MTP_LAYER_BF16 == 2_516_743_680
    spec = Speculation(MTP, 1, mtp_layers=1, model_type="glm_moe_dsa")
    nvfp4 = deployment("glm-5-nvfp4", "b200", 8, spec)
    assert nvfp4.pool.drafter_bytes == GLM5_MTP_LAYER_BF16 + GLM5_EH_PROJ_NORMS == 2_667_775_488  # 2.48 GiB
    # ... where the last target layer, NVFP4 experts, holds 0.77 GB
    assert nvfp4.weights.rank_bytes(tp=8, layers=range(77, 78), first=False, last=False) < 0.8e9
    fp8 = deployment("glm-5-fp8", "h200", 8, spec).pool
    # the routed experts in fp8 (a byte a weight, an fp32 scale per 128 × 128 block of each rank's shard)
    routed = 256 * 3 * 6144 * 2048 // 8 + 256 * 3 * 16 * 48 * 4 // 8
    assert routed == 1_208_254_464
    assert fp8.drafter_bytes - GLM5_EH_PROJ_NORMS == pytest.approx(1.2649e9, rel=1e-4)
    # each caches one more latent and indexer key a token: (512 + 64) × 2 + 128 + 4 bytes
    assert nvfp4.pool.drafter.token_bytes == fp8.drafter.token_bytes == 1152 + 132


def test_glm5_mtp_costs_the_pool_its_layer_and_one_layer_more_a_block():
    """GLM-5 NVFP4 on 8 B200s, 128k context: the pool loses the 2.48 GiB MTP layer and a block spans 79
    layers of 64 tokens × 1,284 bytes instead of 78."""
    context = 131072
    off = deployment("glm-5-nvfp4", "b200", 8).pool
    on = deployment("glm-5-nvfp4", "b200", 8, Speculation(MTP, 1, mtp_layers=1, model_type="glm_moe_dsa")).pool
    assert on.available_bytes == pytest.approx(off.available_bytes - 2_667_775_488)
    assert (off.layers_per_group, on.layers_per_group) == (78, 79) and on.page_bytes == 64 * 1284
    assert on.num_blocks == int(on.available_bytes // (64 * 1284) // 79)
    assert (round(off.concurrency(context), 2), round(on.concurrency(context), 2)) == (8.31, 8.01)


def test_glm52_mtp_layer_adds_a_latent_and_an_indexer_page_to_the_block():
    """GLM-5.2 keeps the indexer on 21 of its 78 layers (0, 1, 2 and every fourth from 6), in one
    uniform-type group of 64-token blocks (physics/multi_page_pool.py). Its MTP layer (model.layers.78)
    always builds an indexer (deepseek_v2.py: "MTP/nextn layers ... always build a full indexer"), so it
    adds a latent page and an indexer page to the block. vLLM 0.27.0, bf16 KV: a latent is (512 + 64) × 2
    = 1,152 bytes a token, an indexer key 128 + 4."""
    spec = Speculation(MTP, 1, mtp_layers=1, model_type="glm_moe_dsa")
    model, plan = catalogue_model("glm-5.2-fp8"), _catalogue_plan("glm-5.2-fp8", "", SHIPPED)
    off = deploy(model, GPUS["h200"], Layout(gpus=8), Engine(version="0.27.0"), plan, "bf16").pool
    on = deploy(model, GPUS["h200"], Layout(gpus=8), Engine(speculation=spec, num_spec=1, version="0.27.0"), plan,
                "bf16").pool
    assert off.page_bytes == 64 * (78 * 1152 + 21 * 132) == 5_928_192
    assert on.page_bytes == 64 * (79 * 1152 + 22 * 132) == 6_010_368
    assert on.drafter.token_bytes == 1152 + 132 and not on.drafter.refusal and not on.layout.unmodelled
    # the MTP layer: GLM-5's shapes, fp8 where layer 77 is, and the indexer layer 77 lacks (its selection is
    # shared): the same bytes as GLM-5-FP8's MTP layer, whose every layer has one
    assert on.drafter_bytes == deployment("glm-5-fp8", "h200", 8, spec).pool.drafter_bytes == 1_415_951_360
    assert on.num_blocks == int(on.available_bytes // 6_010_368)
    assert (round(off.concurrency(131072), 2), round(on.concurrency(131072), 2)) == (3.21, 2.84)
    # NVIDIA's NVFP4 release ignores model.layers.78*: the MTP layer is GLM-5's in bf16
    nvfp4 = deploy(catalogue_model("glm-5.2-nvfp4"), GPUS["b200"], Layout(gpus=8),
                   Engine(speculation=spec, num_spec=1, version="0.27.0"),
                   _catalogue_plan("glm-5.2-nvfp4", "", SHIPPED), "bf16").pool
    assert nvfp4.drafter_bytes == GLM5_MTP_LAYER_BF16 + GLM5_EH_PROJ_NORMS


def test_the_calculator_shows_glm52_mtp_in_its_pool():
    raw = {**SPEC.preset("llama3-70b").values, "model": "glm-5.2-fp8", "gpu": "h200", "gpus": 8,
           "vllm_version": "0.27.0"}
    off = SPEC.run(raw).values
    on = SPEC.run({**raw, "speculation": "mtp", "num_speculative_tokens": 1}).values
    assert on["drafter_bytes_per_gpu"] == 1_415_951_360 and on["drafter_kv_bytes_per_token"] == 1284
    assert on["kv_cache_memory"] < off["kv_cache_memory"] and on["max_concurrency"] < off["max_concurrency"]


def test_mimo_v2_flash_mtp_is_a_sliding_window_layer_with_a_dense_mlp():
    """MiMo-V2-Flash at TP 4 on H200s (fp8 with 128 × 128 block scales, hidden 4,096): vLLM builds one MTP
    layer (mimo_v2_mtp.py) of the sliding-window geometry (64 heads of 192 / 128, 8 KV heads, a sink bias
    a head), a dense MLP of 16,384, eh_proj (ReplicatedLinear 2h → h without the quant config: bf16,
    whole) and five norms. By hand, one rank's share."""
    def fp8(rows, cols):
        return rows * cols + -(-rows // 128) * -(-cols // 128) * 4
    attention = (fp8(64 * 192 // 4, 4096) + fp8(2 * 192, 4096) + fp8(2 * 128, 4096) + fp8(4096, 64 * 128 // 4)
                 + 64 // 4 * 2 + 4096 * 2)  # q, k and v (2 of the 8 KV heads), o, the sink bias, input norm
    mlp = 3 * fp8(16384 // 4, 4096)
    eh_proj, norms = 2 * 4096 * 4096 * 2, 4 * 4096 * 2  # enorm, hnorm, pre_mlp_layernorm, final_layernorm
    assert attention + mlp + eh_proj + norms == 141_092_512
    config = CATALOGUE["mimo-v2-flash"].config
    assert dis.mtp_layers(config) == 1 and dis.model_type(config) == "mimo_v2_flash"
    spec = Speculation(MTP, 1, mtp_layers=1, model_type="mimo_v2_flash")
    model, plan = catalogue_model("mimo-v2-flash"), _catalogue_plan("mimo-v2-flash", "", SHIPPED)
    off = deploy(model, GPUS["h200"], Layout(gpus=4), Engine(), plan, "bf16").pool
    on = deploy(model, GPUS["h200"], Layout(gpus=4), Engine(speculation=spec, num_spec=1), plan, "bf16").pool
    assert on.drafter_bytes == 141_092_512 and not on.drafter.refusal
    # a sliding-window layer's KV: 2 KV heads × (192 + 128) × 2 bytes a token
    assert on.drafter.token_bytes == 2 * (192 + 128) * 2 and on.drafter.window_layers == 1
    assert on.available_bytes == pytest.approx(off.available_bytes - 141_092_512)
    # 9 full and 39 sliding layers are groups of 9, the sliding ones 5 groups (6 padding slots): the 40th
    # sliding layer takes one, so the groups, the page and a request's blocks stay; only the weights cost
    assert (off.layers_per_group, on.layers_per_group) == (9, 9) and len(on.groups) == len(off.groups) == 6
    assert on.page_bytes == off.page_bytes and on.num_blocks == int(on.available_bytes // on.page_bytes // 9)
    assert on.num_blocks < off.num_blocks
    assert (round(off.concurrency(131072), 2), round(on.concurrency(131072), 2)) == (31.05, 30.97)
    # up to 0.30 the MTP attention is built without the cache config: with an fp8 cache, refused
    old = deploy(model, GPUS["h200"], Layout(gpus=4), Engine(speculation=spec, num_spec=1, version="0.30.0"),
                 plan, "fp8").pool
    assert "model dtype" in old.drafter.refusal
    assert "0.21.0" in release_problem("mtp", "0.20.0", "mimo_v2_flash")


def test_the_calculator_reads_the_qwen_mtp_from_the_catalogue_config():
    spec = dis.speculation_of({"model": "qwen3.6-35b-a3b-nvfp4", "speculation": "mtp", "num_speculative_tokens": 2},
                              catalogue_model, lambda m: None)
    assert (spec.mtp_layers, spec.model_type) == (1, "qwen3_5_moe")
    raw = {**SPEC.preset("llama3-70b").values, "model": "qwen3.5-27b", "gpu": "h100-sxm", "gpus": 1,
           "speculation": "mtp", "num_speculative_tokens": 3}
    out = SPEC.run(raw)
    assert out.values["drafter_bytes_per_gpu"] == 849_398_784
    assert out.values["drafter_kv_bytes_per_token"] == 4096


def test_the_calculator_shows_glm5_nvfp4_mtp_in_bf16():
    raw = {**SPEC.preset("llama3-70b").values, "model": "glm-5-nvfp4", "gpu": "b200", "gpus": 8}
    off = SPEC.run(raw).values
    on = SPEC.run({**raw, "speculation": "mtp", "num_speculative_tokens": 1}).values
    assert on["drafter_bytes_per_gpu"] == 2_667_775_488 and on["drafter_kv_bytes_per_token"] == 1284
    assert on["kv_cache_memory"] < off["kv_cache_memory"] and on["max_concurrency"] < off["max_concurrency"]


def test_the_qwen35_9b_log_one_full_attention_layer_more_in_each_group():
    """Qwen3.5-9B on an RTX 5090, vLLM 0.20.0 (search-index id 55002292133): 8 full-attention and 24
    Gated DeltaNet layers; with MTP 'Add 3 padding layers, may waste at most 12.50% KV cache memory',
    and 'Model loading took' 18.12 GiB against 17.66 GiB."""
    assert vllm.kv_cache_groups([LayerGroup("full", 8), LayerGroup("mamba", 24)], "0.20.0") == (
        8, [LayerGroup("full", 1)] + [LayerGroup("mamba", 1)] * 3, 0)
    size, groups, padding = vllm.kv_cache_groups([LayerGroup("full", 9), LayerGroup("mamba", 24)], "0.20.0")
    assert (size, len(groups), padding) == (9, 4, 3) and padding / 24 == 0.125
    # the MTP layer by hand (hidden 4,096, 16 heads and 4 KV heads of 256, gated, intermediate 12,288) with
    # fc and three norms, bf16: 0.453 GiB, the logged 0.46 GiB to its rounding
    layer = (4096 * 2 * 16 * 256 + 2 * 4096 * 4 * 256 + 16 * 256 * 4096 + 2 * 256 + 3 * 4096 * 12288
             + 2 * 4096)
    loaded = 2 * (layer + 2 * 4096 * 4096 + 3 * 4096)
    assert abs(loaded / GiB - (18.12 - 17.66)) <= 0.01
    # the token counts (up to 0.20: blocks // 4 groups × the 528-token block): 53,328 is 101 × 528 and
    # 41,184 is 78 × 528, so about 407 blocks of 8 layers become 312-315 of 9
    assert 53328 == 101 * 528 and 41184 == 78 * 528


def qwen35_9b():
    """Qwen3.5-9B as Qwen3.5-27B's config with the 9B's figures (hidden 4,096, intermediate 12,288, 32
    layers of which every fourth is full attention, 16 heads, 32 Gated DeltaNet value heads)."""
    config = copy.deepcopy(CATALOGUE["qwen3.5-27b"].config)
    config["text_config"].update(hidden_size=4096, intermediate_size=12288, num_hidden_layers=32,
                                 num_attention_heads=16, linear_num_value_heads=32,
                                 layer_types=(["linear_attention"] * 3 + ["full_attention"]) * 8)
    return model_from_shape(_parsed(json.dumps(config)), config)


def test_the_qwen35_9b_layout_with_and_without_mtp():
    """The log's pool, vLLM 0.20.0 on an RTX 5090 (alignment 16, no prefix caching: 'none' mode). The
    state: fp32 SSM 32 × 128 × 128 = 2,097,152 bytes and a conv window of 8,192 channels × (3 + k) in
    bf16: 2,146,304 bytes, or 2,162,688 with k = 1; both need 33 pages of 16 × 4,096 bytes, so the block
    is 528 tokens. At the logged 6.56 GiB the plain pool gives the logged 53,328 tokens; with MTP a
    block spans 9 layers."""
    model = qwen35_9b()
    placed = place(model, Layout(gpus=1), "bf16")
    plain = layout(model, placed, "bf16", gpu_name="NVIDIA GeForce RTX 5090", version="0.20.0")
    mtp = layout(model, placed, "bf16", gpu_name="NVIDIA GeForce RTX 5090", version="0.20.0", num_spec=1,
                 draft_attention_layers=1)
    assert (plain.block_size, plain.state_page_bytes, plain.layers_per_group, len(plain.groups)) == (
        528, 32 * 128 * 128 * 4 + 8192 * 3 * 2, 8, 4)
    assert (mtp.block_size, mtp.state_page_bytes, mtp.layers_per_group, len(mtp.groups)) == (
        528, 32 * 128 * 128 * 4 + 8192 * 4 * 2, 9, 4)
    assert plain.page_bytes == mtp.page_bytes == 528 * 4 * 256 * 2 * 2
    assert from_available(plain, 6.56 * GiB, 4096)[2] == 53328


def test_nemotron_3_super_mtp_is_an_attention_and_a_latent_moe_layer_of_its_own():
    """Nemotron 3 Super at TP 4 (hidden 4,096; 32 heads and 2 KV heads of 128; 512 latent experts of
    2,688 over a 1,024 latent, a shared expert of 5,376), mtp_hybrid_override_pattern '*E': the
    attention layer with enorm, hnorm and eh_proj, the MoE layer with final_layernorm."""
    config = CATALOGUE["nemotron-3-super-120b-a12b"].config
    assert (dis.mtp_pattern(config), dis.mtp_layers(config)) == ("*E", 1)
    assert dis.mtp_pattern({"mtp_layers_block_type": ["attention", "moe"]}) == "*E"
    # attention: q and o split over 4, the 2 KV heads replicated to one a rank; its norm
    attention = 4096 * 4096 // 4 + 2 * 128 * 4096 + 4096 * 4096 // 4 + 4096
    # MoE: the experts' up and down over 4, the shared expert over 4; router, latent projections, norm whole
    moe = 512 * 2 * 2688 * 1024 // 4 + 2 * 5376 * 4096 // 4 + 512 * 4096 + 2 * 1024 * 4096 + 4096
    eh_proj, norms = 4096 // 4 * 2 * 4096, 3 * 4096
    spec = Speculation(MTP, 3, mtp_layers=1, model_type="nemotron_h", mtp_pattern="*E")
    engine = Engine(speculation=spec, num_spec=3)
    pool = deploy(catalogue_model("nemotron-3-super-120b-a12b"), GPUS["h200"], Layout(gpus=4), engine,
                  _catalogue_plan("nemotron-3-super-120b-a12b", "", SHIPPED), "bf16").pool
    assert pool.drafter_bytes == 2 * (attention + moe + eh_proj + norms) == 1_487_970_304
    # one attention layer more: 1 KV head × 128 × (K, V) × 2 bytes a token; groups of 9 (8 + 1), the 40
    # Mamba layers in 5 groups of 9 ('Add 5 padding layers' in engines/hybrid_logs.py's log)
    assert pool.drafter.kv_layers == 1 and pool.drafter.token_bytes == 512
    assert pool.layers_per_group == 9 and len(pool.groups) == 6


# -- release gates ---------------------------------------------------------------------------------

def test_a_method_is_refused_on_a_release_before_its_v1_drafter():
    assert "0.10.2" in release_problem("mtp", "0.10.1", "qwen3_next")
    assert release_problem("mtp", "0.10.2", "qwen3_next") == ""
    assert "0.17.0" in release_problem("mtp", "0.15.0", "qwen3_5_moe")
    assert "0.9.0" in release_problem("mtp", "0.8.5", "deepseek_v3") and release_problem("mtp", "0.9.0") == ""
    # GLM-5's glm_moe_dsa joins deepseek_v3 / deepseek_v32 in hf_config_override from 0.16.0 (0.15.1 has not)
    assert "0.16.0" in release_problem("mtp", "0.15.1", "glm_moe_dsa")
    assert not release_problem("mtp", "0.16.0", "glm_moe_dsa")
    assert "0.15.0" in release_problem("draft_model", "0.14.1") and release_problem("draft_model", "0.15.0") == ""
    assert all(release_problem(m, "0.8.5") == "" for m in (NGRAM, "eagle", "eagle3"))
    # and through the pool
    old = hybrid("qwen3-next-80b-a3b", "h200", 2, k=1, model_type="qwen3_next", version="0.10.1").pool
    assert "first in 0.10.2" in old.drafter.refusal and old.problem
    e = Engine(speculation=draft("llama-3.1-8b"), version="0.14.0")
    d = deploy(catalogue_model("llama-3.1-70b"), GPUS["h100-sxm"], Layout(gpus=4), e,
               _catalogue_plan("llama-3.1-70b", "", SHIPPED), "bf16")
    assert "0.15.0" in d.pool.drafter.refusal and not d.pool.starts
    # and in the calculator, whose release choice is one of engines.vllm_releases.RELEASES
    raw = {**SPEC.preset("llama3-70b").values, "model": "qwen3-next-80b-a3b", "gpu": "h200", "gpus": 2,
           "speculation": "mtp", "num_speculative_tokens": 3}
    assert any("first in 0.10.2" in n for n in SPEC.run({**raw, "vllm_version": "0.9.1"}).notes)
    assert SPEC.run({**raw, "vllm_version": "0.11.0"}).values["drafter_bytes_per_gpu"] == 1_651_532_800


def test_the_calculator_builds_mimo_v2_flash_mtp_from_its_architecture():
    """MiMo-V2-Flash's config names no MTP count: vLLM builds one layer from its architecture."""
    raw = {**SPEC.preset("llama3-70b").values, "model": "mimo-v2-flash", "gpu": "h200", "gpus": 4}
    off = SPEC.run(raw).values
    on = SPEC.run({**raw, "speculation": "mtp", "num_speculative_tokens": 1}).values
    assert on["drafter_bytes_per_gpu"] == 141_092_512 and on["drafter_kv_bytes_per_token"] == 1280
    assert on["max_concurrency"] < off["max_concurrency"]


def test_deepseek_v4_mtp_layer_is_its_last_layer_without_compressor_and_indexer():
    """DeepSeek-V4-Flash at TP 2 (vLLM 0.21.0, deepseek_v4_mtp.py): DeepSeekV4MultiTokenPredictorLayer =
    a DeepseekV4DecoderLayer at model.layers.43 with compress_ratio 1 (no compressor, no indexer: the
    last layer's C4 attention without them, its MoE, norms and mixers), e_proj and h_proj
    (ReplicatedLinear(4,096, 4,096) with the fp8 quant config: 16,777,216 bytes and 32 x 32 one-byte ue8m0
    block scales each, whole on both ranks), enorm, hnorm and shared_head.norm (4,096 bf16 each) and the
    fp32 hc_head_fn (4 x 16,384), hc_head_base (4) and hc_head_scale (1); LM head and embedding shared.
    Its cache is one more window (no bytes per token of context)."""
    from llm_inference.physics.speculation import _layer_tensors, module_bytes
    spec = Speculation(MTP, 2, mtp_layers=1, model_type="deepseek_v4")
    model, plan = catalogue_model("deepseek-v4-flash"), _catalogue_plan("deepseek-v4-flash", "", SHIPPED)
    pool = deploy(model, GPUS["gb10"], Layout(gpus=2), Engine(speculation=spec, num_spec=2, version="0.21.0"),
                  plan, "fp8").pool
    d = pool.drafter
    assert not d.refusal and not pool.layout.unmodelled
    assert (d.kv_layers, d.window_layers, d.token_bytes) == (1, 1, 0.0)
    weights = plan.on(GPUS["gb10"], "0.21.0")
    last = _layer_tensors(weights.plan, 42)
    kept = [replace(t, layer=43) for t in last if "compressor." not in t.module and "indexer." not in t.module]
    assert len(kept) == len(last) - 12  # compressor wkv, wgate, ape, norm; indexer wq_b, weights_proj, k_norm x2,
    #                                     and its compressor's four
    extras = 2 * (4096 * 4096 + 32 * 32) + 3 * 4096 * 2 + (4 * 16384 + 4 + 1) * 4
    assert extras == 33_556_480 + 24_576 + 262_164
    assert d.weight_bytes == module_bytes(weights, kept, 2) + extras
    assert 1.6 * GiB < d.weight_bytes < 1.8 * GiB  # the routed experts' MXFP4 half
    # no compressor or indexer in it: less than the last layer's bytes plus the extras
    assert d.weight_bytes < module_bytes(weights, [replace(t, layer=43) for t in last], 2) + extras


def test_deepseek_v4_mtp_is_gated_from_020():
    assert release_problem(MTP, "0.19.1", "deepseek_v4")
    assert release_problem(MTP, "0.20.0", "deepseek_v4") == ""


def test_deepseek_v4_mtp_beside_nvfp4_experts_is_refused():
    """NVIDIA's NVFP4 release ignores mtp.* and lists only the backbone's experts as NVFP4: how vLLM formats the
    MTP layer there was not read, so the run is refused rather than guessed."""
    spec = Speculation(MTP, 2, mtp_layers=1, model_type="deepseek_v4")
    model, plan = catalogue_model("deepseek-v4-flash-nvfp4"), _catalogue_plan("deepseek-v4-flash-nvfp4", "", SHIPPED)
    pool = deploy(model, GPUS["b200"], Layout(gpus=4), Engine(speculation=spec, num_spec=2, version="0.26.0"),
                  plan, "fp8").pool
    assert "NVFP4" in pool.drafter.refusal
