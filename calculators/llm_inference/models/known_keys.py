"""The config keys known not to change memory or speed, and the meaning of keys that do but are not
modelled (for the refusal's message). Read by :mod:`.closed_world`.

A key belongs in :data:`HARMLESS` only when no value of it changes a tensor's shape, a layer's
kind, the KV cache or the stored format, or changes them by less than a norm vector does (a
hundredth of a percent of the weights). Each group says why. A key that matters only at some
values goes in :data:`NEUTRAL` with the values that leave the model as modelled; any other value
is refused.
"""

from __future__ import annotations

_GROUPS: dict[str, tuple[str, ...]] = {
    # Which class, library and file: the derivation keys on model_type; the engine rules read the
    # architecture apart (scenario.py).
    "identity and provenance": (
        "architectures", "auto_map", "transformers_version", "_name_or_path", "name_or_path", "_commit_hash",
        "model_name", "tokenizer_class", "_attn_implementation", "_attn_implementation_autoset",
        "attn_implementation", "custom_pipelines",
    ),
    # transformers' PretrainedConfig writes these into every nested config it serialises: generation
    # defaults, heads for other tasks, training flags. None touches the decoder's tensors.
    "PretrainedConfig boilerplate": (
        "add_cross_attention", "bad_words_ids", "begin_suppress_tokens", "chunk_size_feed_forward",
        "cross_attention_hidden_size", "decoder_start_token_id", "diversity_penalty", "do_sample",
        "early_stopping", "encoder_no_repeat_ngram_size", "exponential_decay_length_penalty", "finetuning_task",
        "forced_bos_token_id", "forced_eos_token_id", "id2label", "is_decoder", "is_encoder_decoder",
        "label2id", "length_penalty", "max_length", "min_length", "no_repeat_ngram_size", "num_beam_groups",
        "num_beams", "num_return_sequences", "output_attentions", "output_hidden_states", "output_scores",
        "prefix", "problem_type", "pruned_heads", "remove_invalid_values", "repetition_penalty", "return_dict",
        "return_dict_in_generate", "sep_token_id", "suppress_tokens", "task_specific_params", "temperature",
        "tf_legacy_loss", "tie_encoder_decoder", "top_k", "top_p", "torchscript", "typical_p", "use_bfloat16",
        "is_composition", "output_router_logits", "num_logits_to_keep", "use_return_dict", "gradient_checkpointing",
    ),
    # Which token ids mean what, and how a processor turns images or video into tokens: the
    # vocabulary's size is vocab_size, read; the decoder is the same.
    "token ids and media placeholders": (
        "ignore_index", "image_placeholder", "video_placeholder", "use_unified_vision_chunk",
        "vision_soft_tokens_per_image", "mm_tokens_per_image", "vision_feature_layer",
        "vision_feature_select_strategy", "img_token_compression_config", "image_grid_pinpoints",
        "image_seq_length", "process_image_mode",
    ),
    # The vision side's projector, loaded with the tower: counted with it (vision.py) or named
    # there as not counted, like the rest of vision_config.
    "vision projector": ("projector_hidden_act", "projector_hidden_size", "multimodal_projector_bias"),
    # Training only: initialisation, dropout, losses, parallel-training layouts, kernels chosen at
    # run time.
    "training and kernels": (
        "initializer_range", "initializer_factor", "attention_dropout", "hidden_dropout", "dropout",
        "embd_pdrop", "resid_pdrop", "attn_pdrop", "summary_first_dropout", "hidden_dropout_prob",
        "attention_probs_dropout_prob", "classifier_dropout", "use_cache", "pretraining_tp", "ep_size",
        "router_aux_loss_coef", "aux_loss_alpha", "seq_aux", "router_z_loss_coef", "router_jitter_noise",
        "use_mamba_kernels", "rescale_prenorm_residual", "residual_in_fp32", "time_step_min", "time_step_max",
        "time_step_floor", "time_step_limit", "time_step_rank", "time_step_scale", "moe_shared_expert_overlap",
        "use_flash_attn", "fused_bias_fc", "fused_dropout_add_ln",
    ),
    # How each token picks its experts (scores, groups, scaling): which experts run, not how many
    # or how large; a router bias is one number per expert.
    "routing": (
        "norm_topk_prob", "scoring_func", "routed_scaling_factor", "topk_method", "n_group", "topk_group",
        "num_expert_group", "use_grouped_topk", "use_routing_bias", "use_moe_router_bias",
        "moe_router_scaling_factor", "moe_renormalize", "moe_router_activation_func", "moe_router_dtype",
        "router_bias", "moe_router_topk_scaling_factor",
    ),
    # Positions: RoPE's base, scaling and interleaving rotate q and k in place, whatever the
    # shapes; the context length is max_position_embeddings, read.
    "positions (RoPE)": (
        "rope_theta", "rope_scaling", "rope_parameters", "rope_interleave", "indexer_rope_interleave",
        "rope_type", "partial_rotary_factor", "rotary_dim", "rotary_pct", "rotary_emb_base", "use_mrope",
        "mrope_section", "mrope_interleaved", "compress_rope_theta", "swa_rope_theta", "initial_context_length",
        "original_max_position_embeddings", "rope_local_base_freq", "position_embedding_type",
    ),
    # Nonlinearities, epsilons and scalars applied to values already computed: no tensor, no cache.
    "activations and scalars": (
        "hidden_act", "hidden_activation", "activation_function", "mamba_hidden_act", "mlp_hidden_act",
        "swiglu_limit", "swiglu_alpha", "final_logit_softcapping", "attn_logit_softcapping",
        "query_pre_attn_scalar", "attention_value_scale", "logits_scaling", "embedding_multiplier",
        "attention_multiplier", "residual_multiplier", "logit_scale", "scale_attn_weights",
        "use_bidirectional_attention", "attention_softmax_in_fp32",
        "output_gate_type",  # the attention output gate's function (sigmoid, swish), not its size
    ),
    # Norm epsilons and per-head norms: at most a vector of head_dim or hidden_size per layer.
    "norms": (
        "rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon", "norm_eps", "layernorm_epsilon", "norm_epsilon",
        "use_qk_norm", "qk_norm_type", "use_gemma_norm", "qk_layernorm",
    ),
    # The multi-token-prediction module: loaded only for speculative decoding, which these
    # calculators do not model (as num_nextn_predict_layers, which the derivation names).
    "multi-token prediction": (
        "mtp_num_hidden_layers", "mtp_use_dedicated_embeddings", "mtp_transformer_layers", "num_mtp_modules",
        "use_mtp", "mtp_hybrid_override_pattern", "mtp_layers_block_type", "index_share_for_mtp_iteration",
    ),
    # Restating a field the derivation reads: an alias read only when the canonical name is absent
    # (gpt-oss lists both experts_per_token and num_experts_per_tok), Gemma 2's window twice.
    "restated": ("experts_per_token", "sliding_window_size", "n_ctx", "attention_head_dim"),
}

