"""Evidence for the drafter's memory under ``--speculative-config``: what vLLM's source says, file by file.

Read with the stored snapshots of ``vllm-project/vllm`` (the commit of each file as stored, named in
:data:`SOURCES`); the newest release modelled is engines.vllm_releases.NEWEST (0.33.0). The facts the
physics (physics.speculation) rests on:

1. **Which drafters**: ``SpeculativeConfig.method`` (vllm/config/speculative.py) is one of ngram,
   medusa, mlp_speculator, draft_model, suffix, eagle, eagle3, the MTP family (deepseek_mtp, mtp,
   qwen3_next_mtp, …), dflash, dspark. ``hf_config_override`` turns a DeepSeek-V3 config into a
   ``deepseek_mtp`` one with ``n_predict = num_nextn_predict_layers``.
2. **Draft TP**: ``draft_tensor_parallel_size`` "can only be 1 or the same as the target model's";
   left unset it takes the target's (``_verify_and_get_draft_tp``), and the V1 draft-model proposer
   raises when the two differ (``DraftModelProposer._raise_if_draft_tp_mismatch``). A draft model is
   loaded by ``get_model`` under the target's ``VllmConfig`` (draft_model.py ``load_model``): its
   layers are sharded over the same TP ranks, and every GPU holds its 1/TP share.
3. **Drafter KV in the same pool**: ``load_model`` takes the drafter's attention layers as those
   ``get_layers_from_vllm_config(..., Attention)`` finds after loading it minus the target's: they
   register in the same static forward context from which the model runner's
   ``get_kv_cache_spec`` builds the KV specs, so they get pages from the one pool and join the
   target's cache groups (``validate_same_kv_cache_group``: "All eagle layers should belong to the
   same kv cache group"). physics.cache_layout counts an MTP layer so (its
   ``draft_attention_layers``, with the Nemotron 3 Super log of engines/hybrid_logs.py and the
   Qwen3.5-9B log of point 10).
4. **MTP weights** (vllm/model_executor/models/deepseek_mtp.py): each of the
   ``num_nextn_predict_layers`` predictor layers is ``enorm`` and ``hnorm`` (RMSNorm of the hidden
   size), ``eh_proj`` (``nn.Linear(2·hidden, hidden)``: a plain linear, so replicated on every rank
   in the checkpoint's unquantized dtype), a ``SharedHead`` (an RMSNorm and its own
   ``ParallelLMHead(vocab, hidden)``, vocabulary-parallel) and ``mtp_block``, a
   ``DeepseekV2DecoderLayer`` of the target's shape (MLA and, past ``first_k_dense_replace``, the
   MoE). Its ``embed_tokens`` is one ``VocabParallelEmbedding``.
5. **What MTP shares** (vllm/v1/spec_decode/eagle.py, ``EagleProposer.load_model``): with one
   pipeline stage, an MTP drafter's ``embed_tokens`` is deleted and replaced by the target's
   ("Detected MTP model. Sharing target model embedding weights with the draft model."), and
   ``self.model.lm_head`` is set to the target's ("Sharing target model lm_head weights"). DeepSeek's
   MTP computes its logits with ``shared_head.head`` (``compute_logits``), not ``lm_head``: up to
   0.14.1 that head stays its own, and is counted. From 0.16.0 (eagle.py, then llm_base_proposer.py
   ``_maybe_share_lm_head``) the proposer also deletes every MTP layer's ``shared_head.head`` and points
   it at the target's LM head ("Shared target model lm_head with MTP shared_head.head", read in the
   0.16.0, 0.17.0, 0.20.0, 0.22.0, 0.24.0 and 0.32.0 sdists; absent from 0.14.1's): the drafter then
   holds no vocabulary-sized matrix. 0.15, which has no source archive, was read in its 0.15.0 and
   0.15.1 wheels: absent there too (:data:`SHARED_MTP_HEAD_SINCE`). Startup logs show the sharing
   (Qwen3.5-9B with MTP: "Model loading took 18.12 GiB" against 17.66 GiB without, one layer's
   worth, not an embedding's: point 10).
6. **Step cost**: the proposer runs ``num_speculative_tokens`` draft forwards a step (``dummy_run``
   loops ``for fwd_idx in range(self.num_speculative_tokens)``), and the target verifies the k
   drafted tokens plus the one it samples itself in one pass.

7. **EAGLE / EAGLE-3 heads** (vllm/model_executor/models/llama_eagle3.py, llama_eagle.py): built from
   the head's own config under the target's VllmConfig (so sharded over its TP ranks). EAGLE-3: per
   layer a ``LlamaDecoderLayer`` whose first ``QKVParallelLinear`` takes ``2 * hidden_size`` inputs
   ("First layer uses 2*hidden_size (embeds + hidden_states concatenated)"), ``hidden_norm`` beside
   the two layer norms; ``fc = ReplicatedLinear(target_hidden_size * 3, hidden_size)``; ``norm``;
   ``lm_head = ParallelLMHead(draft_vocab_size, hidden_size)``; ``draft_id_to_target_id``, a
   ``torch.long`` parameter of ``draft_vocab_size``; ``embed_tokens`` skipped when the checkpoint
   ships none, and then the target's (eagle.py: "Detected EAGLE model without its own embed_tokens in
   the checkpoint. Sharing target model embedding weights with the draft model."). EAGLE:
   ``fc = torch.nn.Linear(hidden_size * 2, hidden_size, bias=False)``, the first layer's
   ``input_layernorm`` replaced by ``nn.Identity``, no ``lm_head`` (the target's). The heads' layers
   join the target's KV group as a draft model's do (point 3). Whether an EAGLE-3 head keeps its
   own LM head changed by release (:data:`EAGLE3_LM_HEAD_BY_SHAPE_SINCE`,
   :data:`EAGLE3_LM_HEAD_BY_WEIGHTS_SINCE`): from 0.12 a head that ships the target's own (a
   full-vocabulary head trained with the verifier's LM head frozen, as dcstang/eagle3-spec-dec's
   speculators head: its checkpoint is 2.82 GiB, a full 151,936-row LM head and embedding among it, and
   vLLM 0.24.0 loads 0.51 GiB more than without it, fc and the decoder layer alone) shares it, and a
   32,000-row head never can. physics.eagle_head.
8. **n-gram** (vllm/v1/spec_decode/ngram_proposer.py): ``NgramProposer`` holds no model; its
   ``load_model`` does nothing, and it proposes from the request's token ids on the CPU. Two public
   startup logs (engines/startup_log_table_speculation.py) print "Loading drafter model..." and then
   the plain model's "Model loading took 15.27 GiB" and pool.
9. **"Model loading took"** (vllm/v1/worker/gpu_model_runner.py ``load_model``): the drafter's
   ``load_model`` runs inside the same ``DeviceMemoryProfiler`` whose ``consumed_memory`` is printed,
   so the figure is the target's weights plus the drafter's (Qwen3.5-9B with MTP: 18.12 GiB against
   17.66 GiB without, point 10).

10. **The MTP layer of a Gated DeltaNet hybrid** (vllm/model_executor/models/qwen3_next_mtp.py,
    qwen3_5_mtp.py): ``Qwen3NextMultiTokenPredictor`` / ``Qwen3_5MultiTokenPredictor`` hold
    ``embed_tokens`` (a ``VocabParallelEmbedding``), ``fc = ColumnParallelLinear(hidden_size * 2,
    hidden_size, gather_output=True, bias=False)`` (built with the checkpoint's quant config, but
    unquantized for ``modelopt_fp4``: "mtp.fc is stored as BF16 in NVFP4 checkpoints"), one decoder
    layer per ``num_nextn_predict_layers`` (Qwen3-Next, default 1: its config names none) or
    ``mtp_num_hidden_layers`` (Qwen3.5), each ``Qwen3NextDecoderLayer`` / ``Qwen3_5DecoderLayer``
    built with ``layer_type="full_attention"`` (so a full-attention layer and the target's MLP or
    MoE, never a Gated DeltaNet one), and three RMSNorms (``norm``, ``pre_fc_norm_hidden``,
    ``pre_fc_norm_embedding``). ``Qwen3NextMTP`` / ``Qwen3_5MTP`` add a ``ParallelLMHead`` (Qwen3.5:
    the embedding itself when ``tie_word_embeddings``) whose ``compute_logits`` uses ``self.lm_head``;
    their ``load_weights`` read ``mtp.*`` and the target's ``embed_tokens`` and ``lm_head``. The
    proposer then deletes both and points them at the target's (point 5: neither model has
    ``has_own_embed_tokens`` / ``has_own_lm_head``), so the drafter keeps fc, the norms and the
    decoder layer. Both raise NotImplementedError with ``mamba_cache_mode == "all"`` ("please use
    '--mamba-cache-mode=align' instead"), a mode Gated DeltaNet models never get by default
    (engines.vllm_hybrid.mamba_cache_mode). The decoder layer's ``Attention`` is a new attention
    layer (point 3): a full-attention spec like the target's full-attention layers, so it joins
    their type, and ``_get_kv_cache_groups_uniform_page_size`` (kv_cache_utils.py; engines.vllm
    ``kv_cache_groups``) sizes the groups with one more full-attention layer. A public log shows it
    (Qwen3.5-9B, vLLM 0.20.0, RTX 5090, TP 1, utilization 0.85, max_model_len 4,096, search-index
    id 55002292133): without MTP "Model loading took 17.66 GiB", "GPU KV cache size: 53,328 tokens";
    with ``{"method":"mtp","num_speculative_tokens":1}`` "Model loading took 18.12 GiB", "Add 3
    padding layers, may waste at most 12.50% KV cache memory" and 41,184 tokens. Its 8 full-attention
    layers and 24 Gated DeltaNet layers were groups of 8; with the MTP layer the full-attention type
    has 9, the group size becomes 9 (24 is not under 1.5 × 9), the 24 state layers fill 3 groups of
    9 (3 padding layers, 3 / 24 = 12.5 %), and a block spans 9 layers instead of 8. The 0.46 GiB more
    loaded is the decoder layer (209.7 M parameters: gated q_proj 4,096 × 8,192, k and v 4,096 ×
    1,024, o 4,096², the MLP 3 × 4,096 × 12,288, norms) plus fc (2 × 4,096²) and the norms in bf16:
    486.6 MB = 0.453 GiB, no vocabulary-sized matrix.
11. **Nemotron-H's MTP** (vllm/model_executor/models/nemotron_h_mtp.py): ``NemotronHMultiTokenPredictor``
    asserts one MTP step ("Only one MTP layer is supported for NemotronH-MTP") and builds one layer
    per character of ``mtp_hybrid_override_pattern`` ("*": ``NemotronHMTPAttentionDecoderLayer``, "E":
    ``NemotronHMTPMoEDecoderLayer``, anything else NotImplementedError), each the target's
    ``NemotronHAttentionDecoderLayer`` / ``NemotronHMoEDecoderLayer``; the first adds ``enorm``,
    ``hnorm`` and ``eh_proj = ColumnParallelLinear(hidden_size * 2, hidden_size, gather_output=True)``,
    the last ``final_layernorm``. ``NemotronHMTP`` sets ``has_own_lm_head = False`` and has no
    ``has_own_embed_tokens``, so the proposer shares both the LM head and the embedding (point 5).
    Nemotron 3 Super's "*E" is one attention layer (one more in the attention group: the "Add 5
    padding layers" of engines/hybrid_logs.py's log) and one latent-MoE layer.
12. **Releases** (the sdists on PyPI, read for this: 0.8.5, 0.9.0, 0.9.2, 0.10.0–0.10.2, 0.11.0,
    0.12.0, 0.13.0, 0.14.0, 0.14.1, 0.16.0, 0.17.0): the V1 engine's oracle
    (``EngineArgs._is_v1_supported_oracle``, vllm/engine/arg_utils.py) accepts ngram, eagle and
    eagle3 in 0.8.5 and adds deepseek_mtp in 0.9.0 (other methods fall back to V0, not modelled);
    ``hf_config_override`` (vllm/config.py, later vllm/config/speculative.py) first turns a
    ``deepseek_v3`` or MiMo config into its MTP drafter in 0.9.0, ``Glm4MoeForCausalLM`` in 0.10.0,
    ``qwen3_next`` in 0.10.2 (method ``qwen3_next_mtp``), ``deepseek_v32`` in 0.11.0, GLM-5's
    ``glm_moe_dsa`` in 0.16.0 (beside ``deepseek_v3`` / ``deepseek_v32``: absent from the 0.15.1 wheel),
    ``qwen3_5`` / ``qwen3_5_moe`` and ``nemotron_h`` in 0.17.0, the ``MiMoV2FlashForCausalLM``
    architecture in 0.21.0 (absent from 0.20.0, whose wheel has no mimo_v2_mtp.py); the method name
    ``mtp`` (one name for the family) is in 0.11.0's ``SpeculativeMethod`` (before it: ``deepseek_mtp``
    or ``qwen3_next_mtp``, the same drafter). A draft model: 0.14.1 still raises "Speculative decoding
    with draft model is not supported yet"; 0.15.0 and 0.15.1 have ``DraftModelProposer``
    (vllm/v1/spec_decode/draft_model.py, read in their wheels: 0.15.x has no source archive), which the
    model runner builds when ``speculative_config.uses_draft_model()``. :func:`release_problem`.
13. **The profile run** (vllm/v1/worker/gpu_model_runner.py, ``profile_run``, ``_dummy_run`` and
    ``_dummy_sampler_run``, read in 0.8.5, 0.9.0, 0.10.0, 0.11.0, 0.12.0, 0.13.0, 0.14.0, 0.15.0,
    0.15.1, 0.19.1 and 0.24.0; v1/sample/rejection_sampler.py and sampler.py of the same): the memory
    profile runs ``_dummy_run(max_num_tokens)``, ``max_num_batched_tokens`` tokens, no more for the
    speculative tokens (the scheduler's budget already counts the drafted tokens it schedules), then
    ``_dummy_sampler_run`` on one row per dummy request. With a ``--speculative-config`` (any method,
    n-gram included) that sampler run goes on to a **verification pass**: one drafted token per request
    (``draft_token_ids = [[0] for _ in range(num_reqs)]``, whatever ``num_speculative_tokens``),
    random target logits (from 0.12 ``torch.randn(num_tokens + num_reqs, vocab)``: a target row and a
    bonus row per request) and ``self.rejection_sampler(...)``, whose fp32 copies, top-k / top-p and
    recovery noise hold more than the plain sampler on most paths: 50 bytes a logit against the
    "native" sampler's 39 (0.14 to 0.16), 30 against the Triton kernel's 13.3 (0.17 on); the layouts
    by release are :data:`VERIFICATION_SINCE`, the bytes :func:`verification_bytes_per_logit`, and
    engines.vllm.activation_peak_estimate takes the larger pass. Model Runner V2 (0.22 on for some
    models, all from 0.29) runs no verification pass in its profile run. Three logs measure it: the
    EAGLE-3 head beside Llama 3.1 8B on an L4 (vLLM 0.19.1, 256 requests × 128,256: 2.99 GiB logged,
    3.51 GiB without the pass, 3.00 GiB with it) and the draft model and EAGLE-3 head beside Qwen3-8B
    on an A40 (0.15.1, 256 × 151,936: +1.4 % without, −0.5 % with, the plain run beside them −0.6 %),
    engines/startup_log_table_speculation.py.
    Not modelled: inside ``_dummy_run``, after the target's forward, the drafter's ``dummy_run(num_tokens)``
    runs ``num_speculative_tokens`` forwards of the same ``num_tokens`` while the target's output hidden
    states are still held, and ``EagleProposer`` keeps persistent buffers of ``max_num_batched_tokens ×
    hidden`` (hidden states, inputs_embeds): a head's one layer stays under the target's forward peak,
    and the buffers are tens of MiB. The Qwen3.5-9B log of point 10 (0.20.0, ``vllm bench latency``:
    8,192 batched tokens, 256 sequences, a 248,320-token vocabulary) pools 0.38–0.45 GiB less with MTP
    than the drafter's 0.45 GiB of weights explain; its text pass with the verification pass would peak
    0.99 GiB higher (16.7 bytes × 256 × 248,320), but that model also profiles its vision encoder, whose
    pass may be the larger, and neither the model nor its encoder's peak is in the catalogue to rebuild it.
14. **The MTP layer's format** (deepseek_mtp.py, glm4_moe_mtp.py, qwen3_5_mtp.py, nemotron_h_mtp.py,
    mimo_v2_mtp.py, read in the 0.33.0 wheel): the MTP module is built under the target's
    ``VllmConfig``, so its decoder layer(s) with ``vllm_config.quant_config``, and each with its
    checkpoint prefix: ``model.layers.{num_hidden_layers + i}`` for DeepSeek-V3 / V3.2, GLM-4.5 and
    GLM-5 (``DeepSeekMultiTokenPredictor``: ``f"{prefix}.layers.{idx}"`` from ``mtp_start_layer_idx =
    config.num_hidden_layers``), ``mtp.layers.{j}`` and ``mtp.fc`` for Qwen3-Next / Qwen3.5 and
    Nemotron-H, ``model.mtp.layers.0`` for MiMo-V2-Flash. A quantization config's ignore list
    (``ignore``, ``modules_to_not_convert``, ``exclude_modules``) is matched against those names, so
    the checkpoint decides: DeepSeek-V3's fp8 release (no ignore list) and Z.ai's GLM-5-FP8 (whose
    list names only layer 78's norms, eh_proj and router) quantize the MTP layer like the others;
    NVIDIA's NVFP4 releases exclude it (``model.layers.78*`` for GLM-5 and GLM-5.2, ``mtp*`` for
    Qwen3.5 / 3.6 and Nemotron 3), which is then bf16. Outside the decoder layer: DeepSeek's and GLM's
    ``eh_proj`` is an ``nn.Linear`` and MiMo's a ``ReplicatedLinear`` without a quant config (bf16,
    whole on every rank); Qwen's ``fc`` takes the quant config but for ``modelopt_fp4`` ("mtp.fc is
    stored as BF16 in NVFP4 checkpoints", vllm-project/vllm#38650); Nemotron-H's ``eh_proj`` takes it.
    Qwen3.5's MTP also drops the quant config for its decoder layers when a GPTQ ``dynamic`` key
    ``"-:…"`` names ``mtp``; here such a key is a skip pattern matched name by name (models.quantization),
    the same wherever the pattern covers the layer's modules. physics.speculation.module_bytes.
15. **DeepSeek sparse attention's indexer in the MTP layer** (deepseek_mtp.py and deepseek_v2.py,
    0.24.0, 0.28.0 and 0.33.0 wheels): ``DeepSeekMultiTokenPredictorLayer`` gives a V3.2-style config
    (``index_topk``: DeepSeek-V3.2, GLM-5, GLM-5.1, GLM-5.2) a ``topk_indices_buffer`` and a
    ``DeepseekV2DecoderLayer``, whose ``DeepseekV2MLAAttention`` builds an ``Indexer`` (its
    ``DeepseekV32IndexerCache``, an ``MLAAttentionSpec`` of 128 fp8 values and a scale a token) where
    ``index_topk_freq`` / ``index_topk_pattern`` keep the top-k, and always past the backbone: "MTP/nextn
    layers (layer_id >= num_hidden_layers) always build a full indexer". So the MTP layer caches a latent
    and an indexer key: on GLM-5 like every layer, on GLM-5.2 (indexer on 21 of 78) a latent page and an
    indexer page more in the one uniform-type group (physics.multi_page_pool, whose GLM-5.2 layout is
    read for 0.24–0.27), with the indexer's weights although GLM-5.2's last layer has none.
16. **MiMo-V2-Flash's MTP** (mimo_v2_mtp.py, 0.21.0 to 0.33.0): ``hf_config_override`` turns a
    ``MiMoV2FlashForCausalLM`` config into ``mimo_v2_mtp`` with ``n_predict =
    _MIMO_V2_FLASH_NUM_MTP_LAYERS = 1`` ("vLLM currently supports only the first MiMo-V2 MTP layer").
    ``MiMoV2MTPLayer``: enorm, hnorm, ``eh_proj = ReplicatedLinear(2h, h)``, ``input_layernorm``, a
    ``MiMoV2Attention`` of the sliding-window geometry (``swa_num_attention_heads``,
    ``swa_num_key_value_heads``, ``swa_head_dim``, ``swa_v_head_dim``, ``sliding_window_size``,
    ``add_swa_attention_sink_bias``), ``pre_mlp_layernorm``, a dense ``MiMoV2MLP`` of
    ``intermediate_size`` and ``final_layernorm``; ``MiMoV2MTP`` has no ``has_own_lm_head``, so the
    proposer shares the LM head and embedding (point 5). Its attention is a ``SlidingWindowSpec`` and
    joins the target's sliding-window type: MiMo-V2-Flash's 9 full and 39 sliding layers group by 9
    (5 sliding groups, 6 padding slots), and a 40th sliding layer takes one slot. Up to 0.30.0 the
    attention is built without ``cache_config`` (its KV then in the model dtype whatever
    ``--kv-cache-dtype``); 0.32.0 passes it (:data:`MIMO_MTP_CACHE_CONFIG_SINCE`; 0.31 not read).
17. **DeepSeek-V4's MTP** (vllm/model_executor/models/deepseek_v4_mtp.py in 0.20.0 and 0.21.0,
    vllm/models/deepseek_v4/nvidia/mtp.py from 0.22.0; read in the 0.20.0, 0.21.0, 0.22.0, 0.23.0 and 0.27.0
    wheels): ``hf_config_override`` turns ``deepseek_v4`` into ``deepseek_mtp`` with architecture
    ``DeepSeekV4MTPModel`` and ``n_predict = num_nextn_predict_layers`` (config/speculative.py l.313-317 in
    0.21.0; l.301 in 0.20.0: :data:`MTP_SINCE`). ``DeepSeekV4MultiTokenPredictor`` builds one
    ``DeepSeekV4MultiTokenPredictorLayer`` per predictor layer at ``model.layers.{num_hidden_layers + i}``
    (``mtp_start_layer_idx``); each holds ``e_proj`` and ``h_proj`` (``ReplicatedLinear(h, h)`` with the
    quant config: fp8 blocks in DeepSeek's release; l.81-93 in 0.21.0), ``enorm``, ``hnorm``, the fp32
    ``hc_head_fn`` / ``hc_head_base`` / ``hc_head_scale`` (l.99-111), a ``SharedHead`` (its norm; its
    ``head`` is the target's: "Shared target model lm_head with MTP shared_head.head") and ``mtp_block``, a
    ``DeepseekV4DecoderLayer`` (l.115) whose attention takes ``compress_ratio = 1`` past
    ``num_hidden_layers`` ("MTP layer is not included in the compress ratio list": deepseek_v4.py l.956-961
    in 0.21.0, nvidia/model.py l.701-704 in 0.22.0, attention.py l.208-213 in 0.27.0), so no compressor and
    no indexer, and whose only cache is its ``DeepseekV4SWACache``: one more window in the pool
    (physics.multi_page_pool.v4_mtp_layer; kv_cache_utils.py's ``_annotate_eagle_groups_deepseek_v4``:
    "DeepseekV4's MTP attention layer is always the last layer"). The 99sono boot of the speculation table
    prints "MTP draft model loaded: 39 params", as many as a count by hand of this module's parameters
    gives: the decoder layer's 29 without compressor and indexer (attention 11, norms 2, mixers 6, router
    2, shared experts 4, routed experts 4) and 10 of e_proj, h_proj (weight and scale each), enorm, hnorm,
    the three hc_head tensors and shared_head.norm.

Not modelled, and refused with a note: MTP for hybrid targets other than the Gated DeltaNet and
Nemotron-H ones (KDA, lightning attention); DeepSeek-V4 with any drafter other than its own MTP layer
(``v4_unmodelled``), or with its MTP layer under data-parallel attention; MiMo-V2-Flash's MTP
beside a quantized KV cache before 0.32.0 (pages of two dtypes); an EAGLE head beside a
target with MLA, windowed, per-layer or recurrent caches (its full-attention layer is grouped apart);
a drafter TP other than the target's; a draft model or head whose KV page per layer differs from the
target's (vLLM then pads or groups them apart); and pipeline parallelism (the drafter sits on the last
stage only: ``get_pp_group().is_last_rank``).
"""

