"""MiniMax's M2.5 and M2.7: 256-expert MoE with full (softmax) attention on every layer; M2.7 as
published (token ids and loader fields left out) and NVIDIA's NVFP4 release of it. MiniMax-M3: a
128-expert MoE whose 57 last layers add block-sparse attention with an indexer
(models/block_sparse_attention.py), shipped in bf16."""

from __future__ import annotations

from ..entry import CatalogueEntry
from .names import as_layers, names
from .sources import aiconfigurator

ENTRIES = (
    CatalogueEntry(
        id="minimax-m2.5", name="MiniMax-M2.5 (230B MoE)",
        config={
            "architectures": ["MiniMaxM2ForCausalLM"],
            "head_dim": 128,
            "hidden_size": 3072,
            "intermediate_size": 1536,
            "max_position_embeddings": 196608,
            "model_type": "minimax_m2",
            "mtp_transformer_layers": 1,
            "num_attention_heads": 48,
            "num_experts_per_tok": 8,
            "num_hidden_layers": 62,
            "num_key_value_heads": 8,
            "num_local_experts": 256,
            "num_mtp_modules": 3,
            "qk_norm_type": "per_layer",
            "quantization_config": {"activation_scheme": "dynamic", "fmt": "float8_e4m3fn",
                                    "modules_to_not_convert": ["gate", "e_score_correction_bias", "lm_head"],
                                    "quant_method": "fp8", "weight_block_size": [128, 128]},
            "rotary_dim": 64,
            "shared_intermediate_size": 0,
            "tie_word_embeddings": False,
            "use_mtp": True,
            "use_qk_norm": True,
            "vocab_size": 200064,
        },
        source=aiconfigurator("MiniMaxAI/MiniMax-M2.5"),
        published_total=229_900_000_000, published_active=9_800_000_000, active_excludes_embedding=True,
        active_excludes_head=True,
        count_source="MiniMax M2 series report as summarised at https://www.emergentmind.com/topics/minimax-m2-5 "
                     "('229.9 billion total parameters, 9.8 billion activated per token'; M2's card: 230B / 10B)",
        counts_note="MiniMax's activated count leaves out the embedding and the LM head (0.61B each); the three "
                    "MTP modules (use_mtp) are not counted.",
    ),
)

_M27_COUNTS = dict(
    published_total=230_000_000_000, published_active=10_000_000_000, active_excludes_embedding=True,
    active_excludes_head=True,
    count_source="MiniMax-M2.7 model card (huggingface.co/MiniMaxAI/MiniMax-M2.7): M2.5's architecture, 230B total "
                 "and 10B activated parameters as for the M2 series",
    counts_note="The same shape as M2.5: 228.69B in all, 9.80B activated without the embedding and the LM head "
                "(0.61B each); the three MTP modules (use_mtp) are not counted.",
)

