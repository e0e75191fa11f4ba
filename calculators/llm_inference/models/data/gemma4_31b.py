"""NVIDIA's NVFP4 release of Google's Gemma 4 31B (instruction-tuned), as published.

Gemma 4 31B has two attention geometries: 50 sliding-window layers (1,024 tokens) of 16 KV heads x
256, and every sixth layer global, 4 KV heads x 512 whose K projection serves as V
(``attention_k_eq_v``; vLLM still caches K and V apart). The config is aiconfigurator's stored copy
of the published config.json (with its quantization_config); the per-layer lists are written here by
the rule they follow (the tests compare them with the stored file).
"""

from __future__ import annotations

from typing import Any

from ..entry import CatalogueEntry
from .sources import aiconfigurator

LAYERS = 60

GEMMA4_31B_NVFP4: dict[str, Any] = {
    "architectures": ["Gemma4ForConditionalGeneration"],
    "audio_config": None,
    "audio_token_id": 258881,
    "boa_token_id": 256000,
    "boi_token_id": 255999,
    "dtype": "bfloat16",
    "eoa_token_id": 258883,
    "eoa_token_index": 258883,
    "eoi_token_id": 258882,
    "eos_token_id": [1, 106],
    "image_token_id": 258880,
    "initializer_range": 0.02,
    "model_type": "gemma4",
    "quantization_config": {"config_groups": {"group_0": {"input_activations": {"dynamic": False,
                                                                                "group_size": 16,
                                                                                "num_bits": 4,
                                                                                "type": "float"},
                                                          "targets": ["Linear"],
                                                          "weights": {"dynamic": False,
                                                                      "group_size": 16,
                                                                      "num_bits": 4,
                                                                      "type": "float"}}},
                            "kv_cache_scheme": {"dynamic": False, "num_bits": 8, "type": "float"},
                            "producer": {"name": "modelopt", "version": "0.37.0"},
                            "quant_algo": "NVFP4",
                            "quant_method": "modelopt"},
    "text_config": {"attention_bias": False,
                    "attention_dropout": 0.0,
                    "attention_k_eq_v": True,
                    "bos_token_id": 2,
                    "dtype": "bfloat16",
                    "enable_moe_block": False,
                    "eos_token_id": 1,
                    "expert_intermediate_size": None,
                    "final_logit_softcapping": 30.0,
                    "global_head_dim": 512,
                    "head_dim": 256,
                    "hidden_activation": "gelu_pytorch_tanh",
                    "hidden_size": 5376,
                    "hidden_size_per_layer_input": 0,
                    "initializer_range": 0.02,
                    "intermediate_size": 21504,
                    "max_position_embeddings": 262144,
                    "model_type": "gemma4_text",
                    "num_attention_heads": 32,
                    "num_experts": None,
                    "num_global_key_value_heads": 4,
                    "num_hidden_layers": 60,
                    "num_key_value_heads": 16,
                    "num_kv_shared_layers": 0,
                    "pad_token_id": 0,
                    "rms_norm_eps": 1e-06,
                    "rope_parameters": {"full_attention": {"partial_rotary_factor": 0.25,
                                                           "rope_theta": 1000000.0,
                                                           "rope_type": "proportional"},
                                        "sliding_attention": {"rope_theta": 10000.0,
                                                              "rope_type": "default"}},
                    "sliding_window": 1024,
                    "tie_word_embeddings": True,
                    "top_k_experts": None,
                    "use_bidirectional_attention": "vision",
                    "use_cache": True,
                    "use_double_wide_mlp": False,
                    "vocab_size": 262144,
                    "vocab_size_per_layer_input": 262144},
    "tie_word_embeddings": True,
    "transformers_version": "5.5.0.dev0",
    "video_token_id": 258884,
    "vision_config": {"attention_bias": False,
                      "attention_dropout": 0.0,
                      "default_output_length": 280,
                      "dtype": "bfloat16",
                      "global_head_dim": 72,
                      "head_dim": 72,
                      "hidden_activation": "gelu_pytorch_tanh",
                      "hidden_size": 1152,
                      "image_seq_length": 280,
                      "initializer_range": 0.02,
                      "intermediate_size": 4304,
                      "max_position_embeddings": 131072,
                      "model_type": "gemma4_vision",
                      "num_attention_heads": 16,
                      "num_hidden_layers": 27,
                      "num_key_value_heads": 16,
                      "patch_size": 16,
                      "pooling_kernel_size": 3,
                      "position_embedding_size": 10240,
                      "rms_norm_eps": 1e-06,
                      "rope_parameters": {"rope_theta": 100.0, "rope_type": "default"},
                      "standardize": True,
                      "use_clipped_linears": False,
                      "video_seq_length": 70},
    "vision_soft_tokens_per_image": 280,
}
GEMMA4_31B_NVFP4["text_config"]["layer_types"] = [
    "full_attention" if (i + 1) % 6 == 0 else "sliding_attention" for i in range(LAYERS)]
#: ModelOpt keeps every attention layer, the vision tower and its embedder, and the LM head in bf16.
GEMMA4_31B_NVFP4["quantization_config"]["ignore"] = (
    ["lm_head", "model.embed_vision*"]
    + sorted(f"model.language_model.layers.{i}.self_attn*" for i in range(LAYERS)) + ["model.vision_tower*"])

ENTRIES = (
    CatalogueEntry(
        id="gemma-4-31b-nvfp4", name="Gemma 4 31B NVFP4 (NVIDIA ModelOpt)", config=GEMMA4_31B_NVFP4,
        source=aiconfigurator("nvidia/Gemma-4-31B-IT-NVFP4"),
        published_total=30_700_000_000,
        count_source="Gemma 4 31B: '30.7B parameters' dense, besides a ~550M vision encoder "
                     "(https://apxml.com/models/gemma-4-31b, https://www.llmradar.eu/models/gemma-4-31b-it)",
        counts_note="The total is the text decoder's (the vision tower is apart); the embedding is tied.",
        notes="nvidia/Gemma-4-31B-IT-NVFP4: NVFP4 MLP weights (e2m1, an fp8 scale per 16); the attention, "
              "the vision tower and the LM head in bf16.",
    ),
)