from __future__ import annotations

from .vllm_releases import parse_version

#: From this release DeepSeek-style MTP layers' own ``shared_head.head`` is the target's LM head (point 5).
SHARED_MTP_HEAD_SINCE = "0.16.0"
#: An EAGLE-3 head's own LM head (point 7): up to 0.10.x ``EagleProposer.load_model`` keeps it
#: (``if ...method != "eagle3" and hasattr(target_language_model, "lm_head")``: only EAGLE-1 takes the
#: target's; read in 0.9.0, 0.10.0, 0.10.1.1, 0.10.2); from 0.11.0 it takes the target's when the shapes
#: match ("Assuming the EAGLE head shares the same lm_head with the target model": a full-vocabulary
#: head); from 0.12.0 (vllm-project/vllm#28549, "Add support for Eagle with separate lm-head and
#: embed_tokens layers") when the checkpoint ships no ``lm_head`` or one equal to the target's
#: (``torch.equal``), whatever the shapes — "Detected EAGLE model with distinct lm_head weights.
#: Keeping separate lm_head weights from the target model." otherwise (read in 0.12.0, 0.15.0, 0.15.1,
#: 0.19.1, 0.24.0, where it is llm_base_proposer.py ``_maybe_share_lm_head``).
EAGLE3_LM_HEAD_BY_SHAPE_SINCE = "0.11.0"
EAGLE3_LM_HEAD_BY_WEIGHTS_SINCE = "0.12.0"
#: The first release whose V1 engine runs each method (point 12). "mtp" stands for the MTP family;
#: :data:`MTP_SINCE` refines it by the target's model_type.
METHOD_SINCE: dict[str, str] = {"ngram": "0.8.5", "eagle": "0.8.5", "eagle3": "0.8.5", "mtp": "0.9.0",
                                "draft_model": "0.15.0"}
