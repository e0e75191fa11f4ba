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
   same kv cache group"). physics.cache_layout already counts an MTP layer so (its
   ``draft_attention_layers``, with the Nemotron 3 Super log of engines/hybrid_logs.py).
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
   MTP computes its logits with ``shared_head.head`` (``compute_logits``), not ``lm_head``: that head
   stays its own, and is counted. Startup logs show the sharing (Qwen3.5-9B with MTP: "Model loading
   took 18.12 GiB" against 17.66 GiB without, one layer's worth, not an embedding's).
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
   join the target's KV group as a draft model's do (point 3). physics.eagle_head.
8. **n-gram** (vllm/v1/spec_decode/ngram_proposer.py): ``NgramProposer`` holds no model; its
   ``load_model`` does nothing, and it proposes from the request's token ids on the CPU. Two public
   startup logs (engines/startup_log_table_speculation.py) print "Loading drafter model..." and then
   the plain model's "Model loading took 15.27 GiB" and pool.
9. **"Model loading took"** (vllm/v1/worker/gpu_model_runner.py ``load_model``): the drafter's
   ``load_model`` runs inside the same ``DeviceMemoryProfiler`` whose ``consumed_memory`` is printed,
   so the figure is the target's weights plus the drafter's (Qwen3.5-9B with MTP: 18.12 GiB against
   17.66 GiB without).

Not modelled, and refused with a note: MTP for hybrid (linear-attention or state-space) targets,
whose MTP layer is a full-attention layer unlike the target's last one; an EAGLE head beside a
target with MLA, windowed, per-layer or recurrent caches (its full-attention layer is grouped apart);
a drafter TP other than the target's; a draft model or head whose KV page per layer differs from the
target's (vLLM then pads or groups them apart); and pipeline parallelism (the drafter sits on the last
stage only: ``get_pp_group().is_last_rank``). Not gated by release either: a drafter is computed for
any release the calculator follows (the first release of each method in V1 was not read).
"""

from __future__ import annotations

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
    ("vllm/v1/core/kv_cache_utils.py", "bbf906a8",
     "layers grouped by spec; drafters add layers to one attention type ('Add %d padding layers')",
     "https://github.com/vllm-project/vllm/blob/main/vllm/v1/core/kv_cache_utils.py"),
)

#: Leviathan, Kalman and Matias (2023), "Fast Inference from Transformers via Speculative Decoding":
#: expected tokens per target pass (1 − α^(k+1)) / (1 − α), and the walltime improvement
#: (1 − α^(k+1)) / ((1 − α)(k·c + 1)) for a drafter costing c target passes per step.
LEVIATHAN_2023 = "https://arxiv.org/abs/2211.17192"
