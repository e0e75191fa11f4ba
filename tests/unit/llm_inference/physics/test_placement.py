"""Per-GPU placement under tensor, pipeline and data-parallel layouts, and the sizes vLLM accepts."""

from __future__ import annotations

import numpy as np
import pytest

from llm_inference import scenario
from llm_inference.physics import DP, Layout, Model, legal_tp_sizes, place
from llm_inference.physics.model import MLA

LLAMA_70B = scenario.model_from_inputs(dict(scenario.catalogue_values("llama-3.1-70b")))
DEEPSEEK_V3 = scenario.model_from_inputs(dict(scenario.catalogue_values("deepseek-v3")))


def test_mla_on_eight_gpus_is_replicated_on_each():
    p = place(DEEPSEEK_V3, Layout(8), "fp8")
    assert p.legal and p.tensor_parallel == 8
    assert p.kv_heads_per_gpu == 1 and p.kv_replicas == 8  # the whole latent on every GPU
    assert p.weight_bytes_per_gpu == pytest.approx(DEEPSEEK_V3.total_params / 8)
    assert p.sequence_share == 1  # every GPU caches every sequence


def test_eight_kv_heads_on_sixteen_gpus_are_stored_twice():
    p = place(LLAMA_70B, Layout(16), "bf16")
    assert p.legal and p.tensor_parallel == 16
    assert p.kv_heads_per_gpu == 1 and p.kv_replicas == 2
    four = place(LLAMA_70B, Layout(4), "bf16")
    assert four.kv_heads_per_gpu == 2 and four.kv_replicas == 1


def test_data_parallel_attention_gives_each_gpu_its_pool():
    p = place(DEEPSEEK_V3, Layout(8, attention=DP), "fp8")
    assert p.kv_replicas == 1 and p.data_parallel == 8 and p.sequence_share == 1 / 8
    routed = DEEPSEEK_V3.experts * DEEPSEEK_V3.expert_index_params
    # attention, dense layers and shared experts on every GPU; the routed experts spread
    assert p.weight_bytes_per_gpu == pytest.approx(DEEPSEEK_V3.total_params - routed + routed / 8)
    assert p.weight_bytes_per_gpu > place(DEEPSEEK_V3, Layout(8), "fp8").weight_bytes_per_gpu


def brute_force_legal(heads, kv_heads, width, vocab, mla=False, up_to=64):
    """TP sizes by divisibility, written out with numpy."""
    tp = np.arange(1, up_to + 1)
    padded = -(-vocab // 64) * 64
    ok = (heads % tp == 0) & (width % tp == 0) & (padded % tp == 0)
    if not mla:
        ok &= (kv_heads % tp == 0) | (tp % kv_heads == 0)
    return tp[ok].tolist()


@pytest.mark.parametrize("model_id", ["llama-3.1-8b", "llama-3.1-70b", "qwen2.5-7b", "qwen3-30b-a3b", "gemma-3-27b",
                                      "deepseek-v3", "phi-3-mini", "gpt3-175b", "mixtral-8x7b", "gpt-oss-120b"])
def test_legal_sizes(model_id):
    m = scenario.model_from_inputs(dict(scenario.catalogue_values(model_id)))
    assert legal_tp_sizes(m) == brute_force_legal(m.heads, m.kv_heads, m.intermediate_size, m.vocab_size, m.is_mla)


def test_qwen25_7b_refuses_seven_and_fourteen():
    m = scenario.model_from_inputs(dict(scenario.catalogue_values("qwen2.5-7b")))  # 28 heads, 4 KV heads
    assert legal_tp_sizes(m) == [1, 2, 4]
    p = place(m, Layout(7), "bf16")
    assert not p.legal and "Legal sizes: 1, 2, 4" in p.problem


def test_an_illegal_size_is_said_so():
    p = place(LLAMA_70B, Layout(3), "bf16")
    assert not p.legal and "3 GPUs" in p.problem


def test_pipeline_stages_split_the_layers():
    p = place(LLAMA_70B, Layout(4, pipeline_stages=2), "bf16")
    assert p.legal and p.tensor_parallel == 2 and p.stage_layers == (40, 40)
    # the heaviest stage: half the layers and the embedding (or the LM head), over 2 GPUs
    ends = LLAMA_70B.vocab_size * LLAMA_70B.hidden_size
    layers_only = (LLAMA_70B.total_params - 2 * ends) / 2
    assert p.weight_bytes_per_gpu == pytest.approx((layers_only + ends) / 2 * 2)
    assert not place(LLAMA_70B, Layout(5, pipeline_stages=2), "bf16").legal
    uneven = place(Model(layers=61, attention=MLA, latent_dim=512, rope_dim=64, heads=128, total_params=1e9,
                         vocab_size=129280, hidden_size=7168, intermediate_size=2048), Layout(4, pipeline_stages=4), "fp8")
    assert uneven.stage_layers == (15, 15, 16, 15)  # get_pp_indices: the remainder before the last stage
