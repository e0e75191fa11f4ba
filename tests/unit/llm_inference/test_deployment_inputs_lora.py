"""llm_inference/deployment_inputs_lora.py: --enable-lora --max-loras --max-lora-rank through the
calculators. Off (the default) leaves every figure as it was; on, the slots come off vLLM's KV memory
byte for byte (physics/test_lora.py derives them), and what physics.lora does not model leaves the
pool not computed, with the reason."""

from __future__ import annotations

import pytest

from llm_inference import deployment_inputs, deployment_inputs_lora
from llm_inference.decode_roofline import SPEC as ROOFLINE
from llm_inference.engines import vllm_lora
from llm_inference.kv_cache import SPEC
from llm_inference.physics.lora import LoraSlots

#: Llama 3.1 8B, 4 slots of rank 16, TP 1, 0.33.0 at the H100's defaults: slots + index buffers.
LLAMA_4X16 = 369_426_432 + 417_920


def run(spec=SPEC, preset="llama3-8b", **overrides):
    raw = {**spec.preset(preset).values, **overrides}
    spec.check_overrides(raw)
    return spec.run(raw)


def test_the_inputs_are_vllms_flags_with_its_defaults():
    names = [p.name for p in deployment_inputs.engine_inputs()]
    assert names[:3] == ["block_size", "max_loras", "max_lora_rank"]
    slots, rank, sharded = deployment_inputs_lora.lora_inputs()
    assert sharded.default == "off"
    assert slots.default == 0 and slots.min == 0  # 0: no --enable-lora, vLLM's default
    assert [int(v) for v, _ in rank.choices] == list(vllm_lora.MAX_LORA_RANKS)
    assert int(rank.default) == vllm_lora.DEFAULT_MAX_LORA_RANK == 16
    assert deployment_inputs_lora.lora_of({}) is None
    assert deployment_inputs_lora.lora_of({"max_loras": 0, "max_lora_rank": "64"}) is None
    assert deployment_inputs_lora.lora_of({"max_loras": 4, "max_lora_rank": "64"}) == LoraSlots(4, 64)
    assert deployment_inputs_lora.lora_of({"max_loras": 4, "max_lora_rank": "64", "fully_sharded_loras": "on"}) \
        == LoraSlots(4, 64, fully_sharded=True)
    assert {"max_loras", "max_lora_rank"} <= {p.name for p in SPEC.params} & {p.name for p in ROOFLINE.params}


def test_lora_off_gives_exactly_the_old_numbers():
    base = run()
    assert base.values == run(max_loras=0, max_lora_rank="512").values
    assert base.values["lora_bytes_per_gpu"] == 0.0
    # the figures before these inputs existed (commit df034d1, the preset's sentence: 52 of them)
    assert base.values["max_concurrency"] == pytest.approx(52.564453125)
    assert base.values["kv_cache_tokens"] == 430_608
    assert not [n for n in base.notes if "LoRA" in n]
    assert run(ROOFLINE, ROOFLINE.presets[0].id).values == run(ROOFLINE, ROOFLINE.presets[0].id, max_loras=0).values


def test_the_slots_come_off_the_kv_memory_byte_for_byte():
    off, on = run().values, run(max_loras=4, max_lora_rank="16").values
    assert on["lora_bytes_per_gpu"] == LLAMA_4X16
    assert off["kv_cache_memory"] - on["kv_cache_memory"] == LLAMA_4X16
    assert on["max_concurrency"] == pytest.approx(52.21875)  # 52.56 → 52.22
    for name in ("weight_bytes_per_gpu", "activation_bytes", "runtime_bytes", "free_bytes_per_gpu"):
        assert on[name] == off[name]


