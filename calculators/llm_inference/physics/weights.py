"""Weight bytes: what memory holds, group by group and GPU by GPU, and what a decode step streams.

A :class:`WeightPlan` is a model's tensors (:class:`llm_inference.models.params.Tensor`) with
the format of each (from the checkpoint's :class:`~llm_inference.models.quantization.Scheme`);
:meth:`WeightPlan.on` places it on a kind of GPU, where vLLM may pad or repack a format for its
kernels (:mod:`llm_inference.engines.vllm_weights`), giving :class:`Weights`:

* :meth:`Weights.groups`: bytes per group (embeddings, LM head, attention, dense MLP, routed and
  shared experts, router, norms and biases), values and scales apart, for the whole model as
  one GPU would hold it. Their total is "Model loading took" on one GPU.
* :meth:`Weights.rank_bytes`: one GPU's share under tensor (TP), expert (EP) and pipeline
  parallelism: every tensor sharded as vLLM shards it (column- and row-parallel layers split,
  routers, norms and DeepSeek's low-rank q/kv projections replicated, K/V projections
  replicated once TP exceeds the KV heads, vocabulary rows padded to 64 and split, experts split
  by width under TP or by count under EP), and sized per shard, scales per shard.

A decode step of a dense model reads every weight once, for the whole batch. A mixture of experts
reads its dense part (attention, embeddings, dense layers, shared experts, routers) and, in each
MoE layer, every routed expert that at least one token of the batch was sent to. With E experts,
k per token and routing taken as uniform, an expert escapes all B tokens with probability
(1 − k/E)^B, so a batch touches

    u(B) = E × (1 − (1 − k/E)^B)    experts per layer

(8 for one DeepSeek-V3 token, about 57 for 8 tokens, nearly all 256 for 64). Real routers are
not uniform: popular experts are picked more often, so fewer distinct ones are touched. The
formula is therefore an upper estimate of the bytes, and the MoE ceiling it gives a slightly
pessimistic one at mid-size batches. The routed experts are streamed at their own width: 4.25
bits for gpt-oss's MXFP4 experts while its attention streams at 16.

A plan without tensors (a custom shape typed into the fields, or a caller passing a dtype name)
is :meth:`WeightPlan.uniform`: every parameter at one format's bits, split evenly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

from ..engines import vllm_weights as engine
from ..models.params import (ATTENTION, COLUMN, EMBEDDING, EXPERT_COLUMN, EXPERT_ROW, GROUP_LABELS, GROUPS,
                             KV_HEADS, LM_HEAD, NORMS_BIASES, REPLICATED, ROUTED_EXPERTS, ROUTER, ROW, VISION, VOCAB,
                             Tensor)
from ..models.quantization import Scheme, WeightSpec, dense
from .expert_parallel import largest_share
from .formats import ZERO, Format, Storage, bits_per_weight, format_of
from .model import Model
from .precision import uniform_compute, weight_bytes_per_param


def expected_unique_experts(experts: int, experts_per_token: int, tokens: float) -> float:
    """u(B): routed experts per MoE layer that ``tokens`` tokens touch, routing taken as uniform."""
    if experts <= 0:
        return 0.0
    return experts * (1 - (1 - experts_per_token / experts) ** tokens)


@dataclass(frozen=True)
class GroupBytes:
    group: str
    label: str
    params: int
    storage: Storage
    formats: tuple[str, ...]  # what its tensors are stored in, e.g. ("fp8 128×128 blocks",)

    @property
    def bytes(self) -> float:
        return self.storage.total


def _div(dim: float, tp: int) -> float:
    """A dimension over ``tp`` ranks: whole rows round up; a custom shape's scaled (fractional)
    rows divide exactly."""
    return math.ceil(dim / tp) if isinstance(dim, int) else dim / tp


def _shard_rows_cols(t: Tensor, tp: int) -> tuple[float, ...]:
    """The shape one tensor-parallel rank holds of ``t``."""
    shape = t.shape
    if t.split in (COLUMN, EXPERT_COLUMN):
        return (_div(shape[0], tp), *shape[1:])
    if t.split in (ROW, EXPERT_ROW):
        return shape if len(shape) == 1 else (shape[0], _div(shape[1], tp))
    if t.split == KV_HEADS:
        if not isinstance(shape[0], int) or not t.head_dim:
            return (shape[0] / tp, *shape[1:])
        heads = shape[0] // t.head_dim
        per_rank = max(1, heads // tp) if heads >= tp else 1
        return (per_rank * t.head_dim, *shape[1:])
    if t.split == VOCAB:
        return (math.ceil(engine.padded_vocab(shape[0]) / tp), *shape[1:])
    return shape


class Weights:
    """A plan placed on one kind of GPU (``arch``, :func:`engine.gpu_arch`)."""

    def __init__(self, plan: "WeightPlan", arch: str, gpu_name: str = "", version: str = engine.VERSION) -> None:
        self.plan = plan
        self.arch = arch
        self.gpu_name = gpu_name
        self.version = version
        # the routed experts' layout under vLLM's fused-MoE kernel, when it is not the stored one
        moe = plan.experts_fmt
        self.moe_layout = moe.moe_layout(arch, version, plan.expert_dims) if moe is not None else None
        self.backend = self.moe_layout.backend if self.moe_layout is not None else ""
        self._cache: dict = {}

    # -- the facts every caller needs -----------------------------------------------------------

    @property
    def refused(self) -> str:
        return self.plan.refused

    @property
    def experts_format(self) -> str:
        """The routed experts' format for vLLM's MoE backend choice ("" for a dense model)."""
        return self.plan.experts_format

    @property
    def compute(self) -> str:
        """The tensor-core format the big matrices multiply in."""
        compute = self.plan.compute
        if compute == "fp4" and not engine.nvfp4_swizzles(self.arch):
            return "bf16"
        return compute

    def notes(self) -> list[str]:
        notes = list(self.plan.notes)
        if self.moe_layout is not None:
            notes.append(self.moe_layout.note(self.gpu_name, self.arch, self.version, self.plan.expert_biases))
        for fmt in self.plan.formats:  # each format's own, once
            notes.extend(n for n in fmt.notes_on(self.arch) if n not in notes)
        if self.plan.has_quantized_kv_b and self.plan.mla_copies:
            notes.append("MLA with a quantized kv_b_proj: vLLM keeps a bf16 copy of it (W_UK_T and W_UV, "
                         "dequantized for the decode kernels), counted with the attention.")
        return notes

    # -- sizes ------------------------------------------------------------------------------------

    def _tensor(self, t: Tensor, spec: WeightSpec, tp: int, ep: int) -> Storage:
        """Bytes of ``t`` (all its ``count`` copies) on one rank of ``tp`` × ``ep``."""
        if t.group == ROUTED_EXPERTS and ep > 1:
            # whole experts, as many as the fullest rank of vLLM's expert map holds at this release
            copies, shape = largest_share(t.count, ep, self.version), t.shape
        else:
            copies, shape = t.count, _shard_rows_cols(t, tp)
        if self.plan.uniform_bytes is not None:
            return Storage(math.prod(shape) * copies * self.plan.uniform_bytes)
        fmt = format_of(spec)
        if self.backend and (fmt == self.plan.experts_fmt or (t.group == ROUTED_EXPERTS and len(shape) == 1)):
            # the experts as the fused-MoE kernel holds them: its matrices, and the biases at its width
            split = tp if ep == 1 else 1
            held = self.moe_layout.bias(t.module, split) if len(shape) == 1 else self.moe_layout.matrix(t.module, split)
            return held.times(copies)
        if not fmt.quantized:  # the checkpoint's dtype: embeddings, norms, biases, unquantized layers
            return fmt.tensor(shape).times(copies)
        return fmt.held(shape[0], shape[1], self.arch).times(copies)

    def _copies(self, t: Tensor, spec: WeightSpec, tp: int) -> Storage:
        """vLLM's bf16 W_UK_T / W_UV beside a quantized kv_b_proj (one rank's heads)."""
        if not (self.plan.mla_copies and t.module.endswith("kv_b_proj") and spec.quantized and t.is_linear):
            return ZERO
        rows, cols = _shard_rows_cols(t, tp)
        return Storage(rows * cols * 2)

    def _layer_groups(self, key: tuple, tp: int, ep: int) -> dict[str, Storage]:
        cached = self._cache.get((key, tp, ep))
        if cached is None:
            cached = {}
            for t, spec in self.plan.templates[key]:
                s = self._tensor(t, spec, tp, ep) + self._copies(t, spec, tp)
                cached[t.group] = cached.get(t.group, ZERO) + s
            self._cache[(key, tp, ep)] = cached
        return cached

    def _sum(self, tp: int, ep: int, layers: range | None, first: bool, last: bool) -> dict[str, Storage]:
        key = ("sum", tp, ep, (layers.start, layers.stop) if layers is not None else None, first, last)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._cache[key] = self._summed(tp, ep, layers, first, last)
        return cached

    def _summed(self, tp: int, ep: int, layers: range | None, first: bool, last: bool) -> dict[str, Storage]:
        keys = self.plan.layer_keys if layers is None else self.plan.layer_keys[layers.start:layers.stop]
        counts: dict = {}
        for key in keys:  # identical layers share a template: add each template's rows once, times its count
            counts[key] = counts.get(key, 0) + 1
        if first:
            counts["first"] = 1
        if last:
            counts["last"] = 1
        if self.plan.templates["vision"]:  # on every rank, whatever its stage
            counts["vision"] = 1
        values: dict[str, float] = {}
        scales: dict[str, float] = {}
        for key, n in counts.items():
            for group, st in self._layer_groups(key, tp, ep).items():
                values[group] = values.get(group, 0.0) + st.values * n
                scales[group] = scales.get(group, 0.0) + st.scales * n
        return {g: Storage(values[g], scales[g]) for g in values}

    def groups(self, tp: int = 1, ep: int = 1) -> list[GroupBytes]:
        """Bytes per group on one rank (TP 1, EP 1: the whole model on one GPU), in GROUPS order;
        groups the model lacks are left out."""
        totals = self._sum(tp, ep, None, True, True)
        params = self.plan.group_params
        rows = []
        for group, label in GROUPS:
            if group in totals or params.get(group):
                rows.append(GroupBytes(group, label, params.get(group, 0), totals.get(group, ZERO),
                                       self.plan.group_formats.get(group, ())))
        return rows

    @property
    def total_bytes(self) -> float:
        """Everything, as one GPU would hold it (TP 1)."""
        return sum(g.bytes for g in self.groups())

    def rank_bytes(self, tp: int = 1, ep: int = 1, layers: range | None = None, first: bool = True,
                   last: bool = True) -> float:
        """Bytes on one GPU that holds ``layers`` (all when None) at ``tp``/``ep``, with the
        embedding when ``first`` and the LM head and final norm when ``last``."""
        return sum(s.total for s in self._sum(tp, ep, layers, first, last).values())

    def vision_bytes(self, tp: int = 1) -> float:
        """The vision tower's bytes on one GPU (0 when the plan holds none: a text-only serve)."""
        return self._sum(tp, 1, range(0), True, False).get(VISION, ZERO).total

    def routed_bytes(self, tp: int = 1, ep: int = 1, layers: range | None = None) -> float:
        """The routed experts' bytes on one GPU (all MoE layers when ``layers`` is None)."""
        return self._sum(tp, ep, layers, False, False).get(ROUTED_EXPERTS, ZERO).total

    # -- what vLLM refuses ----------------------------------------------------------------------

    def tp_problem(self, tp: int, experts_split: bool = True) -> str:
        """Why vLLM refuses to shard this checkpoint over ``tp`` ranks ("" when it accepts):
        a quantization group must not straddle two ranks (the row-parallel input split must be a
        multiple of the group size; ``GPTQMarlinLinearMethod`` / AWQ ``create_weights``: "The
        input size is not aligned with the quantized weight shape"). ``experts_split`` False: expert
        parallelism, whose routed experts stay whole (the MoE layer's own TP is 1)."""
        key = ("tp_problem", tp, experts_split)
        if key not in self._cache:
            self._cache[key] = self._tp_problem(tp, experts_split)
        return self._cache[key]

    def _tp_problem(self, tp: int, experts_split: bool = True) -> str:
        for t, spec in self.plan.linear_specs:
            group = format_of(spec).tp_group
            if group <= 0 or (not experts_split and t.group == ROUTED_EXPERTS):
                continue
            if t.split in (ROW, EXPERT_ROW) and tp > 1:
                cols = t.shape[1] / tp
                if cols != int(cols) or int(cols) % group:
                    return (f"{t.module}'s input of {t.shape[1]} over {tp} ranks is {t.shape[1] / tp:g} columns, "
                            f"not a multiple of the quantization group {group}: vLLM refuses (\"The input "
                            f"size is not aligned with the quantized weight shape\").")
        return ""