#: The first release whose ``hf_config_override`` builds the MTP drafter of a config's model_type.
MTP_SINCE: dict[str, str] = {"deepseek_v3": "0.9.0", "mimo": "0.9.0", "glm4_moe": "0.10.0",
                             "qwen3_next": "0.10.2", "deepseek_v32": "0.11.0", "qwen3_5": "0.17.0",
                             "qwen3_5_moe": "0.17.0", "nemotron_h": "0.17.0", "glm_moe_dsa": "0.16.0",
                             "mimo_v2_flash": "0.21.0", "deepseek_v4": "0.20.0"}
#: From this release MiMo-V2-Flash's MTP attention is built with the cache config (point 16).
MIMO_MTP_CACHE_CONFIG_SINCE = "0.32.0"


#: The layouts of the profile run's verification pass (point 13): "target-probs" (0.8.5–0.11.x:
#: ``_dummy_sampler_run`` hands the rejection sampler target logits of its own and bonus tokens ready
#: made), "bonus-sampled" (0.12.0–0.13.x: the rejection sampler samples the bonus rows itself and keeps
#: their raw logits), "bonus-sampled-cloned" (from 0.14.0: and clones the target rows before the logits
#: processors). Model Runner V2 runs no verification pass in its profile run (:func:`verification_layout`).
TARGET_PROBS, BONUS_SAMPLED, BONUS_SAMPLED_CLONED = "target-probs", "bonus-sampled", "bonus-sampled-cloned"
VERIFICATION_SINCE: tuple[tuple[str, str], ...] = (("0.8.5", TARGET_PROBS), ("0.12.0", BONUS_SAMPLED),
                                                   ("0.14.0", BONUS_SAMPLED_CLONED))
