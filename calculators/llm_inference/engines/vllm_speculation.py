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

Not modelled, and refused with a note: EAGLE/EAGLE-3 heads (their checkpoints' shapes are not in the
catalogue), MTP for hybrid (linear-attention or state-space) targets, whose MTP layer is a
full-attention layer unlike the target's last one, a drafter TP other than the target's, a draft
model whose KV page per layer differs from the target's (vLLM then pads or groups them apart), and
pipeline parallelism (the drafter sits on the last stage only: ``get_pp_group().is_last_rank``).
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
    ("vllm/v1/core/kv_cache_utils.py", "bbf906a8",
     "layers grouped by spec; drafters add layers to one attention type ('Add %d padding layers')",
     "https://github.com/vllm-project/vllm/blob/main/vllm/v1/core/kv_cache_utils.py"),
)

#: Leviathan, Kalman and Matias (2023), "Fast Inference from Transformers via Speculative Decoding":
#: expected tokens per target pass (1 − α^(k+1)) / (1 − α), and the walltime improvement
#: (1 − α^(k+1)) / ((1 − α)(k·c + 1)) for a drafter costing c target passes per step.
LEVIATHAN_2023 = "https://arxiv.org/abs/2211.17192"