class WeightPlan:
    """A model's tensors with their formats, for any GPU (:meth:`on`)."""

    def __init__(self, tensors: tuple[Tensor, ...], scheme: Scheme, *, notes: tuple[str, ...] = (),
                 uniform_bytes: float | None = None, compute: str | None = None,
                 repeat: tuple[tuple[Tensor, ...], int] | None = None) -> None:
        """``tensors``: every tensor, layer by layer; or, with ``repeat`` = (one layer's tensors,
        layers), the tensors outside the layers and one layer template used ``layers`` times."""
        self.tensors = tensors
        self.scheme = scheme
        self.dtype = scheme.dtype
        self.refused = scheme.unsupported
        self.uniform_bytes = uniform_bytes
        extra = list(scheme.notes) + list(notes)
        specs = _specs(tensors, scheme)
        layer_specs = _specs(repeat[0], scheme) if repeat else []
        repeat_layer = repeat[0] if repeat else ()
        times = repeat[1] if repeat else 0
        self.linear_specs = [(t, s) for t, s in (*specs, *layer_specs) if t.is_linear]
        quantized = [s for _, s in self.linear_specs if s.quantized]
        # the matmul format of most of the quantized parameters (bf16 when nothing is quantized)
        by_acts: dict[str, int] = {}
        for t, s in self.linear_specs:
            if s.quantized:
                by_acts[s.activations] = by_acts.get(s.activations, 0) + t.params
        acts = set(by_acts)
        self.compute = compute or ((max(by_acts, key=by_acts.get) or "bf16") if by_acts else "bf16")
        if len(acts) > 1 and compute is None:
            extra.append("The quantized layers do not all multiply in one format: the largest ones' ("
                         f"{self.compute}) sets the compute peak.")
        self.notes = tuple(extra)
        #: the quantized Linear layers' formats, each once, in the order the tensors first use them
        self.formats: tuple[Format, ...] = tuple(dict.fromkeys(format_of(s) for s in quantized))
        self.has_quantized_kv_b = any(t.module.endswith("kv_b_proj") and s.quantized for t, s in self.linear_specs)
        self.mla_copies = True
        down = next((t for t, _ in self.linear_specs if t.group == ROUTED_EXPERTS and t.module.endswith("down_proj")),
                    None)
        self.expert_dims = (down.shape[0], down.shape[1]) if down else (0, 0)
        expert_modules = {t.module for t, _ in self.linear_specs if t.group == ROUTED_EXPERTS}
        self.expert_biases = any(t.param == "bias" and t.module in expert_modules for t in (*tensors, *repeat_layer))
        expert_spec = next((s for t, s in self.linear_specs if t.group == ROUTED_EXPERTS), None)
        #: the routed experts' format (None for a dense model), and its name for vLLM's MoE backend choice
        self.experts_fmt: Format | None = format_of(expert_spec) if expert_spec is not None else None
        self.experts_format = moe_format(scheme, expert_spec) if expert_spec is not None else ""
        # layer templates: identical layers share one, so a placement sums precomputed rows
        by_layer: dict[int | None, list] = {}
        for t, s in specs:
            by_layer.setdefault(t.layer, []).append((t, s))
        outside = by_layer.pop(None, [])
        # a vision tower sits on every pipeline stage: vLLM builds it on each rank, unconditionally
        # (Qwen3_5MoeForConditionalGeneration.__init__, qwen3_5.py), and each rank profiles it
        self.templates: dict = {"first": [(t, s) for t, s in outside if t.group == EMBEDDING],
                                "last": [(t, s) for t, s in outside if t.group not in (EMBEDDING, VISION)],
                                "vision": [(t, s) for t, s in outside if t.group == VISION]}
        self.layer_keys: list = []
        seen: dict = {}
        for layer in sorted(by_layer):
            signature = tuple((t.group, t.module, t.shape, t.split, t.param, t.count, t.head_dim, s)
                              for t, s in by_layer[layer])
            key = seen.setdefault(signature, ("layer", len(seen)))
            self.templates.setdefault(key, by_layer[layer])
            self.layer_keys.append(key)
        if repeat:
            self.templates[("layer", "repeated")] = layer_specs
            self.layer_keys += [("layer", "repeated")] * times
        self.group_params: dict[str, int] = {}
        by_group: dict[str, dict[Format, None]] = {}
        for rows, n in ((specs, 1), (layer_specs, times)):
            for t, s in rows:
                self.group_params[t.group] = self.group_params.get(t.group, 0) + t.params * n
                if t.is_linear or t.group == EMBEDDING:
                    by_group.setdefault(t.group, {})[format_of(s)] = None
        #: the per-group format map: each group's matrices (and the embedding) by format, in first-use order
        self.format_map: dict[str, tuple[Format, ...]] = {g: tuple(f) for g, f in by_group.items()}
        self.group_formats = {g: tuple(dict.fromkeys(f.label for f in fs)) for g, fs in self.format_map.items()}
        self._on: dict[str, Weights] = {}

    @classmethod
    def uniform(cls, model: Model, dtype: str, scheme: Scheme | None = None) -> "WeightPlan":
        """Every parameter at ``dtype``'s bytes (the legacy reading of a dtype name), from
        :class:`Model`'s counts: the embedding and the LM head (vocabulary × hidden each, at most
        half the total together) at the two ends, the rest spread evenly over the layers, the
        routed experts apart."""
        per = weight_bytes_per_param(dtype)
        ends = min(2.0 * model.vocab_size * model.hidden_size, model.total_params / 2) / 2
        routed = model.experts * model.expert_index_params
        layers = max(1, model.layers)
        rest = (model.total_params - 2 * ends - routed) / layers
        layer = [Tensor(ATTENTION, "layer (not split by tensor)", (int(round(rest)),), COLUMN, layer=0)]
        if routed:
            layer.append(Tensor(ROUTED_EXPERTS, "experts (not split by tensor)",
                                (int(round(routed / layers / model.experts)),), EXPERT_COLUMN, count=model.experts,
                                layer=0))
        tensors = [Tensor(EMBEDDING, "model.embed_tokens", (int(round(ends)),), COLUMN),
                   Tensor(LM_HEAD, "lm_head", (int(round(ends)),), COLUMN)]
        scheme = scheme or Scheme("uniform", dtype)
        return cls(tuple(tensors), scheme, uniform_bytes=per, compute=uniform_compute(dtype),
                   repeat=(tuple(layer), layers))

    def on(self, gpu, version: str = engine.VERSION) -> Weights:
        """This plan on ``gpu`` (a :class:`llm_inference.hardware.GPU`; None: no GPU-specific
        layout) under vLLM ``version``."""
        arch = engine.gpu_arch(gpu.id, gpu.name) if gpu is not None else ""
        weights = self._on.get((arch, version))
        if weights is None:
            weights = self._on[(arch, version)] = Weights(self, arch, gpu.name if gpu is not None else "", version)
        return weights

    @property
    def total_params(self) -> int:
        return sum(self.group_params.values())


