"""The speculative drafter's memory on one GPU: its weights, and the KV cache its layers add per token.

vLLM's ``--speculative-config`` loads a drafter beside the target (the evidence, file by file, is
engines.vllm_speculation). These kinds are modelled:

* **a draft model** (``method: draft_model``, e.g. Llama 3.1 8B drafting for 70B): a whole catalogue
  model, loaded under the target's parallel config, so sharded over the same TP ranks (vLLM refuses
  another draft TP for it). Each GPU holds 1/TP of all its weights, embeddings and LM head included,
  and its KV layers cache in the same pool as the target's, with its own KV heads per GPU;
* **the model's own MTP layers** (``method: mtp``, DeepSeek-V3's ``num_nextn_predict_layers: 1``):
  per predictor layer, one decoder layer of the target's shape (its last layer: MLA and the MoE),
  ``eh_proj`` (2·hidden → hidden, a plain linear replicated on every rank in bf16), two RMSNorms and
  the shared head's RMSNorm, and up to 0.15 its own vocabulary-parallel LM head (from 0.16.0 the
  proposer points it at the target's, engines.vllm_speculation point 5); the input embedding is the
  target's (vLLM deletes the drafter's and points at the target's). Each predictor layer caches like
  one target layer. GLM-4.5 and GLM-5 build the same layer. GLM-5's and DeepSeek-V3.2's MTP layer caches a
  latent and an indexer key, and so does GLM-5.2's although 57 of its 78 layers have no indexer: vLLM
  always builds the MTP layer's (point 15), and the GLM-5.2 pool's block gains both pages;
* **MiMo-V2-Flash's MTP layer** (``MiMoV2MTP``): one sliding-window attention layer of its windowed
  geometry with a dense MLP, ``eh_proj`` in bf16 and five norms; it joins the sliding-window type
  (point 16);
* **the MTP layer of a Gated DeltaNet hybrid** (Qwen3-Next, Qwen3.5, Qwen3.6: ``Qwen3NextMTP``,
  ``Qwen3_5MTP``, ``Qwen3_5MoeMTP``): per predictor layer (``mtp_num_hidden_layers``; Qwen3-Next's
  config names none and vLLM takes 1) one decoder layer built with ``layer_type="full_attention"``,
  i.e. one of the target's full-attention layers (gated attention and its MLP or MoE), whatever the
  target's last layer is; ``fc`` (a ``ColumnParallelLinear`` 2·hidden → hidden, split over the TP
  ranks) and three RMSNorms (``pre_fc_norm_hidden``, ``pre_fc_norm_embedding``, ``norm``). Its
  ``embed_tokens`` and ``lm_head`` are loaded, then deleted and pointed at the target's by the
  proposer (both are shared for an MTP drafter), so none is counted. Its full-attention layer caches
  like one of the target's full-attention layers and joins their KV group: with one more layer in
  that group the hybrid's group size (the layers a block spans) grows, the state layers are padded
  to it, and the blocks fall (physics.cache_layout, engines.vllm_speculation point 10);
* **the MTP module of a Mamba-2 hybrid** (Nemotron-H, Nemotron 3: ``NemotronHMTP``): one step of
  ``mtp_hybrid_override_pattern`` layers ("*E": an attention layer, then a MoE layer), each of the
  target's shape; the first carries ``enorm``, ``hnorm`` and ``eh_proj`` (a ``ColumnParallelLinear``
  2·hidden → hidden), the last ``final_layernorm``; embedding and LM head shared
  (``has_own_lm_head = False``). Its "*" layers cache like the target's attention layers and join
  their group, as the Nemotron 3 Super log of engines/hybrid_logs.py shows;
* **DeepSeek-V4's MTP layer** (``DeepSeekV4MultiTokenPredictorLayer``, 0.20.0 to 0.27.0): a
  ``DeepseekV4DecoderLayer`` past the backbone, whose attention takes compress ratio 1 (no compressor,
  no indexer: one more 128-token window cache in the pool, physics.multi_page_pool.v4_mtp_layer), with its
  MoE; ``e_proj`` and ``h_proj`` (``ReplicatedLinear(h, h)`` in fp8), three RMSNorms and the fp32
  ``hc_head`` mixer; embedding and LM head shared (engines.vllm_speculation point 17);
* every MTP layer is in the checkpoint's format, tensor by tensor: vLLM builds it with the quant
  config under its checkpoint name, which the config's ignore list is matched against
  (:func:`module_bytes`, engines.vllm_speculation point 14): fp8 in DeepSeek-V3's and GLM-5-FP8's
  releases, bf16 where NVIDIA's NVFP4 releases exclude it;
* **an EAGLE / EAGLE-3 head** (``method: eagle`` or ``eagle3``): a published head's decoder layer(s),
  its ``fc`` and, for EAGLE-3, its own small-vocabulary LM head (physics.eagle_head);
* **n-gram prompt lookup** (``method: ngram``): no model at all. vLLM's ``NgramProposer``
  (vllm/v1/spec_decode/ngram_proposer.py) matches the request's own tokens on the CPU; the model
  runner loads no drafter ("Loading drafter model..." is printed, then nothing is loaded), so it takes
  no weights and no KV: the pool is the plain one.

The drafter's layers join the target's cache groups (physics.cache_layout's ``draft_attention_layers``):
a block then spans them too, so the pool's blocks, and the concurrency, drop by the layers added as
well as by the weights taken off the budget. A method is refused on a release whose V1 engine has
no drafter for it (engines.vllm_speculation.release_problem: MTP from 0.9.0, Qwen3-Next's from
0.10.2, GLM-5's from 0.16.0, Qwen3.5's from 0.17.0, MiMo-V2-Flash's from 0.21.0, DeepSeek-V4's from 0.20.0,
a draft model from 0.15.0). With any method on, vLLM's profile run also verifies a dummy batch with its rejection
sampler, which physics.budget counts in the activation peak (engines.vllm_speculation point 13); the
drafter's own dummy forward passes there are not modelled. Whatever is not modelled refuses the run with a note (:attr:`Drafter.refusal`) rather than
give a figure vLLM would not.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from ..engines import vllm_speculation
from ..engines import vllm_hybrid, vllm_releases
from ..engines.vllm_hybrid import GATED_DELTANET, MAMBA2
from ..engines.vllm_kv_dtypes import stored_kv_dtype
from ..engines.vllm_releases import parse_version
from ..engines.vllm_weights import padded_vocab
from ..models.params import ATTENTION, COLUMN, DENSE_MLP, NORMS_BIASES, REPLICATED, ROUTED_EXPERTS, Tensor
from . import eagle_head
from .cache_layout import indexer_layer
from .eagle_head import Head
from .kv import MODEL_DTYPE_BYTES, layer_bytes_on, layer_specs
from .model import Model
from .placement import Layout, Placement, place
from .weights import WeightPlan, Weights, as_plan

#: ``SpeculativeConfig.method`` values modelled ("off": no ``--speculative-config``); EAGLE stands for
#: both eagle and eagle3, which the head's own config tells apart (physics.eagle_head).
OFF, DRAFT_MODEL, MTP, EAGLE, NGRAM = "off", "draft_model", "mtp", "eagle", "ngram"
EAGLE_METHODS = (EAGLE, "eagle3")
MODELLED = (DRAFT_MODEL, MTP, NGRAM, *EAGLE_METHODS)


@dataclass(frozen=True)
class Speculation:
    """The reader's ``--speculative-config``: ``method``, ``k`` (``num_speculative_tokens``), the
    target's ``mtp_layers`` (``num_nextn_predict_layers``: what MTP loads), and for a draft model the
    model, its weights (a WeightPlan or a dtype name) and its name. ``draft_tp`` 0: the target's."""

    method: str = OFF
    k: int = 0
    mtp_layers: int = 0
    draft: Model | None = None
    draft_weights: object = None
    draft_name: str = ""
    draft_tp: int = 0
    #: EAGLE: the head (physics.eagle_head.Head).
    head: Head | None = None
    #: The target config's top-level ``model_type`` (the one ``hf_config_override`` reads): which MTP
    #: drafter vLLM builds, and from which release (engines.vllm_speculation.release_problem).
    model_type: str = ""
    #: Nemotron-H's MTP step, one character a layer (its config's ``mtp_hybrid_override_pattern``:
    #: "*" attention, "E" MoE, "M" Mamba); "" for other models.
    mtp_pattern: str = ""

    @property
    def on(self) -> bool:
        return self.method != OFF and self.k > 0


