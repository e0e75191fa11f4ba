"""An EAGLE or EAGLE-3 head beside its target, on one GPU: the weights vLLM holds and the KV it caches.

A head is a checkpoint of its own (one Llama decoder layer, as a rule) whose config is published on
Hugging Face (the heads the calculators offer: models/data/eagle_heads.py). vLLM builds it from that
config under the target's parallel config, so it is sharded over the target's TP ranks; each rule
below cites the file it comes from (read in the stored snapshots of vllm-project/vllm, evidence in
engines.vllm_speculation):

* **EAGLE-3** (``Eagle3LlamaForCausalLM``, vllm/model_executor/models/llama_eagle3.py): per layer, a
  ``LlamaDecoderLayer`` whose first ``qkv_proj`` takes ``2·hidden`` inputs (the embedding and the
  target's hidden state, concatenated), ``o_proj``, the gated MLP, and three RMSNorms
  (``input_layernorm``, ``post_attention_layernorm``, ``hidden_norm``); then ``fc``, a
  ``ReplicatedLinear(3·target_hidden → hidden)`` (every rank holds it whole), the final ``norm``, its
  own ``ParallelLMHead(draft_vocab_size, hidden)`` (vocabulary-parallel, padded to 64) and
  ``draft_id_to_target_id``, ``draft_vocab_size`` int64 (replicated). The proposer's ``load_model``
  (vllm/v1/spec_decode/eagle.py; llm_base_proposer.py by 0.24) may then swap that LM head for the
  target's, by release (:func:`shares_target_lm_head`): never up to 0.10; in 0.11 when the two have
  the same shape (a full-vocabulary head); from 0.12 when the checkpoint ships no ``lm_head`` or the
  target's own (``torch.equal``), the case :attr:`Head.lm_head_is_target` marks. Its ``embed_tokens`` is the
  target's when the checkpoint ships none (vllm/v1/spec_decode/eagle.py: "Detected EAGLE model
  without its own embed_tokens ... Sharing target model embedding weights"); a checkpoint that ships
  one keeps it (vocabulary-parallel) unless it equals the target's.
* **EAGLE** (``EagleLlamaForCausalLM``, llama_eagle.py): ``fc``, a plain ``torch.nn.Linear(2·hidden →
  hidden)`` (not parallel: whole on every rank), the decoder layers (the first without
  ``input_layernorm``, which it replaces by ``nn.Identity``), no LM head (eagle.py points
  ``lm_head`` at the target's) and the target's ``embed_tokens`` (``load_weights`` skips the
  checkpoint's under one pipeline stage).

Each head layer is an attention layer that registers in the target's forward context, so it caches
in the same pool and joins the target's KV group ("All eagle layers should belong to the same kv
cache group"); a head whose page per layer differs from the target's is refused (vLLM would group it
apart), as a draft model's is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..engines import vllm_speculation
from ..engines.vllm_releases import parse_version
from ..engines.vllm_weights import padded_vocab
from ..models.layer_specs import FullAttention
from .kv import MODEL_DTYPE_BYTES, layer_bytes_on

#: The two head architectures (``SpeculativeConfig.method`` eagle / eagle3; vLLM picks the class from
#: the head's own config, ``Eagle3LlamaForCausalLM`` or ``EagleLlamaForCausalLM``).
EAGLE1, EAGLE3 = "eagle", "eagle3"
#: ``draft_id_to_target_id`` is ``torch.long``.
INT64_BYTES = 8


@dataclass(frozen=True)
class Head:
    """An EAGLE / EAGLE-3 head as its published config.json gives it (``target``: the catalogue id
    of the model it was trained on; ``own_embeddings``: the checkpoint ships ``embed_tokens``)."""

    id: str
    name: str
    url: str
    kind: str
    target: str
    hidden_size: int
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    intermediate_size: int
    vocab_size: int
    draft_vocab_size: int = 0  # 0: the full vocabulary (llama_eagle3.py defaults it to vocab_size)
    target_hidden_size: int = 0  # 0: the head's hidden size (fc takes 3 × it)
    own_embeddings: bool = False
    #: The checkpoint ships no ``lm_head``, or the target's own (a full-vocabulary head trained with
    #: the verifier's LM head frozen): from vLLM 0.12 the proposer then points it at the target's.
    lm_head_is_target: bool = False

    @property
    def draft_vocab(self) -> int:
        return self.draft_vocab_size or self.vocab_size

    @property
    def attention(self) -> FullAttention:
        return FullAttention(kv_heads=self.kv_heads, head_dim=self.head_dim)


def _rows(total: int, tp: int) -> int:
    return math.ceil(total / tp)


def layer_bytes(head: Head, index: int, tp: int) -> float:
    """One decoder layer of ``head`` on one of ``tp`` ranks: QKV (column-parallel: query heads split,
    KV heads split or one replicated), ``o_proj`` (row-parallel), gate/up and down (split), the norms."""
    h, d = head.hidden_size, head.head_dim
    qkv_in = 2 * h if head.kind == EAGLE3 and index == 0 else h
    q = _rows(head.heads, tp) * d
    kv = 2 * head.attention.heads_per_rank(tp) * d
    mlp = 3 * h * _rows(head.intermediate_size, tp)
    if head.kind == EAGLE3:
        norms = 3 * h  # input_layernorm, post_attention_layernorm, hidden_norm
    else:
        norms = h if index == 0 else 2 * h  # the first layer's input_layernorm is nn.Identity
    return (qkv_in * (q + kv) + q * h + mlp + norms) * MODEL_DTYPE_BYTES


def shares_target_lm_head(head: Head, version: str = "") -> bool:
    """Whether vLLM ``version`` (the newest rule when "") points an EAGLE-3 head's LM head at the
    target's instead of keeping its own (``EagleProposer.load_model``, engines.vllm_speculation point 7):

    * up to 0.10.x never (``if self.vllm_config.speculative_config.method != "eagle3"``: only EAGLE-1
      takes the target's; eagle.py 0.9.0, 0.10.0, 0.10.1.1, 0.10.2);
    * 0.11.x when ``self.model.lm_head.weight.shape == target_language_model.lm_head.weight.shape``
      (eagle.py 0.11.0): the full vocabulary and the target's hidden size, on every TP rank alike;
    * from 0.12.0 when the head has no ``lm_head`` of its own (``has_own_lm_head``, set by
      ``process_eagle_weight`` when the checkpoint names one) or its weights equal the target's
      (``torch.equal``; eagle.py 0.12.0, 0.15.0, 0.15.1, 0.19.1, llm_base_proposer.py 0.24.0
      ``_maybe_share_lm_head``, and Model Runner V2's ``_should_share``, "Share when the draft has no
      own copy, or its copy matches the target", v1/worker/gpu/spec_decode/eagle/utils.py 0.24.0):
      :attr:`Head.lm_head_is_target`.

    EAGLE-1 heads have no LM head of their own (llama_eagle.py)."""
    if head.kind != EAGLE3:
        return True
    v = parse_version(version) if version else None
    if v is not None and v < parse_version(vllm_speculation.EAGLE3_LM_HEAD_BY_SHAPE_SINCE):
        return False
    if v is not None and v < parse_version(vllm_speculation.EAGLE3_LM_HEAD_BY_WEIGHTS_SINCE):
        same_hidden = (head.target_hidden_size or head.hidden_size) == head.hidden_size
        return head.draft_vocab == head.vocab_size and same_hidden
    return head.lm_head_is_target


def weight_bytes(head: Head, tp: int, version: str = "") -> float:
    """The head's bytes on one of ``tp`` ranks under vLLM ``version`` ("" the newest rules): the
    shared embedding, and the LM head where :func:`shares_target_lm_head`, not counted."""
    h = head.hidden_size
    total = sum(layer_bytes(head, i, tp) for i in range(head.layers))
    if head.kind == EAGLE3:
        fc = 3 * (head.target_hidden_size or h) * h
        shared = shares_target_lm_head(head, version)
        lm_head = 0 if shared else math.ceil(padded_vocab(head.draft_vocab) / tp) * h
        total += (fc + h + lm_head) * MODEL_DTYPE_BYTES + head.draft_vocab * INT64_BYTES
    else:
        total += 2 * h * h * MODEL_DTYPE_BYTES
    if head.own_embeddings:
        total += math.ceil(padded_vocab(head.vocab_size) / tp) * h * MODEL_DTYPE_BYTES
    return total


def kv_refusal(head: Head, model, placement, kv_dtype: str) -> str:
    """Why this head cannot join ``model``'s KV group as modelled ("" when it can)."""
    if model.is_mla or model.layer_specs or model.windowed_layers or model.is_hybrid or model.kv_free_layers:
        return ("an EAGLE head beside a target whose layers differ (MLA, windows, per-layer or recurrent "
                "caches) is not modelled: vLLM then groups the head's full-attention layer apart")
    own = head.attention.bytes_per_token(kv_dtype, placement.tensor_parallel)
    if own != layer_bytes_on(model, kv_dtype, placement):
        return ("an EAGLE head whose KV page per layer differs from the target's is not modelled (vLLM then "
                "groups or pads the layers apart)")
    return ""


def token_bytes(head: Head, kv_dtype: str, tp: int) -> float:
    """KV bytes one token adds on one rank, over the head's layers."""
    return head.layers * head.attention.bytes_per_token(kv_dtype, tp)


__all__ = ["EAGLE1", "EAGLE3", "Head", "INT64_BYTES", "kv_refusal", "layer_bytes", "shares_target_lm_head",
           "token_bytes", "weight_bytes"]