#: Bytes a logit of a PyTorch sort of fp32 rows holds (``logits.sort`` in ``apply_top_k_top_p``,
#: v1/sample/ops/topk_topp_sampler.py): the sorted values (4) and int64 indices (8), and inside the
#: sort an int64 index row (8) and CUB's alternate keys and values (4 + 8), as the "native" sampler's
#: 38 (engines.vllm.SAMPLER_BYTES_PER_LOGIT) counts them beside its bf16 input and fp32 copy.
SORT_BYTES_PER_LOGIT = 4 + 8 + 8 + 4 + 8
#: The fp32 rows the verification kernels take once top-k / top-p is applied, one each per request:
#: ``target_probs`` (the softmax), ``q`` (exponential noise, ``sample_recovered_tokens``) and ``inv_q``.
RECOVERY_BYTES_PER_LOGIT = 4 + 4 + 4


def verification_layout(version: str, runner: str = "v1") -> str:
    """The verification pass the profile run of ``version`` makes with ``--speculative-config`` on
    (point 13), "" for none: Model Runner V2's ``_dummy_sampler_run`` (vllm/v1/worker/gpu/model_runner.py,
    0.24.0) runs its sampler alone, its drafter's ``propose`` running inside ``_dummy_run``."""
    if runner == "v2":
        return ""
    layout = ""
    for since, name in VERIFICATION_SINCE:
        if parse_version(version) >= parse_version(since):
            layout = name
    return layout