@dataclass(frozen=True)
class Drafter:
    """The drafter on the most loaded GPU: ``weight_bytes`` held, ``kv_layers`` it adds to the
    target's KV groups (each with the target's page), ``token_bytes`` its KV bytes per token, and
    ``refusal``: why it is not computed (vLLM refuses it, or it is not modelled); "" when it is."""

    weight_bytes: float = 0.0
    kv_layers: int = 0
    #: Of ``kv_layers``, the sliding-window ones (MiMo-V2-Flash's MTP layer): they join the target's
    #: sliding-window type, the others its full-attention type.
    window_layers: int = 0
    token_bytes: float = 0.0
    refusal: str = ""
    label: str = ""
    #: A draft model as placed on the target's GPUs (its Model, Placement and Weights), for the speed of
    #: its step (physics.speculative_speed); None for MTP, whose step is one of the target's layers.
    model: Model | None = field(default=None, compare=False)
    placement: Placement | None = field(default=None, compare=False)
    weights: object = field(default=None, compare=False)
    #: MTP: the LM head's bytes on this GPU (DeepSeek's own up to vLLM 0.15, else the target's, shared),
    #: streamed by every draft step.
    head_bytes: float = 0.0
    #: The method computed (one of MODELLED); "" for no drafter or a refused one.
    method: str = ""


