"""NVIDIA's Nemotron-H hybrids: Mamba-2 blocks with a few attention blocks (published configs)."""

from __future__ import annotations

from ..entry import CatalogueEntry, Source
from .sources import AICONFIGURATOR, AICONFIGURATOR_COMMIT, AICONFIGURATOR_DIR, aiconfigurator

ENTRIES = (
    CatalogueEntry(
        id="nemotron-h-56b", name="Nemotron-H 56B (Mamba-2 hybrid)",
        config={
            "torch_dtype": "bfloat16",  # as published (read from the same file)
            "architectures": ["NemotronHForCausalLM"],
            "attention_bias": False,
            "attention_head_dim": 128,
            "chunk_size": 128,
            "conv_kernel": 4,
            "expand": 2,
            "hidden_size": 8192,
            "hybrid_override_pattern": (
                "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-"
                "M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-"),
            "intermediate_size": 32768,
            "mamba_head_dim": 64,
            "mamba_num_heads": 256,
            "mamba_proj_bias": False,
            "max_position_embeddings": 8192,
            "mlp_bias": False,
            "model_type": "nemotron_h",
            "n_groups": 8,
            "num_attention_heads": 64,
            "num_hidden_layers": 118,
            "num_key_value_heads": 8,
            "sliding_window": None,
            "ssm_state_size": 256,
            "tie_word_embeddings": False,
            "use_bias": False,
            "use_conv_bias": True,
            "vocab_size": 131072,
        },
        source=aiconfigurator("nvidia/Nemotron-H-56B-Base-8K",
                              note="the published file also holds time_step_limit, [0.0, unbounded], not a JSON value"),
        published_total=56_000_000_000,
        count_source="the model's name and NVIDIA's Nemotron-H paper (arXiv:2504.03624, 'Nemotron-H-56B')",
    ),
    CatalogueEntry(
        id="nemotron-3-nano-30b-a3b", name="Nemotron 3 Nano 30B-A3B (Mamba-2 MoE hybrid)",
        config={
            "torch_dtype": "bfloat16",  # as published (read from the same file)
            "architectures": ["NemotronHForCausalLM"],
            "attention_bias": False,
            "chunk_size": 128,
            "conv_kernel": 4,
            "expand": 2,
            "head_dim": 128,
            "hidden_size": 2688,
            "hybrid_override_pattern": "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME",
            "intermediate_size": 1856,
            "mamba_head_dim": 64,
            "mamba_num_heads": 64,
            "mamba_proj_bias": False,
            "mamba_ssm_cache_dtype": "float32",
            "max_position_embeddings": 262144,
            "mlp_bias": False,
            "model_type": "nemotron_h",
            "moe_intermediate_size": 1856,
            "moe_shared_expert_intermediate_size": 3712,
            "n_group": 1,
            "n_groups": 8,
            "n_routed_experts": 128,
            "n_shared_experts": 1,
            "num_attention_heads": 32,
            "num_experts_per_tok": 6,
            "num_hidden_layers": 52,
            "num_key_value_heads": 2,
            "sliding_window": None,
            "ssm_state_size": 128,
            "tie_word_embeddings": False,
            "topk_group": 1,
            "use_bias": False,
            "use_conv_bias": True,
            "vocab_size": 131072,
        },
        source=aiconfigurator("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"),
        published_total=31_600_000_000, published_active=3_600_000_000,
        count_source="NVIDIA model card, huggingface.co/nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 (31.6B total "
                     "parameters, 3.2B active, 3.6B including embeddings)",
    ),
    CatalogueEntry(
        id="nemotron-3-nano-4b", name="Nemotron 3 Nano 4B (Mamba-2 hybrid, dense)",
        config={
            "torch_dtype": "bfloat16",  # the checkpoint's name (-BF16) and the port's "Weights: bf16"
            "architectures": ["NemotronHForCausalLM"],
            "attention_bias": False,
            "chunk_size": 256,
            "conv_kernel": 4,
            "expand": 2,
            "head_dim": 128,
            "hidden_size": 3136,
            "hybrid_override_pattern": "M-M-M-MM-M-M*-M-M*-M-M-M*-M-M-MM*-MMM-M-M-",
            "intermediate_size": 12544,
            "mamba_head_dim": 80,
            "mamba_num_heads": 96,
            "mamba_proj_bias": False,
            "max_position_embeddings": 262144,
            "mlp_bias": False,
            "model_type": "nemotron_h",
            "n_groups": 8,
            "num_attention_heads": 40,
            "num_hidden_layers": 42,
            "num_key_value_heads": 8,
            "sliding_window": None,
            "ssm_state_size": 128,
            "tie_word_embeddings": False,
            "use_bias": False,
            "use_conv_bias": True,
            "vocab_size": 131072,
        },
        # No stored copy of the config.json itself was found (aiconfigurator, the search index, vLLM's and
        # transformers' tests). The shape fields are those the NeuronX port of this checkpoint quotes from it
        # (type, pattern, hidden 3136, MLP 12544 with mlp_bias false, 40 Q / 8 KV heads of 128, Mamba-2 96
        # heads of 80, state 128, 8 groups, chunk 256, conv 4, max_position_embeddings 262144). Not quoted
        # there, and taken from the Nemotron-H family it was compressed from (Nemotron-Nano-9B-v2, whose
        # config the port's 30B sibling shares these with): vocab_size 131072 untied, expand 2, conv bias
        # on, no projection biases. The count checks them: untied 131072 gives 3.97B, the port's figure
        # (tied would give 3.56B); the log's 7.43 GiB of weights is 3.99B at 2 bytes.
        source=Source(repo="jimburtoft/neuronx-distributed-inference",
                      path="contrib/models/NVIDIA-Nemotron-3-Nano-4B-BF16/README.md ('Model overview')",
                      commit="7afd36cd227fad7192083bb3b2d0f0963e493a68",
                      url="https://huggingface.co/nvidia/NVIDIA-Nemotron-3-Nano-4B-BF16/blob/main/config.json",
                      note="vocab_size, tie_word_embeddings, expand and the bias flags are the family's, checked "
                           "by the published 3.97B count"),
        published_total=3_970_000_000,
        count_source="the NeuronX port's model overview ('Parameters: 3.97 B (all-active; not a MoE)'), "
                     "jimburtoft/neuronx-distributed-inference contrib/models/NVIDIA-Nemotron-3-Nano-4B-BF16/README.md",
    ),
    CatalogueEntry(
        id="nemotron-3-super-120b-a12b", name="Nemotron 3 Super 120B-A12B (Mamba-2 latent-MoE hybrid)",
        config={
            "dtype": "bfloat16",  # as published (transformers 4.57's name for torch_dtype)
            "architectures": ["NemotronHForCausalLM"],
            "attention_bias": False,
            "chunk_size": 128,
            "conv_kernel": 4,
            "expand": 2,
            "head_dim": 128,
            "hidden_size": 4096,
            "hybrid_override_pattern": (
                "MEMEMEM*EMEMEMEM*EMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEM*EMEMEMEME"),
            "intermediate_size": 2688,
            "mamba_head_dim": 64,
            "mamba_num_heads": 128,
            "mamba_proj_bias": False,
            "mamba_ssm_cache_dtype": "float32",
            "max_position_embeddings": 262144,
            "mlp_bias": False,
            "model_type": "nemotron_h",
            "moe_intermediate_size": 2688,
            "moe_latent_size": 1024,
            "moe_shared_expert_intermediate_size": 5376,
            "mtp_hybrid_override_pattern": "*E",
            "n_group": 1,
            "n_groups": 8,
            "n_routed_experts": 512,
            "n_shared_experts": 1,
            "num_attention_heads": 32,
            "num_experts_per_tok": 22,
            "num_hidden_layers": 88,
            "num_key_value_heads": 2,
            "num_nextn_predict_layers": 1,
            "sliding_window": None,
            "ssm_state_size": 128,
            "tie_word_embeddings": False,
            "topk_group": 1,
            "use_bias": False,
            "use_conv_bias": True,
            "vocab_size": 131072,
        },
        # The stored copies are the config.json of NVIDIA's FP8 and NVFP4 releases, identical to each other
        # field for field. A ModelOpt checkpoint keeps its quantization in hf_quant_config.json, not in
        # config.json (its "dtype" is the unquantized tensors' bfloat16), so the file is the shape the
        # BF16 release ships; the count below checks it.
        source=Source(repo=AICONFIGURATOR,
                      path=f"{AICONFIGURATOR_DIR}nvidia--NVIDIA-Nemotron-3-Super-120B-A12B-FP8_config.json",
                      commit=AICONFIGURATOR_COMMIT,
                      url="https://huggingface.co/nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16/blob/main/config.json",
                      note="the FP8 release's config.json (the NVFP4 release's, stored beside it, is identical); "
                           "the published file also holds time_step_limit, [0.0, unbounded], not a JSON value"),
        published_total=120_600_000_000, published_active=12_700_000_000,
        count_source="Sebastian Raschka, 'Nemotron 3 Super Throughput Notes' "
                     "(sebastianraschka.com/blog/2026/nemotron-3-super-throughput.html: 'The exact counts are 120.6 "
                     "billion total parameters and 12.7 billion active parameters per forward pass, or 12.1 billion "
                     "when embeddings are excluded'), from NVIDIA's technical report ('12B active 120B total')",
        counts_note="The MTP module (num_nextn_predict_layers 1, an attention and a MoE block) is not counted, as "
                    "in the published 120.6B.",
        notes="NVIDIA's FP8 and NVFP4 releases are not in the catalogue: the stored copies of their "
              "hf_quant_config.json hold only quant_algo and kv_cache_quant_algo, with no exclude_modules or "
              "per-layer list, so which layers (routers, Mamba conv and projections, latent projections, LM "
              "head) stay unquantized is not known; reading every Linear as NVFP4 or FP8 would size a "
              "substituted format.",
    ),
)
