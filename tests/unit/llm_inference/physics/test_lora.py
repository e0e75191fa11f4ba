"""llm_inference/physics/lora.py: vLLM's LoRA slots per GPU, against derivations by hand from its
source (vllm/lora/layers/*.py create_lora_weights at 0.33.0; engines/vllm_lora.py cites the lines).

Llama 3.1 8B (32 layers, hidden 4096, 32 query heads and 8 KV heads of 128, MLP 14,336, vocabulary
128,256), --max-loras 4 (M) --max-lora-rank 16 (R), bf16, TP 1. Per layer, numbers:

    qkv_proj  (3 slices)  A 3 × 4 × 16 × 4096 = 786,432     B 4 × 16 × (4096 + 1024 + 1024) = 393,216
    o_proj    (row)       A 4 × 16 × 4096     = 262,144     B 4 × 4096 × 16                  = 262,144
    gate_up   (2 slices)  A 2 × 4 × 16 × 4096 = 524,288     B 4 × 16 × 2 × 14,336            = 1,835,008
    down_proj (row)       A 4 × 16 × 14,336   = 917,504     B 4 × 4096 × 16                  = 262,144
                                                            layer: 5,242,880; 32 layers: 167,772,160
    embed_tokens          A 4 × 128,256 × 16 = 8,208,384    B 4 × 4096 × 16 = 262,144
    lm_head               A 4 × 16 × 4096    = 262,144      B 4 × 128,256 × 16 = 8,208,384
    in all 184,713,216 numbers × 2 bytes = 369,426,432 bytes.

Index buffers at vLLM's H100 defaults (8,192 batched tokens, 1,024 sequences), 0.33.0:
8 × (4 × 8192 + 3 × 1024) = 286,720 (PunicaWrapperBase) + 2 × 4 × (2 × 8192 + 5 + 5 + 6) = 131,200
(two LoRAKernelMeta) = 417,920 bytes. An earlier attempt's 369,713,152 is the slots and the punica
vectors without the two kernel metadata (369,426,432 + 286,720).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from llm_inference import scenario
from llm_inference.engines import vllm_lora
from llm_inference.physics import lora
from llm_inference.physics.lora import LoraSlots
from llm_inference.physics.model import Model, SideModules

LLAMA = Model(layers=32, kv_heads=8, head_dim=128, heads=32, hidden_size=4096, intermediate_size=14336,
              vocab_size=128256, total_params=8.03e9)
ARCH = "LlamaForCausalLM"
SLOTS = LoraSlots(4, 16)


def test_llama_8b_tp1_by_hand():
    layer = (3 * 4 * 16 * 4096 + 4 * 16 * 6144) + (4 * 16 * 4096 + 4 * 4096 * 16) \
        + (2 * 4 * 16 * 4096 + 4 * 16 * 2 * 14336) + (4 * 16 * 14336 + 4 * 4096 * 16)
    assert layer == 5_242_880
    embeddings = 2 * (4 * 128256 * 16 + 4 * 4096 * 16)
    assert 2 * (32 * layer + embeddings) == 369_426_432
    m = lora.memory(LLAMA, ARCH, "0.33.0", SLOTS, 1, tokens=8192, seqs=1024, dtype_bytes=2)
    assert (m.slot_bytes, m.index_bytes, m.problem, m.refusal) == (369_426_432, 417_920, "", "")
    assert m.total_bytes == 369_844_352


def test_tp2_splits_column_b_and_row_a_and_keeps_the_rest_whole():
    # qkv: A whole (3 × M × R × 4096), B of 16 query heads and 4 KV heads; o_proj: A of 2048 inputs,
    # B whole; gate_up: A whole, B of 2 × 7168; down: A of 7168, B whole; embeddings whole.
    layer = (3 * 4 * 16 * 4096 + 4 * 16 * (2048 + 512 + 512)) + (4 * 16 * 2048 + 4 * 4096 * 16) \
        + (2 * 4 * 16 * 4096 + 4 * 16 * 2 * 7168) + (4 * 16 * 7168 + 4 * 4096 * 16)
    embeddings = 2 * (4 * 128256 * 16 + 4 * 4096 * 16)
    assert lora.slot_elements(LLAMA, vllm_lora.layout_of(ARCH, "0.33.0"), 2, SLOTS) == 32 * layer + embeddings
    m = lora.memory(LLAMA, ARCH, "0.33.0", SLOTS, 2, tokens=8192, seqs=1024, dtype_bytes=2)
    assert m.slot_bytes == 260_374_528
    # under TP the LM head keeps an int64 map of the padded vocabulary (128,256 is a multiple of 64)
    assert m.index_bytes == 417_920 + 8 * 128256


def test_fully_sharded_loras_split_column_a_by_rank_and_row_b_by_output():
    # --fully-sharded-loras at TP 2 (base_linear.py create_lora_weights): qkv and gate_up A keep
    # 16 / 2 = 8 of the rank, o_proj and down_proj B 4096 / 2 = 2048 outputs; the rest as without it
    sharded = LoraSlots(4, 16, fully_sharded=True)
    layer = (3 * 4 * 8 * 4096 + 4 * 16 * (2048 + 512 + 512)) + (4 * 16 * 2048 + 4 * 2048 * 16) \
        + (2 * 4 * 8 * 4096 + 4 * 16 * 2 * 7168) + (4 * 16 * 7168 + 4 * 2048 * 16)
    embeddings = 2 * (4 * 128256 * 16 + 4 * 4096 * 16)  # whole: the embedding and LM head ignore it
    assert lora.slot_elements(LLAMA, vllm_lora.layout_of(ARCH, "0.33.0"), 2, sharded) == 32 * layer + embeddings
    # at TP 1 it changes nothing
    assert lora.slot_elements(LLAMA, vllm_lora.layout_of(ARCH, "0.33.0"), 1, sharded) == \
        lora.slot_elements(LLAMA, vllm_lora.layout_of(ARCH, "0.33.0"), 1, SLOTS)
    # the fused-MoE wrapper: w13 A (4, 128, 8, 2048) per slice, w2 B (4, 128, 1024, 16); the router whole
    moe = lora.moe_elements(QWEN3_MOE, vllm_lora.layout_of(QWEN3_MOE_ARCH, "0.33.0"), 2, sharded)
    assert moe == (4 * 16 * 2048 + 4 * 128 * 16) + 2 * 4 * 128 * 8 * 2048 + 2 * 4 * 128 * 384 * 16 \
        + 4 * 128 * 16 * 384 + 4 * 128 * 1024 * 16
    # vLLM refuses a rank the GPUs do not divide, and fully sharded LoRA with expert parallelism
    assert "does not divide" in lora.refusal(LLAMA, ARCH, "0.33.0", LoraSlots(4, 1, True), tensor_parallel=2)
    assert "fully_sharded_loras" in lora.memory(QWEN3_MOE, QWEN3_MOE_ARCH, "0.33.0", sharded, 2, 8192, 1024, 2,
                                                expert_parallel=2).refusal


def test_kv_heads_fewer_than_the_gpus_are_copied_not_split():
    one = lora.slot_elements(LLAMA, vllm_lora.layout_of(ARCH, "0.33.0"), 16, SLOTS)
    eight = lora.slot_elements(LLAMA, vllm_lora.layout_of(ARCH, "0.33.0"), 8, SLOTS)
    # from 8 to 16 GPUs each keeps one KV head of K and of V (8 heads: copied, not split), while its
    # query heads (4 → 2), o_proj inputs (512 → 256) and MLP share (1792 → 896) halve
    qkv_b = 4 * 16 * ((4 - 2) * 128)
    o_a = 4 * 16 * (512 - 256)
    gate_up_b = 4 * 16 * 2 * (1792 - 896)
    down_a = 4 * 16 * (1792 - 896)
    assert eight - one == 32 * (qkv_b + o_a + gate_up_b + down_a) == 6_553_600


def test_the_slots_scale_with_slots_and_rank_and_the_dtype():
    base = lora.slot_elements(LLAMA, vllm_lora.layout_of(ARCH, "0.33.0"), 1, SLOTS)
    assert lora.slot_elements(LLAMA, vllm_lora.layout_of(ARCH, "0.33.0"), 1, LoraSlots(8, 64)) == 8 * base
    fp32 = lora.memory(LLAMA, ARCH, "0.33.0", SLOTS, 1, 8192, 1024, dtype_bytes=4)
    assert fp32.slot_bytes == 2 * 369_426_432


def test_architectures_without_embedding_modules_wrap_only_the_linear_layers():
    with_embeddings = lora.slot_elements(LLAMA, vllm_lora.LoraLayout(3, 2, True), 1, SLOTS)
    without = lora.slot_elements(LLAMA, vllm_lora.layout_of("Qwen2ForCausalLM", "0.33.0"), 1, SLOTS)
    assert with_embeddings - without == 2 * (4 * 128256 * 16 + 4 * 4096 * 16)
    assert not vllm_lora.layout_of("Qwen3ForCausalLM", "0.15.0").embeddings
    assert vllm_lora.layout_of("Qwen3ForCausalLM", "0.17.0").embeddings
    assert vllm_lora.layout_of("MistralForCausalLM", "0.28.0").embeddings
    assert not vllm_lora.layout_of("MistralForCausalLM", "0.33.0").embeddings


def test_phi3_packs_one_slice_each():
    # Phi-3's checkpoint is fused: one A of R × hidden for qkv_proj and for gate_up_proj, not 3 and 2
    llama_like = lora.slot_elements(LLAMA, vllm_lora.LoraLayout(3, 2, True), 1, SLOTS)
    phi_like = lora.slot_elements(LLAMA, vllm_lora.layout_of("Phi3ForCausalLM", "0.33.0"), 1, SLOTS)
    assert llama_like - phi_like == 32 * (2 + 1) * 4 * 16 * 4096


def test_the_index_buffers_follow_the_release():
    # _embeddings_indices is (2, tokens) up to 0.28.0: one int64 vector more
    old = lora.index_bytes(8192, 1024, SLOTS, 1, 128256, True, "0.28.0")
    new = lora.index_bytes(8192, 1024, SLOTS, 1, 128256, True, "0.33.0")
    assert old - new == 8 * 8192
    assert lora.index_bytes(8192, 1024, SLOTS, 2, 128256, False, "0.33.0") == new  # no LM head: no map


#: Qwen3-30B-A3B (config.json: 48 layers, hidden 2048, 32 query heads and 4 KV heads of 128, 128
#: experts of moe_intermediate_size 768, 8 per token, vocabulary 151,936, every layer MoE), its
#: parameter totals the catalogue's.
QWEN3_MOE = Model(layers=48, kv_heads=4, head_dim=128, heads=32, hidden_size=2048, intermediate_size=768,
                  vocab_size=151936, total_params=30_532_122_624, active_params=3_353_032_704, experts=128,
                  experts_per_token=8)
QWEN3_MOE_ARCH = "Qwen3MoeForCausalLM"


def test_qwen3_30b_a3b_tp1_by_hand():
    # vllm/lora/layers/fused_moe.py FusedMoEWithLoRA at 0.33.0, M = 4, R = 16, E = 128, I = 768:
    #   w13 A 2 × (4, 128, 16, 2048) = 33,554,432   w13 B 2 × (4, 128, 768, 16) = 12,582,912
    #   w2  A (4, 128, 16, 768)      =  6,291,456   w2  B (4, 128, 2048, 16)    = 16,777,216
    # the router (ReplicatedLinearWithLoRA, 2048 → 128): A (4, 1, 16, 2048) + B (4, 1, 128, 16) = 139,264
    # attention: qkv A 3 × 4 × 16 × 2048, B 4 × 16 × (4096 + 512 + 512); o_proj A 4 × 16 × 4096, B 4 × 2048 × 16
    experts = 2 * 4 * 128 * 16 * 2048 + 2 * 4 * 128 * 768 * 16 + 4 * 128 * 16 * 768 + 4 * 128 * 2048 * 16
    assert experts == 69_206_016
    router = 4 * 16 * 2048 + 4 * 128 * 16
    attention = 3 * 4 * 16 * 2048 + 4 * 16 * 5120 + 4 * 16 * 4096 + 4 * 2048 * 16
    assert attention == 1_114_112
    embeddings = 2 * (4 * 151936 * 16 + 4 * 2048 * 16)  # embedding_modules from 0.17.0
    slots = 2 * (48 * (experts + router + attention) + embeddings)
    assert slots == 6_803_521_536  # 6.34 GiB: 128 experts' adapters in every layer
    # index: the dense model's punica vectors and kernel metadata, and 48 int32 adapter_enabled of M + 1
    index = 8 * (4 * 8192 + 3 * 1024) + 2 * 4 * (2 * 8192 + 5 + 5 + 6) + 48 * 4 * 5
    m = lora.memory(QWEN3_MOE, QWEN3_MOE_ARCH, "0.33.0", SLOTS, 1, tokens=8192, seqs=1024, dtype_bytes=2)
    assert (m.slot_bytes, m.index_bytes, m.problem, m.refusal) == (slots, index, "", "")
    assert (m.expert_slot_bytes, m.local_experts) == (2 * 48 * experts, 128)
    # 0.15.0 wraps no embeddings for Qwen3-MoE; 0.28.0's punica keeps one token vector more
    old = lora.memory(QWEN3_MOE, QWEN3_MOE_ARCH, "0.15.0", SLOTS, 1, tokens=8192, seqs=1024, dtype_bytes=2)
    assert old.slot_bytes == slots - 2 * embeddings and old.index_bytes == index + 8 * 8192


def test_moe_under_tp_splits_the_expert_width_and_keeps_the_experts_and_their_w13_a_whole():
    # TP 2: I_p = 384 in w13 B and w2 A; w13 A, w2 B and the router whole; 16 query heads, 2 KV heads
    experts = 2 * 4 * 128 * 16 * 2048 + 2 * 4 * 128 * 384 * 16 + 4 * 128 * 16 * 384 + 4 * 128 * 2048 * 16
    router = 4 * 16 * 2048 + 4 * 128 * 16
    attention = 3 * 4 * 16 * 2048 + 4 * 16 * (2048 + 256 + 256) + 4 * 16 * 2048 + 4 * 2048 * 16
    embeddings = 2 * (4 * 151936 * 16 + 4 * 2048 * 16)
    layout = vllm_lora.layout_of(QWEN3_MOE_ARCH, "0.33.0")
    assert lora.slot_elements(QWEN3_MOE, layout, 2, SLOTS) == 48 * (experts + router + attention) + embeddings


def test_moe_under_expert_parallelism_holds_its_share_of_the_experts_at_full_width():
    # EP over 2 GPUs (0.23.0 on): the MoE layer's TP is 1, so I_p = 768, and each GPU wraps its 64
    # experts; attention stays TP 2
    experts = 2 * 4 * 64 * 16 * 2048 + 2 * 4 * 64 * 768 * 16 + 4 * 64 * 16 * 768 + 4 * 64 * 2048 * 16
    router = 4 * 16 * 2048 + 4 * 128 * 16  # the router still scores all 128
    attention = 3 * 4 * 16 * 2048 + 4 * 16 * (2048 + 256 + 256) + 4 * 16 * 2048 + 4 * 2048 * 16
    embeddings = 2 * (4 * 151936 * 16 + 4 * 2048 * 16)
    m = lora.memory(QWEN3_MOE, QWEN3_MOE_ARCH, "0.33.0", SLOTS, 2, 8192, 1024, 2, expert_parallel=2)
    assert m.slot_bytes == 2 * (48 * (experts + router + attention) + embeddings) and not m.refusal
    # 3 GPUs of EP would give 43, 43, 42 experts: the fullest holds 43
    layout = vllm_lora.layout_of(QWEN3_MOE_ARCH, "0.33.0")
    assert lora.moe_elements(QWEN3_MOE, layout, 3, SLOTS, 3, "0.33.0") == router + (
        2 * 4 * 43 * 16 * 2048 + 2 * 4 * 43 * 768 * 16 + 4 * 43 * 16 * 768 + 4 * 43 * 2048 * 16)
    # up to 0.20.0 FusedMoEWithLoRA asserts EP off; 0.21 and 0.22 were not read
    assert "not implemented yet" in lora.memory(QWEN3_MOE, QWEN3_MOE_ARCH, "0.20.0", SLOTS, 2, 8192, 1024, 2,
                                                expert_parallel=2).refusal
    assert "not read" in lora.problem(QWEN3_MOE, QWEN3_MOE_ARCH, "0.22.0", expert_parallel=2)


def test_mixtral_wraps_its_embeddings_from_the_first_release():
    mixtral = Model(layers=32, kv_heads=8, head_dim=128, heads=32, hidden_size=4096, intermediate_size=14336,
                    vocab_size=32000, total_params=46_702_792_704, active_params=12_879_925_248, experts=8,
                    experts_per_token=2)
    experts = 2 * 1 * 8 * 8 * 4096 + 2 * 1 * 8 * 14336 * 8 + 1 * 8 * 8 * 14336 + 1 * 8 * 4096 * 8
    router = 1 * 8 * 4096 + 1 * 8 * 8
    attention = 3 * 1 * 8 * 4096 + 1 * 8 * 6144 + 1 * 8 * 4096 + 1 * 4096 * 8
    embeddings = 2 * (1 * 32000 * 8 + 1 * 4096 * 8)
    m = lora.memory(mixtral, "MixtralForCausalLM", "0.12.0", LoraSlots(1, 8), 1, 8192, 1024, 2)
    assert m.slot_bytes == 2 * (32 * (experts + router + attention) + embeddings)


def test_an_moe_whose_counts_do_not_split_or_whose_shared_experts_were_not_read_is_not_modelled():
    # one expert index no longer holds L × 3 × hidden × I, and no sides say which layers are dense
    dense_first = replace(QWEN3_MOE, total_params=QWEN3_MOE.total_params - 120 * 3 * 2048 * 768)
    assert "do not split" in lora.problem(dense_first, QWEN3_MOE_ARCH, "0.33.0")
    # a shared expert on an architecture whose wrapping of it was not read
    shared = replace(QWEN3_MOE, sides=SideModules(shared_width=768))
    assert "dense layers or shared experts" in lora.problem(shared, QWEN3_MOE_ARCH, "0.33.0")
    assert "MXFP4 backend rounds up" in lora.problem(QWEN3_MOE, "GptOssForCausalLM", "0.33.0")
    assert "without routed experts" in lora.problem(LLAMA, QWEN3_MOE_ARCH, "0.33.0")
    assert "Qwen2MoeForCausalLM" in lora.problem(QWEN3_MOE, "Qwen2MoeForCausalLM", "0.33.0")


def test_glm_4_5_air_by_hand_its_router_wrapped_from_0_33():
    # GLM-4.5-Air: hidden 4096, 46 layers (the first dense, intermediate_size 10944), 45 MoE layers of
    # 128 experts of 1408 and one shared of 1408, 96 query heads and 8 KV heads of 128 (glm4_moe.py)
    attention = (3 * 4 * 16 * 4096 + 4 * 16 * (12288 + 2 * 1024)) + (4 * 16 * 12288 + 4 * 4096 * 16)
    dense = (2 * 4 * 16 * 4096 + 4 * 16 * 2 * 10944) + (4 * 16 * 10944 + 4 * 4096 * 16)
    shared = (2 * 4 * 16 * 4096 + 4 * 16 * 2 * 1408) + (4 * 16 * 1408 + 4 * 4096 * 16)
    router = 4 * 16 * 4096 + 4 * 128 * 16
    experts = 2 * 4 * 128 * 16 * 4096 + 2 * 4 * 128 * 1408 * 16 + 4 * 128 * 16 * 1408 + 4 * 128 * 4096 * 16
    glm = scenario.catalogue_model("glm-4.5-air")
    new = lora.memory(glm, "Glm4MoeForCausalLM", "0.33.0", SLOTS, 1, 8192, 1024, 2)
    assert new.slot_bytes == 2 * (46 * attention + dense + 45 * (router + shared + experts)) == 12_552_413_184
    # up to 0.28.0 the router is an nn.Linear, which no LoRA class wraps
    old = lora.memory(glm, "Glm4MoeForCausalLM", "0.28.0", SLOTS, 1, 8192, 1024, 2)
    assert old.slot_bytes == new.slot_bytes - 2 * 45 * router
    assert old.expert_slot_bytes == new.expert_slot_bytes == 2 * 45 * experts


def test_the_sides_are_read_from_the_checkpoints_tensors():
    # DeepSeek-V2-Lite: first_k_dense_replace 1, intermediate_size 10944, 2 shared experts of 1408,
    # q_lora_rank null, qk_nope 128 + qk_rope 64, v_head_dim 128; DeepSeek-V3: 3 dense layers of 18432,
    # 1 shared expert of 2048, q_lora_rank 1536
    assert scenario.catalogue_model("deepseek-v2-lite").sides == SideModules(1, 10944, 2816, 0, 192, 128)
    assert scenario.catalogue_model("deepseek-v3").sides == SideModules(3, 18432, 2048, 1536, 192, 128)
    assert scenario.catalogue_model("qwen3-30b-a3b").sides is None
    assert scenario.catalogue_model("llama-3.1-8b").sides is None


#: DeepSeek-V2-Lite (config.json): hidden 2048, 27 layers, the first dense (intermediate_size 10944),
#: 26 MoE layers of 64 routed experts of 1408 and 2 shared (2 × 1408 = 2816), 16 heads, kv_lora_rank
#: 512, qk_rope 64, qk_nope 128, v_head_dim 128, no q_lora_rank.
V2_LITE_ARCH = "DeepseekV2ForCausalLM"


def test_deepseek_v2_lite_tp1_by_hand():
    # M = 4, R = 16, TP 1, vLLM 0.33.0 (deepseek_v2.py, layers/mla.py, lora/layers/*.py)
    attention = ((4 * 16 * 2048 + 4 * 16 * 16 * 192)  # q_proj, column-parallel 2048 → 16 × 192
                 + (4 * 16 * 2048 + 4 * 16 * 576)  # kv_a_proj_with_mqa, replicated 2048 → 512 + 64
                 + (4 * 16 * 512 + 4 * 16 * 16 * 256)  # kv_b_proj, column-parallel 512 → 16 × (128 + 128)
                 + (4 * 16 * 2048 + 4 * 2048 * 16))  # o_proj, row-parallel 16 × 128 → 2048
    assert attention == 1_052_672
    dense = (2 * 4 * 16 * 2048 + 4 * 16 * 2 * 10944) + (4 * 16 * 10944 + 4 * 2048 * 16)
    shared = (2 * 4 * 16 * 2048 + 4 * 16 * 2 * 2816) + (4 * 16 * 2816 + 4 * 2048 * 16)
    router = 4 * 16 * 2048 + 4 * 64 * 16
    experts = 2 * 4 * 64 * 16 * 2048 + 2 * 4 * 64 * 1408 * 16 + 4 * 64 * 16 * 1408 + 4 * 64 * 2048 * 16
    slots = 2 * (27 * attention + dense + 26 * (router + shared + experts))  # no embeddings wrapped
    assert slots == 2_325_725_184
    model = scenario.catalogue_model("deepseek-v2-lite")
    m = lora.memory(model, V2_LITE_ARCH, "0.33.0", SLOTS, 1, tokens=8192, seqs=1024, dtype_bytes=2)
    assert m.problem == "" and m.refusal == "" and m.slot_bytes == slots
    assert m.expert_slot_bytes == 2 * 26 * experts and m.local_experts == 64
    # index buffers: no LM head map; one adapter_enabled of M + 1 per MoE layer (26, not 27)
    assert m.index_bytes == 8 * (4 * 8192 + 3 * 1024) + 2 * 4 * (2 * 8192 + 5 + 5 + 6) + 26 * 4 * 5


def test_deepseek_v3_tp8_by_hand():
    # DeepSeek-V3: hidden 7168, 61 layers (3 dense of 18432), 58 MoE layers of 256 experts of 2048 and
    # one shared of 2048, 128 heads (16 a GPU), q_lora_rank 1536, kv_lora_rank 512, rope 64, nope 128,
    # v 128. fused_qkv_a_proj (q_a_proj + kv_a_proj_with_mqa) has disable_tp: its TP size is 1.
    attention = ((2 * 4 * 16 * 7168 + 4 * 16 * (1536 + 576))  # fused_qkv_a_proj, two slices, whole
                 + (4 * 16 * 1536 + 4 * 16 * 16 * 192)  # q_b_proj, column-parallel
                 + (4 * 16 * 512 + 4 * 16 * 16 * 256)  # kv_b_proj
                 + (4 * 16 * 16 * 128 + 4 * 7168 * 16))  # o_proj, row-parallel
    dense = (2 * 4 * 16 * 7168 + 4 * 16 * 2 * 2304) + (4 * 16 * 2304 + 4 * 7168 * 16)  # 18432 / 8
    shared = (2 * 4 * 16 * 7168 + 4 * 16 * 2 * 256) + (4 * 16 * 256 + 4 * 7168 * 16)  # 2048 / 8
    router = 4 * 16 * 7168 + 4 * 256 * 16
    experts = 2 * 4 * 256 * 16 * 7168 + 2 * 4 * 256 * 256 * 16 + 4 * 256 * 16 * 256 + 4 * 256 * 7168 * 16
    slots = 2 * (61 * attention + 3 * dense + 58 * (router + shared + experts))
    assert slots == 42_832_633_856
    model = scenario.catalogue_model("deepseek-v3")
    m = lora.memory(model, "DeepseekV3ForCausalLM", "0.33.0", SLOTS, 8, tokens=8192, seqs=1024, dtype_bytes=2)
    assert m.problem == "" and m.slot_bytes == slots and m.expert_slot_bytes == 2 * 58 * experts


def test_fully_sharded_loras_on_mla_keep_the_replicated_projections_whole():
    # TP 2, fully sharded: column A keeps R / 2 (q_proj, kv_b_proj, the MLPs' gate_up), row B 2048 / 2
    # (o_proj, down_proj); kv_a_proj_with_mqa (replicated) and the router stay whole
    model = scenario.catalogue_model("deepseek-v2-lite")
    sharded = LoraSlots(4, 16, True)
    attention = ((4 * 8 * 2048 + 4 * 16 * 8 * 192) + (4 * 16 * 2048 + 4 * 16 * 576)
                 + (4 * 8 * 512 + 4 * 16 * 8 * 256) + (4 * 16 * 1024 + 4 * 1024 * 16))
    assert lora.mla_elements(model, 2, sharded) == attention
    # the same for a q_lora_rank model: fused_qkv_a_proj's own TP size is 1, so its A keeps all of R
    v3 = scenario.catalogue_model("deepseek-v3")
    assert lora.mla_elements(v3, 2, sharded) - lora.mla_elements(v3, 2, SLOTS) == \
        (4 * 8 * 1536 - 4 * 16 * 1536) + (4 * 8 * 512 - 4 * 16 * 512) + (4 * 3584 * 16 - 4 * 7168 * 16)


def test_mla_projections_are_wrapped_once_per_reference_up_to_0_21():
    # DeepSeek-V2-Lite, M = 4, R = 16, TP 1: the MLA wrapper (layers/mla.py) holds second references
    # to q_proj, kv_a_proj_with_mqa, kv_b_proj and o_proj, MLAAttention a third to kv_b_proj from 0.17.0;
    # before wrapped_by_id (0.22.0) each reference gets its own wrapper
    model = scenario.catalogue_model("deepseek-v2-lite")
    once = 2_325_725_184
    others = (4 * 16 * 2048 + 4 * 16 * 16 * 192) + (4 * 16 * 2048 + 4 * 16 * 576) \
        + (4 * 16 * 2048 + 4 * 2048 * 16)  # q_proj, kv_a_proj_with_mqa, o_proj
    kv_b = 4 * 16 * 512 + 4 * 16 * 16 * 256
    router = 4 * 16 * 2048 + 4 * 64 * 16

    def slots(version):
        return lora.memory(model, V2_LITE_ARCH, version, SLOTS, 1, 8192, 1024, 2).slot_bytes

    for version in ("0.12.0", "0.14.0", "0.15.0"):  # MLAAttention hands kv_b_proj to its impl: two each
        assert slots(version) == once + 2 * 27 * (others + kv_b) == 2_382_569_472
    assert slots("0.20.0") == once + 2 * 27 * (others + 2 * kv_b) == 2_398_494_720
    # 0.21.0: the fused-MoE runner (now a module) keeps the router as runner.gate, wrapped again
    assert slots("0.21.0") == slots("0.20.0") + 2 * 26 * router
    assert slots("0.22.0") == slots("0.23.0") == once
    # Qwen3-MoE hands its router to the runner too (Mixtral does not)
    qwen = lora.memory(QWEN3_MOE, QWEN3_MOE_ARCH, "0.21.0", SLOTS, 1, 8192, 1024, 2).slot_bytes
    assert qwen - lora.memory(QWEN3_MOE, QWEN3_MOE_ARCH, "0.22.0", SLOTS, 1, 8192, 1024, 2).slot_bytes == \
        2 * 48 * (4 * 16 * 2048 + 4 * 128 * 16)


def test_vllm_0_17_to_0_19_stop_on_deepseeks_router_and_unread_mla_is_not_modelled():
    model = scenario.catalogue_model("deepseek-v2-lite")
    for version in ("0.17.0", "0.18.0", "0.19.0"):
        assert "GateLinear" in lora.memory(model, V2_LITE_ARCH, version, SLOTS, 1, 8192, 1024, 2).refusal
    assert lora.memory(model, V2_LITE_ARCH, "0.20.0", SLOTS, 1, 8192, 1024, 2).refusal == ""
    assert "not read" in lora.problem(model, V2_LITE_ARCH, "0.16.0")
    assert "DeepseekV2ForCausalLM" in lora.problem(model, "DeepseekV32ForCausalLM", "0.33.0")
    assert "projections' widths" in lora.problem(replace(model, sides=None), V2_LITE_ARCH, "0.33.0")
    assert "without MLA" in lora.problem(LLAMA, V2_LITE_ARCH, "0.33.0")


def test_deepseek_experts_under_expert_parallelism():
    # EP 2 (vLLM 0.33.0; its _ep_check asserts the MoE is not sequence-parallel, so the shared experts
    # stay TP-split): 32 experts a GPU, each of the whole width 1408
    model = scenario.catalogue_model("deepseek-v2-lite")
    m = lora.memory(model, V2_LITE_ARCH, "0.33.0", SLOTS, 2, 8192, 1024, 2, expert_parallel=2)
    experts = 2 * 4 * 32 * 16 * 2048 + 2 * 4 * 32 * 1408 * 16 + 4 * 32 * 16 * 1408 + 4 * 32 * 2048 * 16
    assert m.problem == "" and m.local_experts == 32 and m.expert_slot_bytes == 2 * 26 * experts


@pytest.mark.parametrize("model, why", [
    (replace(LLAMA, experts=8, experts_per_token=2, active_params=2e9), "mixture of experts"),
    (replace(LLAMA, attention="mla", latent_dim=512, rope_dim=64), "MLA"),
    (replace(LLAMA, kv_free_layers=8), "hybrid"),
    (replace(LLAMA, layer_specs=(object(),)), "layers differ"),
    (replace(LLAMA, heads=0), "query heads"),
])
def test_what_is_not_modelled_is_refused_with_its_reason(model, why):
    m = lora.memory(model, ARCH, "0.33.0", SLOTS, 1, 8192, 1024, 2)
    assert why in m.problem and m.total_bytes == 0


def test_a_vision_tower_an_unread_architecture_an_old_release_and_pipeline_stages_are_refused():
    tower = scenario.catalogue_shape("qwen3.6-35b-a3b-nvfp4").vision.encoder
    assert "multimodal" in lora.problem(replace(LLAMA, vision=tower), ARCH, "0.33.0")
    assert "only LlamaForCausalLM" in lora.problem(LLAMA, "OPTForCausalLM", "0.33.0")
    assert "without a named architecture" in lora.problem(LLAMA, "", "0.33.0")
    assert "0.12.0" in lora.problem(LLAMA, ARCH, "0.11.1")
    assert "pipeline" in lora.problem(LLAMA, ARCH, "0.33.0", pipeline_stages=2)


def test_vllm_refuses_a_vocabulary_over_the_lm_heads_bound_and_a_rank_it_does_not_list():
    big = replace(LLAMA, vocab_size=258000)
    assert "257024" in lora.memory(big, ARCH, "0.15.0", SLOTS, 1, 8192, 1024, 2).refusal
    assert lora.memory(big, ARCH, "0.17.0", SLOTS, 1, 8192, 1024, 2).refusal == ""
    assert lora.refusal(big, "Qwen2ForCausalLM", "0.15.0", SLOTS) == ""  # no LM head wrapped
    assert "--max-lora-rank 24" in lora.refusal(LLAMA, ARCH, "0.33.0", LoraSlots(4, 24))


def test_gpt_oss_20b_mxfp4_experts_take_marlins_rounded_sizes():
    # gpt-oss-20b at vLLM 0.33.0 on NVIDIA: hidden 2880, 24 layers of 32 experts of 2880, 64 query heads
    # and 8 KV heads of 64. With LoRA on, MXFP4 gets MARLIN (the first backend whose kernel supports
    # LoRA), which rounds the experts' hidden size up to 256 (3072) and their width per partition up to
    # 128 (2944 at TP 1); FusedMoE3DWithLoRA has one w13 A slice
    model = scenario.catalogue_model("gpt-oss-20b")
    attention = (3 * 4 * 16 * 2880 + 4 * 16 * (4096 + 2 * 512)) + (4 * 16 * 4096 + 4 * 2880 * 16)
    router = 4 * 16 * 2880 + 4 * 32 * 16  # GateLinear 2880 → 32, unpadded
    experts = (1 * 4 * 32 * 16 * 3072 + 2 * 4 * 32 * 2944 * 16) + (4 * 32 * 16 * 2944 + 4 * 32 * 3072 * 16)
    m = lora.memory(model, "GptOssForCausalLM", "0.33.0", SLOTS, 1, 8192, 1024, 2, experts_format="mxfp4")
    assert m.problem == "" and m.slot_bytes == 2 * 24 * (attention + router + experts) == 1_544_847_360
    assert m.expert_slot_bytes == 2 * 24 * experts
    # TP 2: the width per partition 1440 rounds up to 1536; bf16 experts are not rounded
    tp2 = lora.moe_elements(model, vllm_lora.layout_of("GptOssForCausalLM", "0.33.0"), 2, SLOTS,
                            alignment=(256, 128))
    assert tp2 == router + (4 * 32 * 16 * 3072 + 2 * 4 * 32 * 1536 * 16) + (4 * 32 * 16 * 1536 + 4 * 32 * 3072 * 16)
    bf16 = lora.memory(model, "GptOssForCausalLM", "0.33.0", SLOTS, 1, 8192, 1024, 2, experts_format="bf16")
    assert bf16.expert_slot_bytes == 2 * 24 * ((4 * 32 * 16 * 2880 + 2 * 4 * 32 * 2880 * 16)
                                                + (4 * 32 * 16 * 2880 + 4 * 32 * 2880 * 16))
    # another release, another vendor or format: not read
    assert "0.33.0 on NVIDIA" in lora.problem(model, "GptOssForCausalLM", "0.28.0", experts_format="mxfp4")
    assert "0.33.0 on NVIDIA" in lora.problem(model, "GptOssForCausalLM", "0.33.0", experts_format="mxfp4",
                                              vendor="amd")
    assert "0.33.0 on NVIDIA" in lora.problem(model, "GptOssForCausalLM", "0.33.0", experts_format="fp8")