ENTRIES = (
    *ENTRIES,
    CatalogueEntry(
        id="minimax-m2.7", name="MiniMax-M2.7 (230B MoE)",
        config={
            'architectures': ['MiniMaxM2ForCausalLM'],
            'attn_type_list': [1] * 62,
            'dtype': 'bfloat16',
            'head_dim': 128,
            'hidden_act': 'silu',
            'hidden_size': 3072,
            'intermediate_size': 1536,
            'max_position_embeddings': 204800,
            'model_type': 'minimax_m2',
            'mtp_transformer_layers': 1,
            'num_attention_heads': 48,
            'num_experts_per_tok': 8,
            'num_hidden_layers': 62,
            'num_key_value_heads': 8,
            'num_local_experts': 256,
            'num_mtp_modules': 3,
            'qk_norm_type': 'per_layer',
            'quantization_config': {
                'activation_scheme': 'dynamic',
                'fmt': 'float8_e4m3fn',
                'quant_method': 'fp8',
                'weight_block_size': [128, 128],
                'modules_to_not_convert': ['gate', 'e_score_correction_bias', 'lm_head'],
            },
            'rms_norm_eps': 1e-06,
            'rope_theta': 5000000,
            'rotary_dim': 64,
            'scoring_func': 'sigmoid',
            'shared_intermediate_size': 0,
            'tie_word_embeddings': False,
            'use_mtp': True,
            'use_qk_norm': True,
            'use_routing_bias': True,
            'vocab_size': 200064,
        },
        source=aiconfigurator("MiniMaxAI/MiniMax-M2.7"),
        notes="fp8 e4m3 with 128 × 128 block scales; the router, its correction bias and the LM head unconverted.",
        **_M27_COUNTS,
    ),
    CatalogueEntry(
        id="minimax-m2.7-nvfp4", name="MiniMax-M2.7 NVFP4 (NVIDIA ModelOpt)",
        config={
            'architectures': ['MiniMaxM2ForCausalLM'],
            'attention_dropout': 0.0,
            'attn_type_list': [1] * 62,
            'dtype': 'bfloat16',
            'head_dim': 128,
            'hidden_act': 'silu',
            'hidden_size': 3072,
            'intermediate_size': 1536,
            'max_position_embeddings': 196608,
            'model_type': 'minimax_m2',
            'mtp_transformer_layers': 1,
            'num_attention_heads': 48,
            'num_experts_per_tok': 8,
            'num_hidden_layers': 62,
            'num_key_value_heads': 8,
            'num_local_experts': 256,
            'num_mtp_modules': 3,
            'output_router_logits': False,
            'partial_rotary_factor': 0.5,
            'qk_norm_type': 'per_layer',
            'quantization_config': {
                'config_groups': {
                    'group_0': {
                        'input_activations': {'dynamic': False, 'num_bits': 4, 'type': 'float', 'group_size': 16},
                        'weights': {'dynamic': False, 'num_bits': 4, 'type': 'float', 'group_size': 16},
                        'targets': ['Linear'],
                    },
                },
                'ignore': ['lm_head',
                 *names('model.layers.{}.block_sparse_moe.gate', range(0, 62)),
                 *names('model.layers.{}.self_attn*', range(0, 62))],
                'quant_algo': 'NVFP4',
                'kv_cache_scheme': {'dynamic': False, 'num_bits': 8, 'type': 'float'},
                'producer': {'name': 'modelopt', 'version': '0.43.0rc2.dev96+g3baa2da62.d20260410'},
                'quant_method': 'modelopt',
            },
            'rms_norm_eps': 1e-06,
            'rope_theta': 5000000,
            'rotary_dim': 64,
            'router_aux_loss_coef': 0.001,
            'router_jitter_noise': 0.0,
            'scoring_func': 'sigmoid',
            'shared_intermediate_size': 0,
            'sliding_window': None,
            'tie_word_embeddings': False,
            'use_mtp': True,
            'use_qk_norm': True,
            'use_routing_bias': True,
            'vocab_size': 200064,
        },
        source=aiconfigurator("nvidia/MiniMax-M2.7-NVFP4"),
        notes="NVFP4 routed experts; attention, the routers and the LM head stay bf16 (its ignore list).",
        **_M27_COUNTS,
    ),
)

#: MiniMax-M3's first three layers keep a dense MLP and full attention; the other 57 run the experts
#: and the block-sparse attention (the published lists, written by rule).
_M3_LAYERS = [0] * 3 + [1] * 57

