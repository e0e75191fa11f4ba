"""DeepSeek-V4's weights: every tensor vLLM loads for text serving, as its checkpoint names them.

Read from vLLM's model files (vllm-project/vllm, commits named per file):
vllm/model_executor/models/deepseek_v4.py (023da1fc), layers/deepseek_v4_attention.py (0a291a2e),
layers/deepseek_compressor.py (0de10a27), layers/fused_moe/router/norm_gate_linear.py (80413b1c).
Per decoder layer (``DeepseekV4DecoderLayer``):

* **Attention** (``DeepseekV4Attention``): low-rank queries, ``wq_a`` (hidden → ``q_lora_rank``)
  fused with ``wkv`` (hidden → one ``head_dim`` latent) into a ReplicatedLinear, ``q_norm`` and
  ``kv_norm``, then ``wq_b`` (rank → heads × head_dim, split by heads). The output is grouped:
  ``wo_a`` maps each of ``o_groups`` groups of heads (heads × head_dim / groups inputs) to
  ``o_lora_rank`` (a ColumnParallelLinear of groups × rank rows), ``wo_b`` the groups' ranks back
  to hidden (RowParallelLinear). One fp32 ``attn_sink`` per head.
* **Compressor** on layers whose ratio is above 1 (``DeepseekCompressor``): ``wkv`` and ``wgate``,
  each hidden → ``coff × head_dim`` (``coff`` 2 for the overlapping ratio-4 windows, else 1), built
  with ``quant_config=None`` (bf16 whatever the checkpoint), an fp32 ``ape`` of ratio ×
  ``coff × head_dim`` and an RMSNorm.
* **Indexer** on ratio-4 layers (``DeepseekV4Indexer``): ``wq_b`` (rank → ``index_n_heads`` ×
  ``index_head_dim``, replicated, quantized like the attention), ``weights_proj`` (hidden → index
  heads, ``quant_config=None``), a LayerNorm ``k_norm`` (weight and bias) and a compressor of its
  own at ``index_head_dim``.
* **Experts** (``DeepseekV4MoE``): the router (``NormGateLinear``'s GateLinear, never quantized) and
  either an fp32 ``e_score_correction_bias`` or, on the first ``num_hash_layers`` layers, the hash
  table ``tid2eid`` (vocabulary × experts per token, int32: those layers route by token id); the
  routed experts (w1, w3, w2) and the shared experts, one MLP ``n_shared_experts`` times as wide.
* **Hyper-connections** (``hc_mult`` residual streams): ``hc_attn_fn`` / ``hc_ffn_fn`` of
  ``(2 + hc) × hc`` rows by ``hc × hidden``, their ``base`` (one per row) and ``scale`` (3), all
  fp32; the model adds ``hc_head_fn`` (hc × hc·hidden), ``hc_head_base`` (hc) and
  ``hc_head_scale`` (1).
* ``attn_norm`` and ``ffn_norm`` (bf16); the untied embedding and LM head.

The MTP layers (``mtp.*``) are skipped on loading (``skip_substrs=["mtp."]``) unless speculative
decoding asks for them: not counted. The formats are the quantization config's
(:mod:`.quantization`, ``deepseek_v4_fp8``): fp8 with 128 × 128 block scales on the Linear layers,
MXFP4 or NVFP4 routed experts.
"""

from __future__ import annotations

from .errors import ConfigError
from .fields import FieldReader
from .params import (COLUMN, NORMS_BIASES, REPLICATED, ROUTER, ROW, SHARED_EXPERTS, LayerPlan, Params, Tensor,
                     gated_mlp, join, linear, norm, routed_expert)
from .params import router as router_matrix

#: Stored dtypes of the tensors vLLM creates in fp32 (``torch.float32``) or int32, whatever the checkpoint's.
FP32, INT32 = "float32", "int32"


def _stored(group: str, module: str, shape: tuple[int, ...], param: str, dtype: str,
            split: str = REPLICATED) -> Params:
    """A tensor vLLM keeps at ``dtype``: never quantized, never in the checkpoint's dtype."""
    return Params([Tensor(group, module, shape, split, param=param, quantizable=False, dtype=dtype)])


def compressor(hidden: int, head_dim: int, ratio: int, prefix: str) -> Params:
    """One ``DeepseekCompressor``: bf16 wkv and wgate (``quant_config=None``, replicated), the fp32
    ``ape`` and the RMSNorm."""
    coff = 2 if ratio == 4 else 1
    return join(linear(hidden, coff * head_dim, module=f"{prefix}.wkv", quantizable=False),
                linear(hidden, coff * head_dim, module=f"{prefix}.wgate", quantizable=False),
                _stored(NORMS_BIASES, f"{prefix}.ape", (ratio, coff * head_dim), "ape", FP32),
                norm(head_dim, f"{prefix}.norm"))