def test_the_bar_shows_the_lora_slice_and_its_legend_only_when_on():
    parts = {p["name"]: p for p in run().bars["Memory per GPU"]["parts"]}
    assert parts["lora_bytes_per_gpu"]["share"] == 0 and not parts["lora_bytes_per_gpu"]["shown"]
    on = run(max_loras=4).bars["Memory per GPU"]
    parts = {p["name"]: p for p in on["parts"]}
    assert parts["lora_bytes_per_gpu"]["shown"] and parts["lora_bytes_per_gpu"]["share"] > 0
    assert "LoRA slots" in on["summary"]


def test_a_model_not_modelled_leaves_the_pool_not_computed_with_the_reason():
    # MLA with DeepSeek-V3.2's indexer (DeepseekV32ForCausalLM) was not read
    out = run(model="deepseek-v3.2", gpu="b200", gpus=8, max_loras=2)
    assert out.values["lora_bytes_per_gpu"] is None and out.values["kv_cache_memory"] is None
    assert out.values["max_concurrency"] is None and out.values["fits"] is None
    assert any("Not modelled: LoRA slots of an MLA model of DeepseekV32ForCausalLM" in n for n in out.notes)
    assert run(preset="deepseek-v3-mla", max_loras=2).values["lora_bytes_per_gpu"] > 0
    roof = ROOFLINE.run({"model": "gpt-oss-120b", "gpu": "h200", "gpus": 8, "max_loras": 2, "vllm_version": "0.28.0"})
    assert roof.values["kv_cache_memory"] is None and roof.values["max_concurrency"] is None
    assert any("Not modelled: LoRA slots of GptOssForCausalLM: its fused 3D experts" in n for n in roof.notes)


#: Qwen3-30B-A3B, 4 slots of rank 16, TP 1, 0.33.0 at the H100's defaults: the slots (physics/test_lora.py
#: derives them: 128 experts' w13 and w2 adapters in each of 48 layers) and the index buffers.
QWEN3_MOE_4X16 = 6_803_521_536 + 418_880


def test_an_moe_catalogue_model_gets_its_slots_and_they_come_off_the_pool():
    off = run(model="qwen3-30b-a3b")
    on = run(model="qwen3-30b-a3b", max_loras=4, max_lora_rank="16")
    assert on.values["lora_bytes_per_gpu"] == QWEN3_MOE_4X16
    assert off.values["kv_cache_memory"] - on.values["kv_cache_memory"] == QWEN3_MOE_4X16
    # 101,600 tokens (6,350 blocks of 16) → 32,384 (2,024): concurrency at 8,192 tokens 12.40 → 3.95
    assert (off.values["kv_cache_tokens"], on.values["kv_cache_tokens"]) == (101_600, 32_384)
    assert off.values["max_concurrency"] == pytest.approx(12.40234375)
    assert on.values["max_concurrency"] == pytest.approx(3.953125)
    parts = {p["name"]: p for p in on.bars["Memory per GPU"]["parts"]}
    assert parts["lora_bytes_per_gpu"]["shown"] and parts["lora_bytes_per_gpu"]["share"] > 0
    note = next(n for n in on.notes if n.startswith("LoRA: vLLM holds 6.34 GiB"))
    assert "for each of the 128 routed experts" in note
    assert not any("fused-MoE" in n for n in run(max_loras=4).notes)  # a dense model has none


def test_expert_parallelism_spreads_the_experts_adapters_from_0_23_0():
    tp = run(model="qwen3-30b-a3b", gpus=2, max_loras=4).values
    ep = run(model="qwen3-30b-a3b", gpus=2, max_loras=4, expert_parallel="on").values
    # half the experts per GPU at full width instead of all of them at half width: w13 A and w2 B halve
    assert tp["lora_bytes_per_gpu"] - ep["lora_bytes_per_gpu"] == 2 * 48 * (2 * 4 * 64 * 16 * 2048 + 4 * 64 * 2048 * 16)
    old = run(model="qwen3-30b-a3b", gpus=2, max_loras=4, expert_parallel="on", vllm_version="0.20.0")
    assert old.values["max_concurrency"] in (None, 0.0)
    assert any("EP support for Fused MoE LoRA is not implemented yet" in n for n in old.notes)


