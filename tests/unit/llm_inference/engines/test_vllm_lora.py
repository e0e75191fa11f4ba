"""llm_inference/engines/vllm_lora.py: the release-dependent rules of vLLM's LoRA slots, as read in
its wheels 0.12.0–0.33.0, and the evidence cited for them."""

from __future__ import annotations

import pytest

from llm_inference.engines import vllm_lora, vllm_releases


@pytest.mark.parametrize("version, limit, vectors", [("0.12.0", 257024, 5), ("0.15.0", 257024, 5),
                                                     ("0.17.0", 258048, 5), ("0.28.0", 258048, 5),
                                                     ("0.33.0", 258048, 4)])
def test_the_bounds_and_buffers_by_release(version, limit, vectors):
    assert vllm_lora.logits_vocab_limit(version) == limit
    assert vllm_lora.token_index_vectors(version) == vectors


def test_every_release_offered_from_the_first_read_has_a_layout_for_each_architecture():
    offered = [v for v in vllm_releases.VERSIONS
               if vllm_releases.parse_version(v) >= vllm_releases.parse_version(vllm_lora.FIRST_RELEASE)]
    assert offered and offered[-1] == vllm_lora.READ_RELEASES[-1] == vllm_releases.NEWEST
    for version in offered:
        for arch in vllm_lora.ARCHITECTURES:
            assert vllm_lora.layout_of(arch, version) is not None
    assert vllm_lora.layout_of("DeepseekV32ForCausalLM", "0.33.0") is None


def test_the_evidence_names_files_of_the_tagged_release():
    assert len(vllm_lora.EVIDENCE) >= 10
    for url, says in vllm_lora.EVIDENCE:
        assert url.startswith("https://github.com/vllm-project/vllm/blob/v0.33.0/vllm/") and url.endswith(".py")
        assert says


def test_the_moe_rules_by_release():
    # FusedMoEWithLoRA: w1 and w3 apart (two w13 slices), the router wrapped; Qwen3-MoE's embeddings
    # from 0.17.0 as dense Qwen3's; expert parallelism asserted off up to 0.20.0, run from 0.23.0
    for version in ("0.12.0", "0.33.0"):
        for arch in vllm_lora.MOE_ARCHITECTURES:
            layout = vllm_lora.layout_of(arch, version)
            assert layout.moe and layout.moe_w13_slices == 2 and layout.router and layout.gate_up_slices == 0
    assert not vllm_lora.layout_of("Qwen3MoeForCausalLM", "0.15.0").embeddings
    assert vllm_lora.layout_of("Qwen3MoeForCausalLM", "0.17.0").embeddings
    assert vllm_lora.layout_of("MixtralForCausalLM", "0.12.0").embeddings
    assert not vllm_lora.layout_of("LlamaForCausalLM", "0.33.0").moe
    assert [vllm_lora.moe_expert_parallel(v) for v in ("0.12.0", "0.20.0", "0.21.0", "0.22.0", "0.23.0", "0.33.0")] \
        == ["refused", "refused", "unread", "unread", "yes", "yes"]
    for url, says in vllm_lora.SNAPSHOT_EVIDENCE:
        assert url.startswith("https://github.com/vllm-project/vllm/blob/") and len(url.split("/")[6]) == 40 and says


def test_the_shared_expert_and_mla_layouts_by_release():
    # DeepSeek-V2/V3: MLA, gate_up of the dense and shared MLPs in two slices, the router, no embeddings
    for arch in vllm_lora.MLA_ARCHITECTURES:
        layout = vllm_lora.layout_of(arch, "0.23.0")
        assert layout.mla and layout.sides and layout.router and layout.gate_up_slices == 2
        assert layout.moe_w13_slices == 2 and not layout.embeddings and layout.qkv_slices == 0
    # GLM-4.5: q/k/v packed, its router an nn.Linear (not wrapped) up to 0.28.0, a GateLinear in 0.33.0
    assert not vllm_lora.layout_of("Glm4MoeForCausalLM", "0.28.0").router
    glm = vllm_lora.layout_of("Glm4MoeForCausalLM", "0.33.0")
    assert glm.router and glm.sides and not glm.mla and glm.qkv_slices == 3 and not glm.embeddings
    assert [vllm_lora.mla_wrappers(v) for v in ("0.12.0", "0.15.0", "0.16.0", "0.17.0", "0.21.0", "0.22.0")] \
        == [(2, 2), (2, 2), None, (2, 3), (2, 3), (1, 1)]
    assert [vllm_lora.mla_router_refused(v) for v in ("0.15.0", "0.17.0", "0.19.0", "0.20.0")] == \
        [False, True, True, False]
    assert vllm_lora.layout_of("Qwen3MoeForCausalLM", "0.21.0").router_wrappers == 2
    assert vllm_lora.layout_of("MixtralForCausalLM", "0.21.0").router_wrappers == 1
    assert vllm_lora.layout_of("Qwen3MoeForCausalLM", "0.22.0").router_wrappers == 1