def moe_format(scheme: Scheme, spec: WeightSpec) -> str:
    """The routed experts' format as vLLM's MoE backend choice tells formats apart
    (engines.vllm_releases.MOE_FORMATS)."""
    return "" if scheme.unsupported else format_of(spec).moe_form(scheme.method)


def _specs(tensors: tuple[Tensor, ...], scheme: Scheme) -> list[tuple[Tensor, WeightSpec]]:
    """Each tensor's spec. When no pattern of the scheme names modules, a tensor's spec does not
    depend on its layer: it is looked up once per kind of tensor."""
    if scheme.unsupported:
        base = dense(scheme.dtype)
        return [(t, base) for t in tensors]
    by_name = (bool(scheme.skip) or bool(scheme.layers)
               or any(target != "Linear" for targets, _ in scheme.groups for target in targets))
    if by_name:
        return [(t, scheme.spec_for(t)) for t in tensors]
    memo: dict = {}
    out = []
    for t in tensors:
        key = (t.group, t.module, t.param, len(t.shape))
        spec = memo.get(key)
        if spec is None:
            spec = memo[key] = scheme.spec_for(t)
        out.append((t, spec))
    return out


def describe(spec: WeightSpec) -> str:
    """A format in a few words, for the breakdown's list."""
    return format_of(spec).label