def verification_bytes_per_logit(layout: str, sampler_bytes: float, triton_top_k_top_p: bool,
                                 dtype_bytes: float = 2) -> float:
    """Bytes per logit (requests × vocabulary) the verification pass of the profile run holds at its
    peak, counting what ``_dummy_sampler_run`` still holds; 0 for no pass. Every dummy request drafts
    one token (``draft_token_ids = [[0] for _ in range(num_reqs)]``), whatever num_speculative_tokens,
    so each pass has one target row per request.

    * "target-probs" (gpu_model_runner.py and rejection_sampler.py, 0.8.5, 0.9.0, 0.10.0, 0.11.0):
      the plain pass's logits, still named ``logits`` (d, the model dtype), ``target_logits =
      torch.randn(num_tokens, vocab)`` in that dtype (d) and ``compute_probs``' sort of them in that
      dtype (the sort path: d + 8 + 8 + d + 8): 32 bytes at bf16. Below the "native" sampler's 39,
      above FlashInfer's 10.
    * "bonus-sampled" (0.12.0, 0.13.0): ``logits = torch.randn(num_tokens + num_reqs, vocab)`` (2 d:
      a target row and a bonus row per request). The bonus rows go through the sampler with
      ``max_num_logprobs=-1`` and ``raw_logits``, which first keeps an fp32 copy (v1/sample/sampler.py:
      ``raw_logprobs = logits.to(torch.float32)``, returned in ``logprobs_tensors``): that pass is the
      plain sampler's ``sampler_bytes`` + 2 d + 4. Then, with ``bonus_logits`` (d) and the kept copy (4)
      still held, the target rows are made fp32 (4) and top-k / top-p runs on them
      (``apply_sampling_constraints``: the sort path before 0.17, :data:`SORT_BYTES_PER_LOGIT`; from
      0.17 ``apply_top_k_top_p_triton`` in place from 8 rows: its buffer, a row per SM cached since the
      plain pass, is not counted, under a byte a logit at 256 requests), then
      :data:`RECOVERY_BYTES_PER_LOGIT`.
    * "bonus-sampled-cloned" (0.14.0, 0.15.1, 0.19.1, 0.24.0): the same with ``target_logits =
      target_logits.clone()`` (4 more) kept beside the raw fp32 rows.

    So from 0.14 at bf16: 18 + 32 = 50 on the sort path (the "native" sampler's 39 → 50) and 18 + 12 =
    30 with the Triton kernel (its 13.3 → 30).
    """
    if not layout:
        return 0.0
    d = dtype_bytes
    if layout == TARGET_PROBS:
        return d + d + (d + 8 + 8 + d + 8)
    if layout not in (BONUS_SAMPLED, BONUS_SAMPLED_CLONED):
        raise ValueError(f"unknown verification layout {layout!r}")
    bonus_pass = sampler_bytes + 2 * d + 4
    held = 2 * d + d + 4 + 4 + (4 if layout == BONUS_SAMPLED_CLONED else 0)
    top_k_top_p = 0 if triton_top_k_top_p else SORT_BYTES_PER_LOGIT
    return max(bonus_pass, held + max(top_k_top_p, RECOVERY_BYTES_PER_LOGIT))