ENTRIES = (
    *ENTRIES,
    CatalogueEntry(
        id="minimax-m3", name="MiniMax-M3 (428B MoE, sparse attention)",
        config={
            'architectures': ['MiniMaxM3ForCausalLM'],
            'attention_output_gate': False,
            'dense_intermediate_size': 12288,
            'first_k_dense_replace': 3,
            'head_dim': 128,
            'hidden_act': 'swigluoai',
            'hidden_size': 6144,
            'intermediate_size': 3072,
            'max_position_embeddings': 1048576,
            'model_type': 'minimax_m3',
            'moe_intermediate_size': 3072,
            'moe_layer_freq': _M3_LAYERS,
            'n_shared_experts': 1,
            'num_attention_heads': 64,
            'num_experts_per_tok': 4,
            'num_hidden_layers': 60,
            'num_key_value_heads': 4,
            'num_local_experts': 128,
            'num_mtp_modules': 7,
            'num_nextn_predict_layers': 1,
            'partial_rotary_factor': 0.5,
            'qk_norm_type': 'per_head',
            'rms_norm_eps': 1e-06,
            'rope_theta': 5000000,
            'rotary_dim': 64,
            'routed_scaling_factor': 2.0,
            'scoring_func': 'sigmoid',
            'shared_intermediate_size': 3072,
            'sparse_attention_config': {
                'sparse_attention_freq': _M3_LAYERS,
                'sparse_block_size': 128,
                'sparse_disable_index_value': _M3_LAYERS,
                'sparse_index_dim': 128,
                'sparse_init_block': 0,
                'sparse_local_block': 1,
                'sparse_num_index_heads': 4,
                'sparse_score_type': 'max',
                'sparse_topk_blocks': 16,
                'use_sparse_attention': True,
            },
            'swiglu_alpha': 1.702,
            'swiglu_limit': 7.0,
            'tie_word_embeddings': False,
            'torch_dtype': 'bfloat16',
            'use_gemma_norm': True,
            'use_qk_norm': True,
            'use_routing_bias': True,
            'vocab_size': 200064,
        },
        source=aiconfigurator("MiniMaxAI/MiniMax-M3"),
        notes="bf16 as published (MiniMax's MXFP8 release is another checkpoint); the router and its correction "
              "bias fp32.",
        published_total=428_000_000_000, published_active=23_000_000_000, active_excludes_embedding=True,
        active_excludes_head=True, active_tolerance=0.03,
        count_source="MiniMax-M3 model card (huggingface.co/MiniMaxAI/MiniMax-M3, as mirrored at "
                     "huggingface.co/unsloth/MiniMax-M3): '~428B parameters and ~23B activated parameters'",
        counts_note="The card's total includes the vision tower and the MTP modules, which text serving does not "
                    "load: the 60 text layers, embeddings and LM head hold 426.2B. Its activated count leaves out "
                    "the embedding and the LM head (1.23B each), and is given to two significant figures (~23B): 23.50B "
                    "derived.",
    ),
)

#: NVIDIA's MiniMax-M3-NVFP4 ``quantized_layers``, by rule (equal to the published map entry for
#: entry: tests/unit/llm_inference/models/test_models_2026.py checks its hash): the routed experts
#: NVFP4, the attention, index projections, shared experts and dense MLPs MXFP8.
_M3_LM = "language_model.model.layers.{}."
_M3_MOE, _M3_DENSE = range(3, 60), range(0, 3)
_M3_NVFP4 = {"group_size": 16, "quant_algo": "NVFP4"}
_M3_MXFP8 = {"quant_algo": "MXFP8"}
_M3_QUANTIZED = {
    **as_layers(_M3_LM + "self_attn.{}", _M3_MXFP8, range(60), ("q_proj", "k_proj", "v_proj", "o_proj")),
    **as_layers(_M3_LM + "self_attn.{}", _M3_MXFP8, _M3_MOE, ("index_q_proj", "index_k_proj")),
    **as_layers(_M3_LM + "mlp.{}", _M3_MXFP8, _M3_DENSE, ("gate_proj", "up_proj", "down_proj")),
    **as_layers(_M3_LM + "block_sparse_moe.shared_experts.{}", _M3_MXFP8, _M3_MOE,
                ("gate_proj", "up_proj", "down_proj")),
    **as_layers(_M3_LM + "block_sparse_moe.experts.{}.{}", _M3_NVFP4, _M3_MOE, range(128), ("w1", "w2", "w3")),
}

#: Its vision tower's config as published (not counted: the calculators model Qwen3-VL's tower only).
_M3_VISION = {
    "hidden_size": 1280, "num_attention_heads": 16, "num_hidden_layers": 32, "intermediate_size": 5120,
    "patch_size": 14, "image_size": 2016, "projection_dim": 6144, "position_embedding_type": "rope",
    "rope_mode": "3d", "rope_theta": 10000.0, "attention_dropout": 0.0, "hidden_act": "gelu",
    "initializer_factor": 1.0, "initializer_range": 0.02, "layer_norm_eps": 1e-05, "model_type": "clip_vision_model",
    "num_channels": 3, "vocab_size": 32000,
    "img_token_compression_config": {"image_token_compression_method": "patch_merge", "spatial_merge_size": 2,
                                     "temporal_patch_size": 2},
    "vision_segment_max_frames": 4,
}