# -- the legacy entry points (a dtype name for every parameter) ---------------------------------

def weight_bytes(model: Model, weight_dtype: str) -> float:
    """Bytes of every parameter at one width: what memory must hold, MoE experts included."""
    return model.total_params * weight_bytes_per_param(weight_dtype)


def streamed_params(model: Model, tokens: float) -> float:
    """Parameters a step over ``tokens`` tokens reads: all of a dense model; for MoE the dense part
    plus u(tokens) expert indices (never more than the whole model)."""
    if not model.is_moe:
        return model.active
    touched = expected_unique_experts(model.experts, model.experts_per_token, tokens)
    return min(model.total_params, model.dense_params + touched * model.expert_index_params)


def streamed_share(model: Model, tokens: float) -> float:
    """Share of the routed experts' bytes a step over ``tokens`` tokens reads (1 for dense)."""
    if not model.is_moe:
        return 1.0
    return min(1.0, expected_unique_experts(model.experts, model.experts_per_token, tokens) / model.experts)


def streamed_bytes(model: Model, weights, tokens: float) -> float:
    """Bytes a step over ``tokens`` tokens reads, all GPUs together: the held bytes of everything
    but the routed experts and a vision tower (which a text step never runs), plus the touched share
    of the experts at their own width."""
    w = as_weights(model, weights)
    routed = w.routed_bytes()
    return w.total_bytes - w.vision_bytes() - routed + streamed_share(model, tokens) * routed


