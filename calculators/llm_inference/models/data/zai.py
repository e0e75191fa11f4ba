"""Z.ai (Zhipu)'s GLM-4.5-Air: grouped-query attention with q/k/v biases, a DeepSeek-style MoE."""

from __future__ import annotations

from ..entry import CatalogueEntry, Source

ENTRIES = (
    CatalogueEntry(
        id="glm-4.5-air", name="GLM-4.5-Air (106B MoE)",
        config={
            "architectures": ["Glm4MoeForCausalLM"],
            "attention_bias": True,
            "first_k_dense_replace": 1,
            "head_dim": 128,
            "hidden_size": 4096,
            "intermediate_size": 10944,
            "max_position_embeddings": 131072,
            "model_type": "glm4_moe",
            "moe_intermediate_size": 1408,
            "n_group": 1,
            "n_routed_experts": 128,
            "n_shared_experts": 1,
            "num_attention_heads": 96,
            "num_experts_per_tok": 8,
            "num_hidden_layers": 46,
            "num_key_value_heads": 8,
            "num_nextn_predict_layers": 1,
            "partial_rotary_factor": 0.5,
            "tie_word_embeddings": False,
            "topk_group": 1,
            "use_qk_norm": False,
            "vocab_size": 151552,
        },
        source=Source(
            path="public notes on ms-swift's convert_hf2mcore that print the Glm4MoeConfig loaded from "
                 "ZhipuAI/GLM-4.5-Air ('### model_config'; search-index id 48221590695)",
            url="https://huggingface.co/zai-org/GLM-4.5-Air/blob/main/config.json",
            note="transformers' repr of the published config.json (the same fields and values)"),
        published_total=106_000_000_000, published_active=12_000_000_000, active_excludes_embedding=True,
        active_excludes_head=True,
        count_source="zai-org/GLM-4.5 model card (huggingface.co/zai-org/GLM-4.5-Air): 'GLM-4.5-Air ... 106 billion "
                     "total parameters and 12 billion active parameters'",
        counts_note="Zhipu's active figure leaves out the embedding and the LM head (0.62B each): the shapes give "
                    "13.42B with both, 12.18B without.",
    ),
)