def release_problem(method: str, version: str, model_type: str = "") -> str:
    """Why vLLM ``version`` has no V1 drafter for ``method`` (and, for MTP, the target's config
    ``model_type``); "" when it has one (or the method is not one read here)."""
    since = METHOD_SINCE.get(method)
    if since is None:
        return ""
    what = {"mtp": "MTP (deepseek_mtp)", "draft_model": "a draft model"}.get(method, f"method {method!r}")
    if method == "mtp" and model_type in MTP_SINCE:
        since = MTP_SINCE[model_type]
        what = f"MTP for a {model_type} model"
    if parse_version(version) >= parse_version(since):
        return ""
    if method == "draft_model":
        return (f"vLLM {version} has no draft-model drafter in its V1 engine: DraftModelProposer is first in "
                "0.15.0 (0.14.1 raises 'Speculative decoding with draft model is not supported yet')")
    return f"vLLM {version} has no V1 drafter for {what}: it is first in {since}"

#: (file, commit of the stored version read, what it shows, URL).
SOURCES: tuple[tuple[str, str, str, str], ...] = (
    ("vllm/config/speculative.py", "002e77c1f0ef9b19cff8b9e21cfbd6feb3d6b443",
     "methods; num_speculative_tokens; draft_tensor_parallel_size 1 or the target's; deepseek_mtp override",
     "https://github.com/vllm-project/vllm/blob/002e77c1f0ef9b19cff8b9e21cfbd6feb3d6b443/vllm/config/speculative.py"),
    ("vllm/v1/spec_decode/draft_model.py", "01dd981d4c6cb658af3742ea57fe3bfdb03b54b1",
     "get_model under the target's VllmConfig; the drafter's Attention layers are the new ones",
     "https://github.com/vllm-project/vllm/blob/01dd981d4c6cb658af3742ea57fe3bfdb03b54b1/vllm/v1/spec_decode/draft_model.py"),
    ("vllm/v1/spec_decode/eagle.py", "main",
     "load_model: an MTP drafter shares the target's embed_tokens and lm_head; validate_same_kv_cache_group",
     "https://github.com/vllm-project/vllm/blob/main/vllm/v1/spec_decode/eagle.py"),
    ("vllm/model_executor/models/deepseek_mtp.py", "03356f8cb59ba27f3d0ce8866d7516b5e32cff65",
     "enorm, hnorm, eh_proj (nn.Linear 2h→h), SharedHead (norm + ParallelLMHead), mtp_block",
     "https://github.com/vllm-project/vllm/blob/03356f8cb59ba27f3d0ce8866d7516b5e32cff65/"
     "vllm/model_executor/models/deepseek_mtp.py"),
    ("vllm/model_executor/models/llama_eagle3.py", "00bd1493b3e82d6c13c68ee8a0e1c5a96707e190",
     "EAGLE-3: 2h QKV input, hidden_norm, fc 3h→h replicated, draft-vocab ParallelLMHead, d2t int64",
     "https://github.com/vllm-project/vllm/blob/00bd1493b3e82d6c13c68ee8a0e1c5a96707e190/"
     "vllm/model_executor/models/llama_eagle3.py"),
    ("vllm/model_executor/models/llama_eagle.py", "00da92319af4b2ad2cde8525b7b609c779bdc52f",
     "EAGLE: fc nn.Linear(2h, h), first input_layernorm nn.Identity, no lm_head, embed_tokens skipped",
     "https://github.com/vllm-project/vllm/blob/00da92319af4b2ad2cde8525b7b609c779bdc52f/"
     "vllm/model_executor/models/llama_eagle.py"),
    ("vllm/v1/worker/gpu_model_runner.py", "main",
     "load_model: the drafter loads inside the DeviceMemoryProfiler of 'Model loading took'",
     "https://github.com/vllm-project/vllm/blob/main/vllm/v1/worker/gpu_model_runner.py"),
    ("vllm/model_executor/models/qwen3_next_mtp.py", "055e47c28003156421365af985d676fc921cb075",
     "fc ColumnParallelLinear 2h→h, full_attention decoder layer per MTP layer, three norms, own lm_head",
     "https://github.com/vllm-project/vllm/blob/055e47c28003156421365af985d676fc921cb075/"
     "vllm/model_executor/models/qwen3_next_mtp.py"),
    ("vllm/model_executor/models/qwen3_5_mtp.py", "01d99805d1ef3d21d30e21a0ae387643fe0cd45a",
     "as Qwen3-Next's; mtp_num_hidden_layers; fc unquantized under modelopt_fp4; 'all' mode refused",
     "https://github.com/vllm-project/vllm/blob/01d99805d1ef3d21d30e21a0ae387643fe0cd45a/"
     "vllm/model_executor/models/qwen3_5_mtp.py"),
    ("vllm/v1/spec_decode/eagle.py", "008603a39fff2a383a293c62eec0c752c42199f2",
     "load_model: an MTP model (no has_own_embed_tokens / has_own_lm_head) shares both; dummy_run loops k",
     "https://github.com/vllm-project/vllm/blob/008603a39fff2a383a293c62eec0c752c42199f2/vllm/v1/spec_decode/eagle.py"),
    ("vllm/model_executor/models/nemotron_h_mtp.py", "01ca27739feb561c668e843bf55ca96845056e05",
     "one step of mtp_hybrid_override_pattern layers; eh_proj ColumnParallelLinear; has_own_lm_head False",
     "https://github.com/vllm-project/vllm/blob/01ca27739feb561c668e843bf55ca96845056e05/"
     "vllm/model_executor/models/nemotron_h_mtp.py"),
    ("vllm/config/speculative.py (and vllm/config.py up to 0.10.1), PyPI sdists 0.8.5–0.17.0", "releases",
     "SpeculativeMethod, MTP_MODEL_TYPES, hf_config_override and the V1 oracle release by release",
     "https://pypi.org/project/vllm/#history"),
    ("Qwen3.5-9B with and without MTP, vLLM 0.20.0 on an RTX 5090 (search-index id 55002292133)", "",
     "Model loading took 17.66 / 18.12 GiB; 'Add 3 padding layers'; 53,328 / 41,184 tokens",
     "search-index id 55002292133"),
    ("vllm/v1/worker/gpu_model_runner.py, vllm/v1/sample/rejection_sampler.py and sampler.py, "
     "vllm/v1/spec_decode/eagle.py (llm_base_proposer.py in 0.24.0), vllm/v1/worker/gpu/model_runner.py",
     "PyPI sdists 0.8.5, 0.9.0, 0.10.0, 0.10.1.1, 0.10.2, 0.11.0, 0.12.0, 0.13.0, 0.14.0, 0.19.1, 0.24.0; "
     "wheels 0.15.0, 0.15.1",
     "_dummy_sampler_run's verification pass and the rejection sampler's tensors by release; Model Runner V2's "
     "profile run without one; when an EAGLE-3 head's lm_head is the target's",
     "https://pypi.org/project/vllm/#history"),
    ("Llama 3.1 8B with yuhuili/EAGLE3-LLaMA3.1-Instruct-8B, vLLM 0.19.1 on an L4", "6baf256",
     "pool 2.99 GiB: the verification pass's 0.51 GiB; 'Keeping separate lm_head weights' for a 32,000-row head",
     "https://github.com/Aaryaman3/Speculative-Decoding-Eval/blob/6baf256ace321c83556d9d77944f596add8b1eb9/"
     "logs/eagle3.log"),
    ("Qwen3-8B with a speculators EAGLE-3 head, vLLM 0.24.0", "097df086",
     "a 2.82 GiB full-vocabulary head loading as 0.51 GiB: its embedding and LM head are the target's",
     "https://github.com/dcstang/eagle3-spec-dec/blob/097df086ddb44f061d86b48ecbac48ddc9407b54/logs/"
     "run_all_20260701_134859.log"),
    ("vllm/model_executor/models/deepseek_mtp.py, glm4_moe_mtp.py, qwen3_5_mtp.py, nemotron_h_mtp.py, "
     "mimo_v2_mtp.py", "PyPI wheel 0.33.0 (commit 4ba787ec9)",
     "the MTP module built with the quant config under checkpoint prefixes (model.layers.N, mtp.layers.j, "
     "model.mtp.layers.0); eh_proj nn.Linear / ReplicatedLinear unquantized; mtp.fc unquantized under modelopt_fp4",
     "https://pypi.org/project/vllm/0.33.0/"),
    ("vllm/model_executor/models/glm4_moe_mtp.py", "028aedf62adee9d2a1e99d4cda7c1ce1c997c8cc",
     "GLM-4.5's MTP: Glm4MoeDecoderLayer under prefix model.layers.{num_hidden_layers} with the quant config",
     "https://github.com/vllm-project/vllm/blob/028aedf62adee9d2a1e99d4cda7c1ce1c997c8cc/"
     "vllm/model_executor/models/glm4_moe_mtp.py"),
    ("vllm/model_executor/models/deepseek_v2.py and deepseek_mtp.py", "PyPI wheels 0.24.0, 0.28.0, 0.33.0",
     "'MTP/nextn layers (layer_id >= num_hidden_layers) always build a full indexer'; the MTP layer's "
     "topk_indices_buffer and DeepseekV32IndexerCache",
     "https://pypi.org/project/vllm/#history"),
    ("vllm/config/speculative.py and vllm/model_executor/models/mimo_v2_mtp.py",
     "PyPI wheels 0.15.1, 0.16.0, 0.17.0, 0.18.0, 0.20.0, 0.21.0, 0.22.0, 0.23.0, 0.24.0, 0.28.0, 0.30.0, "
     "0.32.0, 0.33.0",
     "glm_moe_dsa in hf_config_override from 0.16.0; MiMoV2FlashForCausalLM → mimo_v2_mtp (one layer) from "
     "0.21.0; MiMoV2MTPLayer: sliding-window attention, dense MLP, cache_config passed from 0.32.0",
     "https://pypi.org/project/vllm/#history"),
    ("vllm/v1/core/kv_cache_utils.py", "bbf906a8",
     "layers grouped by spec; drafters add layers to one attention type ('Add %d padding layers')",
     "https://github.com/vllm-project/vllm/blob/main/vllm/v1/core/kv_cache_utils.py"),
)

#: Leviathan, Kalman and Matias (2023), "Fast Inference from Transformers via Speculative Decoding":
#: expected tokens per target pass (1 − α^(k+1)) / (1 − α), and the walltime improvement
#: (1 − α^(k+1)) / ((1 − α)(k·c + 1)) for a drafter costing c target passes per step.
LEVIATHAN_2023 = "https://arxiv.org/abs/2211.17192"