#: Every key known not to change memory or speed, whatever its value.
HARMLESS: frozenset[str] = frozenset(key for keys in _GROUPS.values() for key in keys)
#: Special-token ids (``bos_token_id``, ``image_token_id``, ``boi_token_index``...): which id means
#: what, never how many ids there are.
HARMLESS_SUFFIXES = ("_token_id", "_token_ids", "_token_index")

#: Keys that change the model only at some values: the values that leave it as modelled. Any other
#: value is refused, naming the key. (null is neutral for every key.)
NEUTRAL: dict[str, tuple] = {
    "num_kv_shared_layers": (0,),  # Gemma 3n / 4: layers that reuse an earlier layer's KV cache
    "hidden_size_per_layer_input": (0,),  # Gemma 3n / 4: per-layer input embeddings
    "vocab_size_per_layer_input": (0,),
    "use_double_wide_mlp": (False,),  # Gemma 4: some layers' MLP twice as wide
    "attention_k_eq_v": (False,),  # Gemma 4: global layers storing one tensor for K and V
    "enable_moe_block": (False,),  # Gemma 4: experts beside the dense MLP
    "qkv_bias": (False,),  # biases on q, k, v (a model that has them says attention_bias)
    "mamba_proj_bias": (False,),
    "mlp_only_layers": ([],),
    "language_model_only": (False,),
    "use_sliding_window": (False,),
    "add_full_attention_sink_bias": (False,),
    "add_swa_attention_sink_bias": (False,),
    "attention_output_gate": (False,),  # a gate on the attention output (q_proj wider)
    "audio_config": ({},),
    "num_reward_heads": (0,),  # MiniMax-M3's VL wrapper: no reward head beside the LM head
}