ENTRIES = (
    *ENTRIES,
    CatalogueEntry(
        id="minimax-m3-nvfp4", name="MiniMax-M3 NVFP4 (NVIDIA ModelOpt: NVFP4 experts, MXFP8 attention)",
        config={
            'architectures': ['MiniMaxM3SparseForConditionalGeneration'],
            'model_type': 'minimax_m3_vl',
            'num_reward_heads': 0,
            'torch_dtype': 'bfloat16',
            'text_config': {
                'architectures': ['MiniMaxM3SparseForCausalLM'],
                'attention_output_gate': False,
                'dense_intermediate_size': 12288,
                'dtype': 'bfloat16',
                'head_dim': 128,
                'hidden_act': 'swigluoai',
                'hidden_size': 6144,
                'intermediate_size': 3072,
                'max_position_embeddings': 1048576,
                'moe_layer_freq': _M3_LAYERS,
                'n_shared_experts': 1,
                'num_attention_heads': 64,
                'num_experts_per_tok': 4,
                'num_hidden_layers': 60,
                'num_key_value_heads': 4,
                'num_local_experts': 128,
                'num_mtp_modules': 1,
                'partial_rotary_factor': 0.5,
                'qk_norm_type': 'per_head',
                'rms_norm_eps': 1e-06,
                'rope_theta': 5000000,
                'rotary_dim': 64,
                'routed_scaling_factor': 2.0,
                'scoring_func': 'sigmoid',
                'shared_intermediate_size': 3072,
                'sparse_attention_config': {
                    'sparse_attention_freq': _M3_LAYERS,
                    'sparse_block_size': 128,
                    'sparse_disable_index_value': _M3_LAYERS,
                    'sparse_index_dim': 128,
                    'sparse_init_block': 0,
                    'sparse_local_block': 1,
                    'sparse_num_index_heads': 4,
                    'sparse_score_type': 'max',
                    'sparse_topk_blocks': 16,
                    'use_sparse_attention': True,
                },
                'swiglu_alpha': 1.702,
                'swiglu_limit': 7.0,
                'tie_word_embeddings': False,
                'use_gemma_norm': True,
                'use_qk_norm': True,
                'use_routing_bias': True,
                'vocab_size': 200064,
            },
            'vision_config': _M3_VISION,
            'quantization_config': {
                'quant_algo': 'MIXED_PRECISION',
                'kv_cache_quant_algo': None,
                'exclude_modules': ['lm_head', 'model.embed_tokens', 'vision_tower', 'multi_modal_projector',
                                    'patch_merge_mlp',
                                    *names('language_model.model.layers.{}.block_sparse_moe.gate', _M3_MOE)],
                'quantized_layers': _M3_QUANTIZED,
                'quant_method': 'modelopt',
            },
        },
        source=aiconfigurator("nvidia/MiniMax-M3-NVFP4",
                              note="3.1 MB as published; its per-layer quantized_layers are written by rule here"),
        notes="NVFP4 routed experts; MXFP8 attention, index projections, shared experts and dense MLPs; the routers "
              "(fp32), the embeddings and the LM head unquantized. Its vision tower is not counted.",
        published_total=428_000_000_000, published_active=23_000_000_000, active_excludes_embedding=True,
        active_excludes_head=True, active_tolerance=0.03,
        count_source="MiniMax-M3 model card (huggingface.co/MiniMaxAI/MiniMax-M3, as mirrored at "
                     "huggingface.co/unsloth/MiniMax-M3): '~428B parameters and ~23B activated parameters'",
        counts_note="As minimax-m3: the card's total includes the vision tower and the MTP modules; its activated "
                    "count, given to two significant figures (~23B), leaves out the embedding and the LM head.",
    ),
)