def as_weights(model: Model, weights, gpu=None) -> Weights:
    """A :class:`Weights` from what a caller passes: Weights, a WeightPlan (placed on ``gpu``),
    or a dtype name (every parameter at its width, :meth:`WeightPlan.uniform`)."""
    if isinstance(weights, Weights):
        return weights
    if isinstance(weights, WeightPlan):
        return weights.on(gpu)
    if isinstance(weights, str):
        return _uniform(model, weights).on(gpu)
    raise TypeError(f"weights must be Weights, WeightPlan or a dtype name, got {type(weights).__name__}")


def on_gpu(model: Model, weights, gpu) -> Weights:
    """``weights`` on ``gpu``: a Weights placed on another GPU is placed again (same release)."""
    if isinstance(weights, Weights):
        if gpu is None or engine.gpu_arch(gpu.id, gpu.name) == weights.arch:
            return weights
        return weights.plan.on(gpu, weights.version)
    return as_weights(model, weights, gpu)


def as_plan(model: Model, weights) -> WeightPlan:
    if isinstance(weights, Weights):
        return weights.plan
    if isinstance(weights, WeightPlan):
        return weights
    return _uniform(model, weights)


@lru_cache(maxsize=256)
def _uniform(model: Model, dtype: str) -> WeightPlan:
    return WeightPlan.uniform(model, dtype)


__all__ = ["GROUP_LABELS", "GroupBytes", "WeightPlan", "Weights", "as_plan", "as_weights", "bits_per_weight",
           "describe", "expected_unique_experts", "format_of", "on_gpu", "streamed_bytes", "streamed_params",
           "streamed_share", "weight_bytes", "LM_HEAD", "NORMS_BIASES", "REPLICATED", "ROUTER"]