#: What an unmodelled key is, for the refusal: the reader learns why, not only which field.
UNMODELLED: dict[str, str] = {
    "compress_ratios": "DeepSeek-V4's compressed attention: a compression ratio per layer",
    "index_n_heads": "a sparse-attention indexer's heads",
    "index_head_dim": "a sparse-attention indexer's head size",
    "index_topk": "a sparse-attention indexer's top-k",
    "index_topk_freq": "GLM-5.2's indexer kept on every n-th layer",
    "index_skip_topk_offset": "GLM-5.2's indexer pattern",
    "indexer_types": "which layers keep their own indexer and which share one (GLM-5.2)",
    "o_groups": "DeepSeek-V4's grouped output projection",
    "o_lora_rank": "DeepSeek-V4's low-rank output projection",
    "hc_mult": "DeepSeek-V4's hyper-connections (several residual streams)",
    "hc_sinkhorn_iters": "DeepSeek-V4's hyper-connections",
    "hc_eps": "DeepSeek-V4's hyper-connections",
    "num_hash_layers": "DeepSeek-V4's hash-routed MoE layers",
    "expert_dtype": "the routed experts' own storage format",
    "sparse_attention_config": "block-sparse attention with an indexer, read for MiniMax-M3 (model_type minimax_m3)",
    "hybrid_layer_pattern": "MiMo-V2-Flash's full / sliding-window layer pattern",
    "swa_num_attention_heads": "a second attention geometry for the sliding-window layers",
    "swa_num_key_value_heads": "a second attention geometry for the sliding-window layers",
    "swa_head_dim": "a second attention geometry for the sliding-window layers",
    "swa_v_head_dim": "a second attention geometry for the sliding-window layers",
    "attention_k_eq_v": "Gemma 4's global layers with K = V",
    "global_head_dim": "Gemma 4's global layers' own head size",
    "num_global_key_value_heads": "Gemma 4's global layers' own KV heads",
    "enable_moe_block": "Gemma 4's experts beside a dense MLP",
    "use_double_wide_mlp": "Gemma 4's double-width MLP layers",
    "num_kv_shared_layers": "layers that reuse an earlier layer's KV cache",
    "hidden_size_per_layer_input": "per-layer input embeddings",
    "vocab_size_per_layer_input": "per-layer input embeddings",
    "language_model_only": "a checkpoint without its vision tower",
    "mla_use_nope": "an MLA variant",
    "routed_expert_hidden_size": "experts narrower than the hidden state",
    "latent_moe_use_norm": "a latent MoE's norm",
    "attn_res_block_size": "block-wise attention residuals",
    "block_configs": "a per-layer architecture search (Nemotron-NAS): layers of different shapes",
    "audio_config": "an audio tower",
    "add_swa_attention_sink_bias": "attention sinks",
    "add_full_attention_sink_bias": "attention sinks",
    "v_head_dim": "values of another size than keys",
    "dense_intermediate_size": "the dense layers' own MLP width, read for MiniMax-M3",
    "attention_output_gate": "a gate on the attention output",
    "num_reward_heads": "reward heads beside the LM head",
}