def attention(hidden: int, heads: int, head_dim: int, *, q_lora_rank: int, o_groups: int, o_lora_rank: int,
              ratio: int, index_heads: int, index_head_dim: int) -> Params:
    """One layer's attention with its compressor and indexer, as ``DeepseekV4Attention`` builds it."""
    width = heads * head_dim
    parts = [
        linear(hidden, q_lora_rank, module="attn.wq_a"),  # fused_wqa_wkv: replicated
        linear(hidden, head_dim, module="attn.wkv"),
        norm(q_lora_rank, "attn.q_norm"),
        norm(head_dim, "attn.kv_norm"),
        linear(q_lora_rank, width, module="attn.wq_b", split=COLUMN),
        linear(width // o_groups, o_groups * o_lora_rank, module="attn.wo_a", split=COLUMN),
        linear(o_groups * o_lora_rank, hidden, module="attn.wo_b", split=ROW),
        _stored(NORMS_BIASES, "attn.attn_sink", (heads,), "sink", FP32, split=COLUMN),
    ]
    if ratio > 1:
        parts.append(compressor(hidden, head_dim, ratio, "attn.compressor"))
    if ratio == 4:
        parts += [
            linear(q_lora_rank, index_heads * index_head_dim, module="attn.indexer.wq_b"),
            linear(hidden, index_heads, module="attn.indexer.weights_proj", quantizable=False),
            norm(index_head_dim, "attn.indexer.k_norm", bias=True),
            compressor(hidden, index_head_dim, ratio, "attn.indexer.compressor"),
        ]
    return join(*parts)


def hyper_connections(hidden: int, hc: int) -> Params:
    """One layer's hyper-connection mixers (before the attention and before the experts), fp32."""
    mix = (2 + hc) * hc
    parts = []
    for where in ("attn", "ffn"):
        parts += [_stored(NORMS_BIASES, f"hc_{where}_fn", (mix, hc * hidden), "hc_fn", FP32),
                  _stored(NORMS_BIASES, f"hc_{where}_base", (mix,), "hc_base", FP32),
                  _stored(NORMS_BIASES, f"hc_{where}_scale", (3,), "hc_scale", FP32)]
    return join(*parts)


def hc_head(hidden: int, hc: int) -> Params:
    """The model's last mixer, collapsing the ``hc`` streams before the final norm (fp32)."""
    return join(_stored(NORMS_BIASES, "model.hc_head_fn", (hc, hc * hidden), "hc_fn", FP32),
                _stored(NORMS_BIASES, "model.hc_head_base", (hc,), "hc_base", FP32),
                _stored(NORMS_BIASES, "model.hc_head_scale", (1,), "hc_scale", FP32))


def routing(hidden: int, experts: int, *, hashed: bool, vocab: int, per_token: int) -> Params:
    """The router's matrix (bf16, replicated) and either its fp32 correction bias or, on a hash
    layer, the int32 token → experts table."""
    gate = router_matrix(hidden, experts, module="ffn.gate")
    if hashed:
        return join(gate, _stored(ROUTER, "ffn.gate.tid2eid", (vocab, per_token), "tid2eid", INT32))
    return join(gate, _stored(ROUTER, "ffn.gate.bias", (experts,), "bias", FP32))


def layer_plans(reader: FieldReader, *, hidden: int, heads: int, head_dim: int, vocab: int,
                ratios: tuple[int, ...], experts) -> list[LayerPlan]:
    """Every main layer's tensors (``experts`` is the :class:`.experts.ExpertPlan` read from the
    config: its count, width, experts per token and shared experts' count)."""
    layers = len(ratios)
    q_lora = reader.integer("q_lora_rank")
    o_groups, o_lora = reader.integer("o_groups"), reader.integer("o_lora_rank")
    if heads % o_groups:
        raise ConfigError(f"num_attention_heads {heads} is not a multiple of o_groups {o_groups}: vLLM's grouped "
                          f"output projection splits the heads into equal groups")
    index_heads = reader.integer("index_n_heads")
    index_dim = reader.integer("index_head_dim")
    reader.integer("index_topk")  # how many compressed entries a C4 layer attends to: speed, no tensor
    hc = reader.integer("hc_mult")
    # the Sinkhorn normalisation of the hyper-connection mixers: iterations and epsilon, no tensor
    reader.seen("hc_sinkhorn_iters", "hc_eps")
    hashed = reader.integer("num_hash_layers", default=0)
    if hashed > layers:
        raise ConfigError(f"num_hash_layers {hashed} exceeds num_hidden_layers {layers}")
    width = reader.integer("moe_intermediate_size")
    expert = routed_expert(hidden, width, prefix="ffn.experts")
    shared = (gated_mlp(hidden, experts.shared_count * width, prefix="ffn.shared_experts",
                        group=SHARED_EXPERTS) if experts.shared_count else Params())
    norms = join(norm(hidden, "attn_norm"), norm(hidden, "ffn_norm"), hyper_connections(hidden, hc))
    moe = set(experts.layers)
    plans = []
    for i, ratio in enumerate(ratios):
        attn = attention(hidden, heads, head_dim, q_lora_rank=q_lora, o_groups=o_groups, o_lora_rank=o_lora,
                         ratio=ratio, index_heads=index_heads, index_head_dim=index_dim)
        if i not in moe:
            raise ConfigError(f"layer {i} has no experts: every DeepSeek-V4 layer is an MoE layer in vLLM")
        plans.append(LayerPlan(attn, norms, router=routing(hidden, experts.experts, hashed=i < hashed, vocab=vocab,
                                                           per_token=experts.per_token),
                               shared=shared, expert=expert, experts=experts.experts))
    reader.traps.append(
        f"DeepSeek-V4's layers as vLLM loads them: low-rank queries (q_lora_rank {q_lora}), a grouped output "
        f"projection ({o_groups} groups of o_lora_rank {o_lora}), a compressor on each compressed layer and an "
        f"indexer ({index_heads} heads of {index_dim}) on each ratio-4 layer, fp32 hyper-connection mixers for "
        f"{hc} residual streams, and the first {hashed} layers routed by a token → experts table (num_hash_layers).")
    return plans


__all__ = ["attention", "compressor", "hc_head", "hyper_connections", "layer_plans", "routing"]