NONE = Drafter()
#: n-gram prompt lookup: a drafter with no weights and no KV (computed, not refused).
NGRAM_DRAFTER = Drafter(label="n-gram prompt lookup (no drafter model)", method=NGRAM)


def _refuse(why: str) -> Drafter:
    return Drafter(refusal=why)


def lm_head_bytes(vocab: int, hidden: int, tp: int, dtype_bytes: int = MODEL_DTYPE_BYTES) -> float:
    """One rank's rows of a vocabulary-parallel head: the vocabulary padded to 64, split over ``tp``."""
    return math.ceil(padded_vocab(vocab) / tp) * hidden * dtype_bytes


def mtp_extra_bytes(model: Model, tp: int, own_head: bool = True) -> float:
    """One MTP layer's bytes beside its decoder layer, on one rank: ``eh_proj`` (2h × h, replicated),
    enorm, hnorm and the shared head's norm (h each, replicated) and, with ``own_head`` (releases
    before :data:`~..engines.vllm_speculation.SHARED_MTP_HEAD_SINCE`), the shared head's own LM head."""
    h = model.hidden_size
    head = lm_head_bytes(model.vocab_size, h, tp) if own_head else 0
    return (2 * h * h + 3 * h) * MODEL_DTYPE_BYTES + head


def qwen_mtp_extra_bytes(model: Model, tp: int) -> float:
    """One Qwen3-Next / Qwen3.5 MTP layer's bytes beside its decoder layer, on one rank, in bf16:
    ``fc`` (``ColumnParallelLinear(2h, h)``: h / TP output rows of 2h each) and ``pre_fc_norm_hidden``,
    ``pre_fc_norm_embedding`` and ``norm`` (h each, replicated). No embedding and no LM head: the
    proposer shares the target's. Nemotron-H's MTP step has the same beside its layers: ``eh_proj``
    (the same ``ColumnParallelLinear``), ``enorm``, ``hnorm`` and ``final_layernorm``."""
    h = model.hidden_size
    return (h // tp * 2 * h + 3 * h) * MODEL_DTYPE_BYTES


#: The module path of DeepSeek sparse attention's indexer inside a decoder layer.
_INDEXER = "self_attn.indexer."


def _layer_tensors(plan: WeightPlan, index: int) -> tuple[Tensor, ...]:
    """The tensors of the target's decoder layer ``index`` (one template of the plan)."""
    return tuple(t for t, _ in plan.templates[plan.layer_keys[index]])


def module_bytes(weights: Weights, tensors, tp: int, ep: int = 1) -> float:
    """One GPU's bytes of an MTP module's ``tensors``, named as vLLM names them, in the checkpoint's format.

    vLLM builds the MTP module under the target's ``VllmConfig``, so with its ``quant_config``
    (deepseek_mtp.py ``DeepseekV2DecoderLayer(vllm_config, prefix)``, glm4_moe_mtp.py, qwen3_5_mtp.py,
    nemotron_h_mtp.py: every linear layer is built with it), and each layer's prefix is its checkpoint
    name (``model.layers.61`` for DeepSeek-V3's, ``model.layers.78`` for GLM-5's, ``mtp.layers.0`` for
    Qwen3.5's), which the quantization config's ignore list (``ignore``, ``modules_to_not_convert``,
    ``exclude_modules``) is matched against. So the checkpoint's own scheme, asked for each tensor by
    that name, gives its format: fp8 blocks for DeepSeek-V3's and GLM-5-FP8's MTP layer, bf16 for
    NVIDIA's NVFP4 releases whose ignore list names it (``model.layers.78*``, ``mtp*``)."""
    plan = WeightPlan(tuple(tensors), weights.plan.scheme)
    plan.mla_copies = weights.plan.mla_copies
    return Weights(plan, weights.arch, weights.gpu_name, weights.version).rank_bytes(
        tp=tp, ep=ep, layers=None, first=False, last=True)


def _common_refusal(spec: Speculation, model: Model, placement: Placement, version: str = "") -> str:
    if spec.method not in MODELLED:
        return f"speculative method {spec.method!r} is not modelled"
    if version:
        why = vllm_speculation.release_problem(spec.method, version, spec.model_type)
        if why:
            return why
    if placement.pipeline_stages > 1:
        return ("speculative decoding with pipeline parallelism is not modelled (vLLM puts the drafter on "
                "the last stage only)")
    if spec.method != DRAFT_MODEL and spec.draft_tp and spec.draft_tp != placement.tensor_parallel:
        return "a drafter tensor-parallel size other than the target's is not modelled"
    return ""


def _has_target_weights(model: Model, weights) -> bool:
    """Whether MTP can size its decoder layer: it copies one of the target's, named tensor by tensor."""
    return weights is not None and hasattr(weights, "rank_bytes") and bool(model.hidden_size and model.vocab_size)


def drafter(spec: Speculation, model: Model, gpu, placement: Placement, kv_dtype: str, weights=None,
            version: str = "") -> Drafter:
    """The drafter of ``spec`` beside ``model`` placed as ``placement`` (``weights``: the target's
    Weights, which MTP needs for its decoder layer); :data:`NONE` when speculation is off."""
    if not spec.on:
        return NONE
    why = _common_refusal(spec, model, placement, version)
    if why:
        return _refuse(why)
    if spec.method == NGRAM:
        return NGRAM_DRAFTER
    if spec.method == MTP:
        if any(getattr(s, "kind", "") == "compressed" for s in model.layer_specs):
            return _v4_mtp(spec, model, placement, weights, version)
        if spec.model_type == MIMO_V2_FLASH:
            return _mimo_mtp(model, gpu, placement, kv_dtype, weights, version)
        if model.is_hybrid or model.kv_free_layers:
            return _hybrid_mtp(spec, model, gpu, placement, kv_dtype, weights, version)
        return _mtp(spec, model, gpu, placement, kv_dtype, weights, version)
    if spec.method in EAGLE_METHODS:
        return _eagle(spec, model, placement, kv_dtype, version)
    return _draft_model(spec, model, gpu, placement, kv_dtype, version)


def _mtp(spec: Speculation, model: Model, gpu, placement: Placement, kv_dtype: str, weights,
         version: str = "") -> Drafter:
    n = spec.mtp_layers
    if n <= 0:
        return _refuse("this model has no multi-token-prediction layers (num_nextn_predict_layers 0): "
                       "vLLM's MTP method needs them")
    indexed = indexer_layer(model)  # GLM-5.2: the MTP layer keeps an indexer whatever the pattern
    if model.windowed_layers or (model.layer_specs and indexed is None):
        return _refuse("MTP for a model whose layers differ (windows or per-layer caches) is not modelled: which "
                       "cache the MTP layer keeps and which group it joins were not read for them")
    if not _has_target_weights(model, weights):
        return _refuse("MTP needs the target's weights and its hidden size and vocabulary")
    # DP attention: attention whole on every GPU, experts split by count
    tp, ep = (1, placement.data_parallel) if placement.data_parallel > 1 else (placement.tensor_parallel, 1)
    plan = weights.plan
    if plan.uniform_bytes is not None:  # no tensors to name: the last layer's bytes
        last = range(model.layers - 1, model.layers)
        layers = n * weights.rank_bytes(tp=tp, ep=ep, layers=last, first=False, last=False)
    else:  # predictor layer i is model.layers.{num_hidden_layers + i}, of the last layer's shape
        template = _layer_tensors(plan, model.layers - 1)
        if indexed is not None and not any(_INDEXER in t.module for t in template):
            # GLM-5.2's last layer shares an earlier selection; the MTP layer builds its own indexer
            owner = max(i for i in range(model.layers) if any(_INDEXER in t.module for t in _layer_tensors(plan, i)))
            template += tuple(t for t in _layer_tensors(plan, owner) if _INDEXER in t.module)
        layers = sum(module_bytes(weights, [replace(t, layer=model.layers + i) for t in template], tp, ep)
                     for i in range(n))
    own_head = bool(version) and parse_version(version) < parse_version(vllm_speculation.SHARED_MTP_HEAD_SINCE)
    held = layers + n * mtp_extra_bytes(model, tp, own_head)
    if indexed is not None:  # a latent and an indexer key, stored as the pool stores them
        stored = stored_kv_dtype(kv_dtype, sparse_mla=True, version=version or vllm_releases.NEWEST,
                                 cc=vllm_hybrid.compute_capability(getattr(gpu, "name", "")),
                                 heads_per_gpu=model.heads // max(1, placement.tensor_parallel))
        per_layer = indexed.bytes_per_token(stored)
    else:
        per_layer = layer_bytes_on(model, kv_dtype, placement)
    return Drafter(weight_bytes=held, kv_layers=n, token_bytes=n * per_layer,
                   label=f"MTP ({n} layer{'s' if n > 1 else ''})", method=MTP,
                   head_bytes=lm_head_bytes(model.vocab_size, model.hidden_size, tp))


#: DeepSeek-V4's compressed-attention modules, which its MTP layer (compress ratio 1) does not build.
_V4_COMPRESSED_ONLY = ("compressor.", "indexer.")


def _v4_mtp(spec: Speculation, model: Model, placement: Placement, weights, version: str) -> Drafter:
    """DeepSeek-V4's MTP layer(s) (``DeepSeekV4MultiTokenPredictorLayer``: vllm/model_executor/models/
    deepseek_v4_mtp.py in 0.20.0–0.22, vllm/models/deepseek_v4/nvidia/mtp.py from 0.23.0; read in the 0.20.0,
    0.21.0, 0.23.0 and 0.27.0 wheels), one per ``num_nextn_predict_layers``, each at ``model.layers.{43 + i}``:

    * ``mtp_block``, a ``DeepseekV4DecoderLayer`` (l.115 in 0.21.0) of the target's last layer's shape but
      with ``compress_ratio = 1`` (physics.multi_page_pool.v4_mtp_layer): its attention without the
      compressor and the indexer, its MoE (not a hash layer: ``extract_layer_index(prefix) <
      num_hash_layers`` is false past the backbone), its norms and hyper-connection mixers, all with the
      quant config as the target's;
    * ``e_proj`` and ``h_proj``: two ``ReplicatedLinear(h, h)`` built with the quant config (l.81-93 in
      0.21.0: "V4 keeps e_ and h_proj separate (with fp8 linear quant)"), whole on every rank;
    * ``enorm``, ``hnorm`` and ``shared_head.norm`` (h each) and the fp32 ``hc_head_fn`` (hc_mult ×
      hc_mult·h), ``hc_head_base`` (hc_mult) and ``hc_head_scale`` (1) (l.99-111);
    * ``shared_head.head`` and ``embed_tokens``: the target's (the proposer shares both: "Detected MTP model.
      Sharing target model embedding weights", "Shared target model lm_head with MTP shared_head.head").

    Its cache is one window more in the pool (``window_layers``); it keeps 128 tokens whatever the
    context, so it adds no bytes per token of context."""
    n = spec.mtp_layers
    if n <= 0:
        return _refuse("this model has no multi-token-prediction layers (num_nextn_predict_layers 0): "
                       "vLLM's MTP method needs them")
    if placement.data_parallel > 1:
        return _refuse("DeepSeek-V4's MTP layer under data-parallel attention is not modelled")
    if not _has_target_weights(model, weights) or weights.plan.uniform_bytes is not None:
        return _refuse("MTP needs the target's weights, tensor by tensor")
    plan = weights.plan
    experts = getattr(plan.scheme, "experts", None)
    if experts is not None and experts.kind == "nvfp4":
        return _refuse("DeepSeek-V4's MTP layer beside NVIDIA's NVFP4 experts is not modelled: the checkpoint's "
                       "ignore list names mtp.* and its quantized_layers the backbone's experts only, and which "
                       "format vLLM gives the MTP layer (model.layers.43) was not read")
    template = _layer_tensors(plan, model.layers - 1)
    block = [t for t in template if not any(k in t.module for k in _V4_COMPRESSED_ONLY)]
    fn = next((t for t in template if t.module == "hc_attn_fn"), None)
    base = next((t for t in template if t.module == "hc_attn_base"), None)
    scale = next((t for t in template if t.module == "hc_attn_scale"), None)
    proj = next((t for t in template if t.module == "attn.wo_b"), None)
    if None in (fn, base, scale, proj) or any(t.module.endswith("tid2eid") for t in block):
        return _refuse("the target's last layer is not the DeepSeek-V4 layer the MTP layer is sized by")
    h = model.hidden_size
    hc = fn.shape[1] // h  # hc_mult: the mixers' input is hc_mult × hidden
    tp = placement.tensor_parallel
    layers = 0.0
    for i in range(n):
        at = model.layers + i
        tensors = [replace(t, layer=at) for t in block]
        tensors += [replace(proj, module=name, shape=(h, h), split=REPLICATED, layer=at)
                    for name in ("e_proj", "h_proj")]
        tensors += [Tensor(NORMS_BIASES, name, (h,), param="norm", layer=at)
                    for name in ("enorm", "hnorm", "shared_head.norm")]
        tensors += [replace(fn, module="hc_head_fn", shape=(hc, hc * h), layer=at),
                    replace(base, module="hc_head_base", shape=(hc,), layer=at),
                    replace(scale, module="hc_head_scale", shape=(1,), layer=at)]
        layers += module_bytes(weights, tensors, tp)
    return Drafter(weight_bytes=layers, kv_layers=n, window_layers=n, token_bytes=0.0,
                   label=f"MTP ({n} window-only layer{'s' if n > 1 else ''})", method=MTP,
                   head_bytes=lm_head_bytes(model.vocab_size, h, tp))


def _layer_with(weights, layers: int, group: str) -> int | None:
    """The index of the target's last layer holding tensors of ``group`` (the attention's, or the routed
    experts'), None when no layer does."""
    found = {t.layer for t in getattr(weights.plan, "tensors", ())
             if t.layer is not None and t.group == group and t.layer < layers}
    return max(found) if found else None


def _hybrid_mtp(spec: Speculation, model: Model, gpu, placement: Placement, kv_dtype: str, weights,
                version: str) -> Drafter:
    """The MTP layer(s) of a Gated DeltaNet or Nemotron-H hybrid (see the module docstring)."""
    n = spec.mtp_layers
    if n <= 0:
        return _refuse("this model has no multi-token-prediction layers (mtp_num_hidden_layers 0): "
                       "vLLM's MTP method needs them")
    state = model.state.kind if model.state is not None else ""
    if state not in (GATED_DELTANET, MAMBA2) or model.windowed_layers or model.layer_specs:
        return _refuse("MTP for a hybrid model other than Qwen3-Next / Qwen3.5's Gated DeltaNet or Nemotron-H's "
                       "Mamba-2 layers beside full attention (KDA, lightning attention, windowed or per-layer "
                       "caches) is not modelled: its MTP module was not read")
    if not _has_target_weights(model, weights):
        return _refuse("MTP needs the target's weights and its hidden size and vocabulary")
    if state == MAMBA2:
        if not spec.mtp_pattern:
            return _refuse("this Mamba-2 hybrid's config names no MTP layers (mtp_hybrid_override_pattern)")
        if n != 1:
            return _refuse("vLLM's NemotronHMTP builds one MTP step only ('Only one MTP layer is supported')")
        if set(spec.mtp_pattern) - {"*", "E"}:
            return _refuse(f"vLLM's NemotronHMTP builds '*' and 'E' layers only; {spec.mtp_pattern!r} raises "
                           "NotImplementedError")
        kinds = tuple(ATTENTION if c == "*" else ROUTED_EXPERTS for c in spec.mtp_pattern)
    else:
        kinds = (ATTENTION,) * n  # a full-attention layer with its MLP or MoE, per MTP layer
    indices = tuple(_layer_with(weights, model.layers, kind) for kind in kinds)
    if None in indices:
        return _refuse("the target's weights have no layer of the MTP layer's kind to size it by")
    plan = weights.plan
    # DP attention: attention whole on every GPU, experts split by count
    tp, ep = (1, placement.data_parallel) if placement.data_parallel > 1 else (placement.tensor_parallel, 1)
    h = model.hidden_size
    # the module as vLLM names it (prefix "mtp"): each layer mtp.layers.{j}, of the target's layer i's
    # shape; fc (Qwen) or the first layer's eh_proj (Nemotron-H), a ColumnParallelLinear(2h, h) built with
    # the quant config, but for Qwen under ModelOpt NVFP4 ("mtp.fc is stored as BF16 in NVFP4
    # checkpoints": built with quant_config=None); three RMSNorms in the model dtype
    tensors = [replace(t, module=f"mtp.layers.{j}.{t.module}", layer=None)
               for j, i in enumerate(indices) for t in _layer_tensors(plan, i)]
    steps = 1 if state == MAMBA2 else n
    nvfp4 = plan.scheme.method == "modelopt" and plan.scheme.linear is not None and plan.scheme.linear.kind == "nvfp4"
    for step in range(steps):
        fc = "mtp.layers.0.eh_proj" if state == MAMBA2 else "mtp.fc"
        tensors += [Tensor(ATTENTION, fc, (h, 2 * h), COLUMN, quantizable=state == MAMBA2 or not nvfp4),
                    *(Tensor(NORMS_BIASES, f"mtp.norm{step}.{k}", (h,), param="norm") for k in range(3))]
    held = module_bytes(weights, tensors, tp, ep)
    attention = kinds.count(ATTENTION)
    per_layer = layer_bytes_on(model, kv_dtype, placement)
    what = (f"MTP ({spec.mtp_pattern}: {attention} attention layer{'s' if attention > 1 else ''})"
            if state == MAMBA2 else f"MTP ({n} full-attention layer{'s' if n > 1 else ''})")
    return Drafter(weight_bytes=held, kv_layers=attention, token_bytes=attention * per_layer, label=what,
                   method=MTP, head_bytes=lm_head_bytes(model.vocab_size, model.hidden_size, tp))


#: MiMo-V2-Flash's config model_type: vLLM builds its MTP drafter from the architecture
#: ``MiMoV2FlashForCausalLM`` (``MiMoV2MTPModel``, vllm/model_executor/models/mimo_v2_mtp.py).
MIMO_V2_FLASH = "mimo_v2_flash"


def _mimo_mtp(model: Model, gpu, placement: Placement, kv_dtype: str, weights, version: str) -> Drafter:
    """MiMo-V2-Flash's MTP layer (``MiMoV2MTPLayer``, mimo_v2_mtp.py, 0.21.0 to 0.33.0): vLLM builds one
    (``_MIMO_V2_FLASH_NUM_MTP_LAYERS = 1``, "vLLM currently supports only the first MiMo-V2 MTP layer"),
    whatever the checkpoint ships. Its ``self_attn`` is a ``MiMoV2Attention`` of the sliding-window
    geometry (``swa_num_attention_heads``, ``swa_num_key_value_heads``, ``swa_head_dim``,
    ``swa_v_head_dim``, ``sliding_window_size``, the sink bias of ``add_swa_attention_sink_bias``), its
    ``mlp`` a dense ``MiMoV2MLP`` of ``intermediate_size`` (the target's first, dense layer's), both built
    with the quant config; ``eh_proj`` a ``ReplicatedLinear(2h, h)`` built without one (bf16, whole on
    every rank); five RMSNorms (enorm, hnorm, input_layernorm, pre_mlp_layernorm, final_layernorm).
    ``MiMoV2MTP`` has no ``has_own_lm_head``: the proposer shares the target's LM head and embedding.
    Its attention caches like one of the target's sliding-window layers and joins their type. Up to
    0.30 the layer's attention is built without the cache config (``cache_config=`` is first passed in
    0.32.0; 0.31 not read), so it caches in the model dtype whatever ``--kv-cache-dtype``: only a bf16
    cache is modelled there."""
    specs = layer_specs(model)
    windows = [s for s in specs if s.caches_kv and getattr(s, "window", 0)]
    if not windows or not model.hidden_size:
        return _refuse("MiMo-V2-Flash's MTP layer needs its sliding-window layers and hidden size")
    release = version or vllm_releases.NEWEST
    if kv_dtype not in ("bf16", "auto") and parse_version(release) < parse_version(
            vllm_speculation.MIMO_MTP_CACHE_CONFIG_SINCE):
        return _refuse("MiMo-V2-Flash's MTP attention caches in the model dtype up to vLLM 0.30 (built without the "
                       "cache config) beside a quantized KV cache: pages of two dtypes, not modelled")
    if weights is None or not hasattr(weights, "rank_bytes") or weights.plan.uniform_bytes is not None:
        return _refuse("MTP needs the target's weights, tensor by tensor")
    plan = weights.plan
    window_layer = next((i for i, s in enumerate(specs[:model.layers]) if getattr(s, "window", 0)), None)
    dense_layer = next((i for i in range(model.layers)
                        if any(t.group == DENSE_MLP for t in _layer_tensors(plan, i))), None)
    if window_layer is None or dense_layer is None:
        return _refuse("the target's weights have no sliding-window layer or dense MLP to size the MTP layer by")
    tp, ep = placement.tensor_parallel, 1
    if placement.data_parallel > 1:
        return _refuse("MiMo-V2-Flash's MTP layer under data-parallel attention is not modelled")
    h = model.hidden_size
    prefix = "model.mtp.layers.0."
    tensors = [replace(t, module=prefix + t.module, layer=None) for t in _layer_tensors(plan, window_layer)
               if t.module.startswith("self_attn.") or t.module == "input_layernorm"]
    tensors += [replace(t, module=prefix + t.module, layer=None) for t in _layer_tensors(plan, dense_layer)
                if t.group == DENSE_MLP]
    tensors += [Tensor(ATTENTION, prefix + "eh_proj", (h, 2 * h), quantizable=False),
                *(Tensor(NORMS_BIASES, prefix + name, (h,), param="norm")
                  for name in ("enorm", "hnorm", "pre_mlp_layernorm", "final_layernorm"))]
    held = module_bytes(weights, tensors, tp, ep)
    per_token = windows[0].bytes_per_token(kv_dtype, tensor_parallel=tp)
    return Drafter(weight_bytes=held, kv_layers=1, window_layers=1, token_bytes=per_token,
                   label="MTP (1 sliding-window layer)", method=MTP,
                   head_bytes=lm_head_bytes(model.vocab_size, h, tp))


def _eagle(spec: Speculation, model: Model, placement: Placement, kv_dtype: str, version: str = "") -> Drafter:
    head = spec.head
    if head is None:
        return _refuse("no EAGLE head chosen")
    if placement.data_parallel > 1:
        return _refuse("an EAGLE head under data-parallel attention is not modelled")
    if model.hidden_size and (head.target_hidden_size or head.hidden_size) != model.hidden_size:
        return _refuse(f"{head.name} was trained on a model of hidden size "
                       f"{head.target_hidden_size or head.hidden_size:,}; this one has {model.hidden_size:,}")
    if model.vocab_size and head.vocab_size != model.vocab_size:
        return _refuse(f"{head.name} maps to a vocabulary of {head.vocab_size:,} tokens; this model has "
                       f"{model.vocab_size:,}")
    why = eagle_head.kv_refusal(head, model, placement, kv_dtype)
    if why:
        return _refuse(why)
    tp = placement.tensor_parallel
    return Drafter(weight_bytes=eagle_head.weight_bytes(head, tp, version), kv_layers=head.layers,
                   token_bytes=eagle_head.token_bytes(head, kv_dtype, tp), label=head.name, method=EAGLE)


def _draft_model(spec: Speculation, model: Model, gpu, placement: Placement, kv_dtype: str,
                 version: str) -> Drafter:
    draft = spec.draft
    if draft is None:
        return _refuse("no draft model chosen")
    tp = placement.tensor_parallel
    if spec.draft_tp and spec.draft_tp != tp:
        return _refuse(f"draft_tensor_parallel_size {spec.draft_tp} with the target on TP {tp}: vLLM's draft "
                       "model proposer refuses a draft TP other than the target's")
    if placement.data_parallel > 1:
        return _refuse("a draft model under data-parallel attention is not modelled")
    if draft.vocab_size and model.vocab_size and draft.vocab_size != model.vocab_size:
        return _refuse(f"the draft's vocabulary ({draft.vocab_size:,}) differs from the target's "
                       f"({model.vocab_size:,}): vLLM requires them equal for a draft model")
    if draft.is_hybrid or draft.kv_free_layers or draft.windowed_layers or draft.layer_specs:
        return _refuse("a draft model with windowed, recurrent or per-layer caches is not modelled")
    plan = as_plan(draft, spec.draft_weights if spec.draft_weights is not None else "bf16")
    weights = plan.on(gpu, version) if version else plan.on(gpu)
    placed = place(draft, Layout(gpus=tp), weights)
    if not placed.legal:
        return _refuse(f"the draft model cannot be sharded like the target: {placed.problem}")
    per_layer = layer_bytes_on(draft, kv_dtype, placed)
    if per_layer != layer_bytes_on(model, kv_dtype, placement):
        return _refuse("a draft model whose KV page per layer differs from the target's is not modelled "
                       "(vLLM then groups or pads the layers apart)")
    name = spec.draft_name or "draft model"
    return Drafter(weight_bytes=placed.weight_bytes_per_gpu, kv_layers=draft.kv_layers,
                   token_bytes=per_layer * draft.kv_layers, label=name, model=draft, placement=placed,
                   weights=weights, method=DRAFT_MODEL)


__all__ = ["DRAFT_MODEL", "Drafter", "EAGLE", "EAGLE_METHODS", "MODELLED", "MTP", "NGRAM", "NGRAM_DRAFTER", "NONE",
           "OFF", "Speculation", "drafter", "lm_head_bytes", "module_bytes", "mtp_extra_bytes",
           "qwen_mtp_extra_bytes"]