def test_fully_sharded_loras_shrink_the_slots_under_tp():
    plain = run(preset="llama3-70b", max_loras=4).values["lora_bytes_per_gpu"]
    sharded = run(preset="llama3-70b", max_loras=4, fully_sharded_loras="on").values["lora_bytes_per_gpu"]
    # Llama 3.1 70B at TP 2 (80 layers, hidden 8192, MLP 28,672): half the rank of qkv and gate_up A
    # (3 + 2 slices of 4 × 8 × 8192) and half the output of o_proj and down_proj B (2 × 4 × 4096 × 16)
    assert plain - sharded == 2 * 80 * ((3 + 2) * 4 * 8 * 8192 + 2 * 4 * 4096 * 16)
    assert run(max_loras=4, fully_sharded_loras="on").values == run(max_loras=4).values  # TP 1: nothing


def test_vllm_refusing_the_lm_head_stops_the_start():
    # Gemma 2's 256,000 tokens are under the bound, and Gemma 2 wraps no LM head anyway; a Llama with
    # a bigger vocabulary is refused by LogitsProcessorWithLoRA
    out = run(model="custom", vocab_size=262144, max_loras=1)
    assert out.values["max_concurrency"] is None  # a custom shape names no architecture: not modelled
    assert any("only LlamaForCausalLM" in n for n in out.notes)


def test_an_old_release_is_refused():
    out = run(max_loras=1, vllm_version="0.11.1")
    assert out.values["lora_bytes_per_gpu"] is None
    assert any("before vLLM 0.12.0" in n for n in out.notes)


@pytest.mark.parametrize("model, embeddings", [("qwen2.5-7b", False), ("qwen3-8b", True), ("mistral-7b-v0.1", False),
                                               ("gemma-2-9b", False), ("phi-3-mini", True)])
def test_the_catalogues_dense_models_follow_their_architecture(model, embeddings):
    out = run(model=model, max_loras=1, max_lora_rank="8").values
    assert out["lora_bytes_per_gpu"] > 0
    assert vllm_lora.layout_of(dict(
        {"qwen2.5-7b": "Qwen2ForCausalLM", "qwen3-8b": "Qwen3ForCausalLM", "mistral-7b-v0.1": "MistralForCausalLM",
         "gemma-2-9b": "Gemma2ForCausalLM", "phi-3-mini": "Phi3ForCausalLM"})[model], "0.33.0").embeddings is embeddings


def test_under_sglang_the_slots_are_sglangs_lora_buffers():
    """--max-loras-per-batch 2 --max-lora-rank 16 on Llama 3.1 8B (SGLang 0.5.6 lora/mem_pool.py): per layer
    A (2, 16·3, 4096) + B (2, 128·(32 + 16), 16) for qkv, A (2, 16, 4096) + B (2, 4096, 16) for o, A (2, 32,
    4096) + B (2, 28672, 16) for gate_up, A (2, 16, 14336) + B (2, 4096, 16) for down; 32 layers, bf16."""
    base = run(engine="sglang")
    out = run(engine="sglang", max_loras=2, max_lora_rank="16")
    per_layer = (2 * 48 * 4096 + 2 * 6144 * 16 + 2 * 16 * 4096 + 2 * 4096 * 16 + 2 * 32 * 4096 + 2 * 28672 * 16
                 + 2 * 16 * 14336 + 2 * 4096 * 16)
    assert out.values["lora_bytes_per_gpu"] == per_layer * 32 * 2 == 167_772_160
    # allocated before profile_max_num_token measures the free memory: the pool loses them byte for byte
    assert base.values["kv_cache_memory"] - out.values["kv_cache_memory"] == pytest.approx(167_772_160, rel=1e-9)
    moe = run(engine="sglang", model="qwen3-30b-a3b", max_loras=2)
    assert moe.values["max_concurrency"] is None and moe.values["kv_cache_memory"] is None
    assert any("LoRA buffers for MoE" in n for n in moe.notes)
