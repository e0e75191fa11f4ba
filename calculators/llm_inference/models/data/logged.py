"""Models that public vLLM startup logs of the evidence table serve and the rest of the catalogue
lacks (llm_inference.engines.startup_log_table): each from its published config.json, cited.

Kept in a module of their own so that the publishers' modules (and the branches that edit them)
stay as they were.
"""

from __future__ import annotations

from ..entry import CatalogueEntry, Source
from .sources import aiconfigurator

_LLM_PROF = ("citsjtu2020/LLM-Prof", "8434c8d19c396b2f95d92a67845a7c0a0e0dd512")

ENTRIES = (
    CatalogueEntry(
        id="qwen2-7b", name="Qwen2 7B",
        config={
            "architectures": ["Qwen2ForCausalLM"],
            "hidden_size": 3584,
            "intermediate_size": 18944,
            "max_position_embeddings": 32768,
            "max_window_layers": 28,
            "model_type": "qwen2",
            "num_attention_heads": 28,
            "num_hidden_layers": 28,
            "num_key_value_heads": 4,
            "sliding_window": None,
            "tie_word_embeddings": False,
            "use_sliding_window": False,
            "vocab_size": 152064,
        },
        # The Instruct model's config.json, as Unsloth's byte-for-byte re-upload of it shows it (the same
        # fields in the copies of Anteia/Qwen2-7B-Instruct-v1 and spow12/Ko-Qwen2-7B-Instruct, whose
        # _name_or_path is Qwen/Qwen2-7B-Instruct). The shape is Qwen2.5-7B's.
        source=Source(path="config.json of Qwen/Qwen2-7B-Instruct",
                      url="https://huggingface.co/unsloth/Qwen2-7B-Instruct/blob/main/config.json",
                      note="the original is https://huggingface.co/Qwen/Qwen2-7B-Instruct/blob/main/config.json"),
        published_total=7_620_000_000,
        count_source="Hugging Face's safetensors metadata of the same weights, 'Model size 7.62B params' "
                     "(https://huggingface.co/lmms-lab/Qwen2-7B-Instruct-224K, a Qwen2-7B-Instruct copy); "
                     "'a 7.6 billion parameter instruction-tuned model' (https://featherless.ai/models/"
                     "f0rc3ps/Qwen2-7B-Instruct)",
    ),
    CatalogueEntry(
        id="qwen3-14b", name="Qwen3 14B",
        config={
            "architectures": ["Qwen3ForCausalLM"],
            "attention_bias": False,
            "head_dim": 128,
            "hidden_size": 5120,
            "intermediate_size": 17408,
            "max_position_embeddings": 40960,
            "max_window_layers": 40,
            "model_type": "qwen3",
            "num_attention_heads": 40,
            "num_hidden_layers": 40,
            "num_key_value_heads": 8,
            "sliding_window": None,
            "tie_word_embeddings": False,
            "use_sliding_window": False,
            "vocab_size": 151936,
        },
        source=Source(repo=_LLM_PROF[0], path="sglang/Model_Config.md (section 'Qwen3-14B')", commit=_LLM_PROF[1],
                      url="https://huggingface.co/Qwen/Qwen3-14B/blob/main/config.json"),
        published_total=14_800_000_000,
        count_source="Qwen model card, huggingface.co/Qwen/Qwen3-14B ('Number of Parameters: 14.8B')",
    ),
    CatalogueEntry(
        id="qwen3-coder-480b-a35b", name="Qwen3-Coder 480B-A35B",
        config={
            "torch_dtype": "bfloat16",  # as published (read from the same file)
            "architectures": ["Qwen3MoeForCausalLM"],
            "decoder_sparse_step": 1,
            "head_dim": 128,
            "hidden_size": 6144,
            "intermediate_size": 8192,
            "max_position_embeddings": 262144,
            "max_window_layers": 62,
            "mlp_only_layers": [],
            "model_type": "qwen3_moe",
            "moe_intermediate_size": 2560,
            "num_attention_heads": 96,
            "num_experts": 160,
            "num_experts_per_tok": 8,
            "num_hidden_layers": 62,
            "num_key_value_heads": 8,
            "sliding_window": None,
            "tie_word_embeddings": False,
            "use_sliding_window": False,
            "vocab_size": 151936,
        },
        # The published config also has "shared_expert_intermediate_size": 0 (no shared expert), left out
        # here because a present key is read as one shared expert with a gate.
        source=aiconfigurator("Qwen/Qwen3-Coder-480B-A35B-Instruct"),
        published_total=480_000_000_000, published_active=35_000_000_000,
        count_source="Qwen model card, huggingface.co/Qwen/Qwen3-Coder-480B-A35B-Instruct ('480B-parameter "
                     "Mixture-of-Experts model with 35B active parameters'); the name's 480B-A35B (QwenLM/Qwen3 "
                     "docs/source/getting_started/concepts.md @ 7a2f61ffc7a2)",
    ),
)
