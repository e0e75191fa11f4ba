"""A checkpoint's ``quantization_config``, read into which tensors are stored in which format.

vLLM picks a quantization method from the config's ``quant_method`` and asks it, layer by layer,
for the layer's weights (``get_quant_method``, vllm/model_executor/layers/quantization/, 0.33.0).
This module reads the same fields into a :class:`Scheme` whose :meth:`Scheme.spec_for` says, for
each tensor of :mod:`.params`, the :class:`WeightSpec` it is stored in. The rules, per method:

* What no method touches: the input embedding (VocabParallelEmbedding gets no quantized method),
  norms and biases (vectors stay in the checkpoint's dtype), and the router (vLLM's
  ``GateLinear`` passes no quant_config: fused_moe/router/gate_linear.py), nor Qwen's
  ``shared_expert_gate`` (``ReplicatedLinear(..., quant_config=None)``, qwen2_moe.py).
* ``fp8`` (fp8.py, ``Fp8Config``): every Linear and the routed experts unless listed in
  ``ignored_layers`` / ``modules_to_not_convert`` (exact names, fused q/k/v and gate/up matched
  shard by shard: ``is_layer_skipped``); the LM head is a ParallelLMHead, not a Linear: kept.
  ``weight_block_size`` gives block scales, else one scale per tensor.
* ``compressed-tensors``: each ``config_groups`` entry targets Linear layers (``"Linear"`` or
  names / ``re:`` patterns) with a weights scheme; ``ignore`` lists names or ``re:`` patterns
  (``is_equal_or_regex_match``, quantization/utils/config_utils.py).
* ``awq`` (auto_awq.py) and ``gptq`` (auto_gptq.py): every Linear of the decoder, except
  ``modules_to_not_convert`` (AWQ: a substring of the module's name); the LM head only with
  ``"lm_head": true``. GPTQModel's ``dynamic`` overrides: a ``-:`` pattern skips modules; other
  overrides (per-module bits) are not modelled and refuse the scheme.
* ``mxfp4`` (mxfp4.py, gpt-oss): only the routed experts; every Linear stays in the checkpoint's
  dtype ("MXFP4 linear layer is not implemented - falling back to UnquantizedLinearMethod").
* ``modelopt`` (modelopt.py; ``hf_quant_config.json``'s ``quantization`` or the config's own):
  ``quant_algo`` FP8 (per-tensor scales, static input scale) or NVFP4 (16-element groups); every
  Linear, the LM head and the experts unless ``exclude_modules`` matches (exact, substring, or
  fnmatch wildcard: ``is_layer_excluded``).
* ``deepseek_v4_fp8`` (``DeepseekV4FP8Config``, vllm/model_executor/models/deepseek_v4.py): vLLM
  takes a ``deepseek_v4`` config's ``fp8`` method for it. The Linear layers are fp8 with block
  scales; the routed experts follow the config's top-level ``expert_dtype``: "fp4" (the default,
  DeepSeek-V4-Flash and Pro) loads them as MXFP4 (``Mxfp4MoEMethod``), or NVFP4 when the
  quantization_config says ``moe_quant_algo`` "NVFP4", and stores the fp8 block scales as e8m0
  (``is_scale_e8m0``); "fp8" (Flash-Base) keeps the experts in fp8 blocks with fp32 scales.
* ``bitsandbytes`` (vLLM ≤ 0.27.0; 0.28.0 removed the method): 4-bit nf4/fp4 or 8-bit, every
  Linear but ``llm_int8_skip_modules``.

Any other ``quant_method`` is named in :attr:`Scheme.unsupported` and sizes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from fnmatch import fnmatch
from functools import lru_cache, partial
from typing import Any, Mapping

from .params import EMBEDDING, LM_HEAD, ROUTED_EXPERTS, ROUTER, Tensor

#: vLLM fuses these checkpoint modules into one layer and requires one format for all shards.
FUSED = {"q_proj": "qkv_proj", "k_proj": "qkv_proj", "v_proj": "qkv_proj",
         "gate_proj": "gate_up_proj", "up_proj": "gate_up_proj"}


@dataclass(frozen=True)
class WeightSpec:
    """How one tensor is stored: ``kind`` "dense" (the ``dtype``), "fp8", "int", "mxfp4", "nvfp4"
    or "nf4"; the rest as the kind needs (see :mod:`llm_inference.physics.formats`).
    ``activations`` is the format the matmul's other operand is quantized to ("" when the kernel
    dequantizes the weights and multiplies in 16 bits)."""

    kind: str
    dtype: str = "bfloat16"
    bits: int = 16
    strategy: str = ""  # fp8: "tensor" | "channel" | "block"
    block: tuple[int, int] = (128, 128)
    group: int = 0  # int: input columns per scale; -1 one per row
    zero_point: bool = False
    act_order: bool = False
    static_input: bool = False
    double_quant: bool = True
    activations: str = ""
    scale: str = ""  # fp8: the scales' dtype, "" for fp32, "e8m0" (DeepSeek-V4's ue8m0 block scales)

    @property
    def quantized(self) -> bool:
        return self.kind != "dense"


def dense(dtype: str) -> WeightSpec:
    return WeightSpec("dense", dtype=dtype)


@dataclass(frozen=True)
class Scheme:
    """The checkpoint's formats. ``method`` is vLLM's name for it ("none" when unquantized);
    ``unsupported`` says why it cannot be sized ("" when it can): then :meth:`spec_for` must not
    be used."""

    method: str
    label: str
    dtype: str = "bfloat16"  # the unquantized tensors' dtype (config.json torch_dtype)
    linear: WeightSpec | None = None  # the format of the quantized Linear layers
    experts: WeightSpec | None = None  # the routed experts' (None: as ``linear``)
    skip: tuple[str, ...] = ()  # module-name patterns left unquantized
    match: str = "exact"  # how ``skip`` matches: "exact", "substring", "modelopt", "regex"
    lm_head: bool = False  # the LM head quantized too
    experts_only: bool = False  # only routed experts quantized (MXFP4)
    groups: tuple[tuple[tuple[str, ...], WeightSpec], ...] = ()  # compressed-tensors targets → spec
    #: ModelOpt MIXED_PRECISION: each quantized layer's name (as the tensors are named) → its spec;
    #: a layer not listed stays in ``dtype``.
    layers: tuple[tuple[str, WeightSpec], ...] = ()
    unsupported: str = ""
    notes: tuple[str, ...] = field(default=(), compare=False)
    max_vllm: str = ""  # the last vLLM release that loads it ("" while the newest does)
    #: The KV-cache format the checkpoint asks for ("fp8", "nvfp4"; "" when it says none): what
    #: vLLM's ``--kv-cache-dtype auto`` becomes for it.
    kv_cache: str = field(default="", compare=False)

    @property
    def quantized(self) -> bool:
        return self.method != "none"

    # -- which tensor gets what ------------------------------------------------------------

    def _skipped(self, tensor: Tensor) -> bool:
        for pattern in self.skip:
            bare = unwrapped(pattern)
            for name in _names(tensor):
                plain = unwrapped(name)
                if self.match == "substring" and (pattern in name or (bare and bare in plain)):
                    return True
                if self.match == "regex" and any(_ct_match(form, pattern) for form in wrapped_forms(name)):
                    return True
                if self.match in ("exact", "modelopt") and bare == plain:
                    return True
                if self.match == "modelopt" and ((bare and bare in plain)
                                                 or any(fnmatch(form, pattern) for form in wrapped_forms(name))):
                    return True
        return False

    def spec_for(self, tensor: Tensor) -> WeightSpec:
        """The format ``tensor`` is stored in (and, for the kernels, held in by vLLM)."""
        if tensor.dtype:  # a tensor vLLM keeps at a dtype of its own (fp32, int32)
            return dense(tensor.dtype)
        base = dense(self.dtype)
        if not self.quantized or not tensor.is_linear or not tensor.quantizable or tensor.group in (EMBEDDING, ROUTER):
            return base
        if self.experts_only and tensor.group != ROUTED_EXPERTS:
            return base
        if tensor.group == LM_HEAD and not self.lm_head:
            return base
        if self._skipped(tensor):
            return base
        if self.layers:
            return _mixed_spec(self.layers, tensor) or base
        if self.groups:
            for targets, spec in self.groups:
                if _ct_targets(tensor, targets):
                    return spec
            return base
        if tensor.group == ROUTED_EXPERTS and self.experts is not None:
            return self.experts
        return self.linear or base


# -- reading a quantization_config -------------------------------------------------------------

class _Refused(Exception):
    pass


def _names(tensor: Tensor) -> list[str]:
    """The names vLLM matches a tensor's layer by: its own, the fused layer's (qkv_proj,
    gate_up_proj), and for routed experts the FusedMoE layer's (``model.layers.3.mlp.experts``)."""
    path = tensor.path
    names = [path]
    leaf = path.rsplit(".", 1)[-1]
    if leaf in FUSED:
        names.append(path[: -len(leaf)] + FUSED[leaf])
    if tensor.group == ROUTED_EXPERTS:
        names.append(path.rsplit(".", 1)[0])
    return names


@lru_cache(maxsize=64)
def _layer_table(layers: tuple[tuple[str, WeightSpec], ...]) -> tuple[dict[str, WeightSpec], dict[str, WeightSpec]]:
    """MIXED_PRECISION's names, unwrapped: each listed layer's spec, and for every module above a
    listed layer (``layers.1.mixer.experts`` above ``layers.1.mixer.experts.0.up_proj``) the spec of
    the first layer listed under it."""
    table: dict[str, WeightSpec] = {}
    parents: dict[str, WeightSpec] = {}
    for name, spec in layers:
        bare = unwrapped(name)
        table.setdefault(bare, spec)
        parts = bare.split(".")
        for end in range(1, len(parts)):
            parents.setdefault(".".join(parts[:end]), spec)
    return table, parents


def _mixed_spec(layers: tuple[tuple[str, WeightSpec], ...], tensor: Tensor) -> WeightSpec | None:
    """A tensor's format under ModelOpt MIXED_PRECISION, looked up in the order vLLM's
    ``ModelOptMixedPrecisionConfig._resolve_quant_algo`` tries (modelopt.py, 0.33.0): the layer's
    own name; a fused layer's shards (qkv_proj's q/k/v_proj); then, for a layer whose checkpoint
    lists its children (a FusedMoE layer ``...experts`` over ``...experts.0.up_proj``), the first
    child listed. None: the layer is not listed and stays unquantized."""
    table, parents = _layer_table(layers)
    names = [unwrapped(name) for name in _names(tensor)]
    for name in names:
        if name in table:
            return table[name]
    if tensor.group == ROUTED_EXPERTS:
        moe_layer = names[-1]  # the FusedMoE layer's name
        if moe_layer in parents:
            return parents[moe_layer]
    return None


#: Where a multimodal wrapper nests the text model, longest first: a checkpoint of one names the
#: text model's modules ``model.language_model.layers.3...`` (transformers 4.52+) or
#: ``language_model.model.layers.3...`` (before), a text-only one ``model.layers.3...``; vLLM maps
#: them all onto its own module tree before matching a quantization config's names
#: (``hf_to_vllm_mapper``). The tensors here carry the text-only names.
#: Nemotron-H's checkpoints name the model ``backbone`` (vLLM's ``hf_to_vllm_mapper`` maps it to
#: ``model``, nemotron_h.py).
_WRAPPERS = ("model.language_model.", "language_model.model.", "language_model.", "model.", "backbone.")


def unwrapped(name: str) -> str:
    """A module name without its wrapper's prefix: ``layers.3.self_attn.q_proj``, ``lm_head``."""
    for prefix in _WRAPPERS:
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def wrapped_forms(name: str) -> tuple[str, ...]:
    """The names one text-model module goes by in the checkpoints of a text-only model and of each
    multimodal wrapper (for patterns that are matched as written: regexes and wildcards)."""
    bare = unwrapped(name)
    if bare.startswith("lm_head"):
        return (bare, f"language_model.{bare}", f"model.language_model.{bare}")
    return (f"model.{bare}", f"model.language_model.{bare}", f"language_model.model.{bare}", bare, f"backbone.{bare}")


def _ct_match(name: str, pattern: str) -> bool:
    if pattern.startswith("re:"):
        return re.match(pattern[3:], name) is not None
    return name == pattern


def _ct_targets(tensor: Tensor, targets: tuple[str, ...]) -> bool:
    for target in targets:
        if target == "Linear" and tensor.group != LM_HEAD:  # vLLM's ParallelLMHead is not a Linear
            return True
        if any(_ct_match(form, target) for name in _names(tensor) for form in wrapped_forms(name)):
            return True
    return False


def _str_list(config: Mapping[str, Any], *names: str) -> tuple[str, ...]:
    for name in names:
        value = config.get(name)
        if value is None:
            continue
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise _Refused(f"{name} must be a list of module names")
        return tuple(value)
    return ()


def _int(config: Mapping[str, Any], name: str, default: int | None = None) -> int:
    value = config.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Refused(f"{name} must be a whole number, got {value!r}")
    return value


def _fp8(config: Mapping[str, Any], dtype: str) -> Scheme:
    block = config.get("weight_block_size")
    activation = config.get("activation_scheme", "dynamic")
    if activation not in ("static", "dynamic"):
        raise _Refused(f"activation_scheme {activation!r} is neither static nor dynamic")
    if block is not None:
        if not (isinstance(block, (list, tuple)) and len(block) == 2 and all(isinstance(b, int) and b > 0
                                                                               for b in block)):
            raise _Refused("weight_block_size must be two whole numbers")
        spec = WeightSpec("fp8", bits=8, strategy="block", block=(block[0], block[1]), activations="fp8")
        label = f"fp8 e4m3, {block[0]} × {block[1]} block scales"
    else:
        spec = WeightSpec("fp8", bits=8, strategy="tensor", static_input=activation == "static",
                          activations="fp8")
        label = "fp8 e4m3, one scale per tensor"
    skip = _str_list(config, "ignored_layers") or _str_list(config, "modules_to_not_convert")
    return Scheme("fp8", label, dtype, linear=spec, skip=skip, match="exact")


def _ct_weights(weights: Mapping[str, Any], inputs: Mapping[str, Any] | None, fmt: str) -> WeightSpec:
    if not isinstance(weights, Mapping):
        raise _Refused("a config_groups entry has no weights scheme")
    bits = _int(weights, "num_bits")
    kind = weights.get("type", "int")
    strategy = weights.get("strategy", "tensor")
    acts = ""
    if isinstance(inputs, Mapping) and inputs.get("num_bits") is not None:
        a_bits, a_type = inputs.get("num_bits"), inputs.get("type", "int")
        acts = {(8, "float"): "fp8", (8, "int"): "int8", (4, "float"): "fp4"}.get((a_bits, a_type), "")
        if not acts:
            raise _Refused(f"activations of {a_bits}-bit {a_type} are not modelled")
    if fmt == "nvfp4-pack-quantized" or (kind == "float" and bits == 4):
        if weights.get("group_size", 16) != 16:
            raise _Refused("an fp4 scheme with a group size other than 16 is not modelled")
        return WeightSpec("nvfp4", bits=4, group=16, activations="fp4" if acts == "fp4" else "")
    if kind == "float" and bits == 8:
        if strategy not in ("tensor", "channel", "block"):
            raise _Refused(f"fp8 weights with strategy {strategy!r} are not modelled")
        block = weights.get("block_structure") or [128, 128]
        return WeightSpec("fp8", bits=8, strategy=strategy, block=(int(block[0]), int(block[1])),
                          static_input=bool(isinstance(inputs, Mapping) and inputs.get("dynamic") is False),
                          activations=acts)
    if kind == "int" and bits in (4, 8):
        if strategy == "group":
            group = _int(weights, "group_size")
        elif strategy == "channel":
            group = -1
        else:
            raise _Refused(f"{bits}-bit integer weights with strategy {strategy!r} are not modelled")
        if acts == "int8" and bits == 8:  # W8A8: int8 numbers, an fp32 scale per channel or tensor
            return WeightSpec("fp8", dtype="int8", bits=8, strategy="channel" if group == -1 else "tensor",
                              activations="int8")
        return WeightSpec("int", bits=bits, group=group, zero_point=weights.get("symmetric", True) is False,
                          act_order=weights.get("actorder") in ("group", "weight", True), activations=acts)
    raise _Refused(f"{bits}-bit {kind} weights are not modelled")


def _compressed_tensors(config: Mapping[str, Any], dtype: str) -> Scheme:
    groups_config = config.get("config_groups")
    if not isinstance(groups_config, Mapping) or not groups_config:
        raise _Refused("config_groups is missing: no scheme says how the weights are stored")
    fmt = config.get("format", "")
    groups = []
    labels = []
    for name, group in groups_config.items():
        if not isinstance(group, Mapping):
            raise _Refused(f"config_groups.{name} is not an object")
        targets = tuple(group.get("targets") or ())
        if not targets:
            raise _Refused(f"config_groups.{name} targets no layer")
        spec = _ct_weights(group.get("weights"), group.get("input_activations"), fmt)
        groups.append((targets, spec))
        labels.append(_spec_label(spec))
    ignore = _str_list(config, "ignore")
    label = "compressed-tensors " + " + ".join(dict.fromkeys(labels))
    if ignore:
        label += f" (ignore: {', '.join(ignore[:3])}{'…' if len(ignore) > 3 else ''})"
    return Scheme("compressed-tensors", label, dtype, groups=tuple(groups), skip=ignore, match="regex")


def _awq(config: Mapping[str, Any], dtype: str) -> Scheme:
    bits = _int(config, "bits", _int(config, "w_bit", 4) if "w_bit" in config else None)
    group = _int(config, "group_size", _int(config, "q_group_size", 128) if "q_group_size" in config else None)
    if bits not in (4, 8):
        raise _Refused(f"AWQ with {bits}-bit weights is not one vLLM loads (4 or 8)")
    zero_point = config.get("zero_point", True) is not False
    spec = WeightSpec("int", bits=bits, group=group, zero_point=zero_point)
    skip = _str_list(config, "modules_to_not_convert")
    label = f"AWQ int{bits}, group {group}" + (", zero points" if zero_point else "")
    return Scheme("awq", label, dtype, linear=spec, skip=skip, match="substring",
                  lm_head=config.get("lm_head") is True)


def _gptq(config: Mapping[str, Any], dtype: str) -> Scheme:
    bits = _int(config, "bits")
    group = _int(config, "group_size", 128)
    if bits not in (2, 3, 4, 8):
        raise _Refused(f"GPTQ with {bits}-bit weights is not modelled")
    skip: list[str] = []
    dynamic = config.get("dynamic") or {}
    if not isinstance(dynamic, Mapping):
        raise _Refused("dynamic must map module patterns to overrides")
    for pattern, override in dynamic.items():
        if pattern.startswith("-:"):
            skip.append(pattern[2:])
        elif override:
            raise _Refused(f"its dynamic per-module override {pattern!r} is not modelled")
    sym = config.get("sym", True) is not False
    spec = WeightSpec("int", bits=bits, group=group, zero_point=not sym, act_order=config.get("desc_act") is True)
    label = (f"GPTQ int{bits}, group {group}" + ("" if sym else ", zero points")
             + (", act-order" if spec.act_order else ""))
    scheme = Scheme("gptq", label, dtype, linear=spec, skip=tuple("re:" + s for s in skip), match="regex",
                    lm_head=config.get("lm_head") is True)
    if sym:
        scheme = _with_note(scheme, "A symmetric GPTQ checkpoint stores zero points (qzeros) that vLLM's "
                                    "Marlin kernel drops on loading (0.4 % of the 4-bit values at group "
                                    "128): not counted.")
    return scheme


def _mxfp4(config: Mapping[str, Any], dtype: str) -> Scheme:
    return Scheme("mxfp4", "MXFP4 routed experts (e2m1, e8m0 scale per 32); the rest in " + _short(dtype),
                  dtype, experts=WeightSpec("mxfp4", bits=4, group=32), linear=None, experts_only=True,
                  skip=_str_list(config, "modules_to_not_convert"))


def _deepseek_v4_fp8(config: Mapping[str, Any], dtype: str, expert_dtype: Any = "fp4") -> Scheme:
    """DeepSeek-V4's checkpoints: fp8 block-scaled Linear layers, routed experts by ``expert_dtype``."""
    if expert_dtype not in ("fp4", "fp8"):
        raise _Refused(f"expert_dtype {expert_dtype!r} is not one vLLM loads (fp4 or fp8)")
    if config.get("fp8_channelwise_layers"):
        raise _Refused("fp8_channelwise_layers (vLLM applies them on PPU platforms only) are not modelled")
    fp8 = _fp8(config, dtype)
    e8m0 = expert_dtype == "fp4" and fp8.linear.strategy == "block"  # is_scale_e8m0 sizes the block scales
    linear = replace(fp8.linear, scale="e8m0" if e8m0 else "")
    if expert_dtype == "fp8":
        experts, what = None, "fp8 routed experts"
    elif str(config.get("moe_quant_algo") or "").upper() == "NVFP4":
        experts, what = WeightSpec("nvfp4", bits=4, group=16, activations="fp4"), "NVFP4 routed experts"
    else:
        experts, what = WeightSpec("mxfp4", bits=4, group=32), "MXFP4 routed experts (e8m0 scale per 32)"
    label = f"{fp8.label}{' (e8m0)' if linear.scale else ''}, {what}"
    return Scheme("deepseek_v4_fp8", label, dtype, linear=linear, experts=experts, skip=fp8.skip, match="exact")


def _modelopt(config: Mapping[str, Any], dtype: str) -> Scheme:
    inner = config.get("quantization")
    inner = inner if isinstance(inner, Mapping) else config
    algo = str(inner.get("quant_algo", "")).upper()
    exclude = _str_list(inner, "exclude_modules") or _str_list(inner, "ignore")
    if algo == "MIXED_PRECISION":
        return _with_kv_cache(_modelopt_mixed(inner, dtype, exclude), config)
    if algo == "FP8":
        spec = WeightSpec("fp8", bits=8, strategy="tensor", static_input=True, activations="fp8")
        label = "ModelOpt FP8 (one scale per tensor, static input scales)"
    elif algo == "NVFP4":
        group = inner.get("group_size", 16)
        if group not in (None, 16):
            raise _Refused(f"NVFP4 with group_size {group} is not modelled")
        spec = WeightSpec("nvfp4", bits=4, group=16, activations="fp4")
        label = "ModelOpt NVFP4 (e2m1, fp8 scale per 16, fp32 per tensor)"
    else:
        raise _Refused(f"ModelOpt quant_algo {algo or '(none)'!r} is not modelled (FP8 and NVFP4 are)")
    if exclude:
        label += f" (excluded: {', '.join(exclude[:3])}{'…' if len(exclude) > 3 else ''})"
    return _with_kv_cache(Scheme("modelopt", label, dtype, linear=spec, skip=exclude, match="modelopt", lm_head=True),
                          config)


def _with_kv_cache(scheme: Scheme, config: Mapping[str, Any]) -> Scheme:
    """A ModelOpt checkpoint's KV-cache format, read as vLLM reads it (``get_kv_cache_quant_algo_string``,
    vllm/utils/torch_utils.py @ 0024350b5da3): ``kv_cache_scheme`` or ``kv_cache_quant_algo``, in the
    ``quantization`` section or beside it; 8-bit float is fp8, 4-bit float nvfp4. With
    ``--kv-cache-dtype auto`` vLLM stores the cache in that format: named, so the reader picks it."""
    inner = config.get("quantization")
    places = [p for p in (inner, config) if isinstance(p, Mapping)]
    algo = next((p.get(n) for n in ("kv_cache_scheme", "kv_cache_quant_algo") for p in places if p.get(n)), None)
    if isinstance(algo, Mapping):
        algo = {(8, "float"): "fp8", (4, "float"): "nvfp4"}.get((algo.get("num_bits"), algo.get("type")), "")
    kind = algo.lower() if isinstance(algo, str) else ""
    if kind not in ("fp8", "nvfp4"):
        return scheme
    from dataclasses import replace

    return replace(_with_note(scheme, f"The checkpoint asks for an {kind} KV cache (kv_cache_quant_algo): vLLM's "
                                      f"default --kv-cache-dtype auto stores it in {kind}; the KV cache precision "
                                      f"chosen here is the one sized."), kv_cache=kind)


#: ModelOpt's per-layer algorithms under MIXED_PRECISION (ModelOptMixedPrecisionConfig,
#: vllm/model_executor/layers/quantization/modelopt.py, 0.33.0): W4A16_NVFP4 is NVFP4 weights with
#: 16-bit activations (the FP4 Marlin GEMM, ``use_a16``).
_MIXED_ALGOS = {
    "FP8": WeightSpec("fp8", bits=8, strategy="tensor", static_input=True, activations="fp8"),
    "NVFP4": WeightSpec("nvfp4", bits=4, group=16, activations="fp4"),
    "W4A16_NVFP4": WeightSpec("nvfp4", bits=4, group=16),
    # ModelOptMxFp8Config: e4m3 weights with an e8m0 scale per 32 (its kernel's activations are not
    # modelled: the matmul is counted at 16 bits)
    "MXFP8": WeightSpec("mxfp8", bits=8, group=32),
}


def _modelopt_mixed(inner: Mapping[str, Any], dtype: str, exclude: tuple[str, ...]) -> Scheme:
    """``quant_algo`` MIXED_PRECISION: ``quantized_layers`` names each quantized layer and its
    algorithm; every other layer stays unquantized. A multimodal checkpoint's names carry the text
    model's ``language_model.`` (``model.language_model.layers.3...``), which vLLM strips when it
    matches (``_quantized_layer_prefix_candidates``): the tensors here are named without it."""
    listed = inner.get("quantized_layers")
    if not isinstance(listed, Mapping) or not listed:
        raise _Refused("MIXED_PRECISION needs a non-empty quantized_layers mapping")
    layers, counts = [], {}
    for name, info in listed.items():
        algo = str(info.get("quant_algo", "")).upper() if isinstance(info, Mapping) else ""
        if algo not in _MIXED_ALGOS:
            raise _Refused(f"ModelOpt MIXED_PRECISION layer algorithm {algo or '(none)'!r} is not modelled "
                           f"(FP8, NVFP4, W4A16_NVFP4 and MXFP8 are)")
        if algo in ("NVFP4", "W4A16_NVFP4") and info.get("group_size", 16) not in (None, 16):
            raise _Refused(f"{algo} with group_size {info.get('group_size')} is not modelled")
        if algo == "MXFP8" and ".experts." in str(name):
            # vLLM runs them through ModelOptMxFp8FusedMoE, whose kernels' layout is not read here
            raise _Refused("MXFP8 routed experts (ModelOptMxFp8FusedMoE) are not modelled")
        layers.append((str(name), _MIXED_ALGOS[algo]))
        counts[algo] = counts.get(algo, 0) + 1
    label = "ModelOpt mixed precision (" + ", ".join(
        f"{n} layers {'NVFP4 W4A16' if a == 'W4A16_NVFP4' else a}" for a, n in sorted(counts.items())) + \
        "; the rest in " + _short(dtype) + ")"
    return Scheme("modelopt", label, dtype, layers=tuple(layers), skip=exclude, match="modelopt", lm_head=True)


def _bitsandbytes(config: Mapping[str, Any], dtype: str) -> Scheme:
    skip = _str_list(config, "llm_int8_skip_modules")
    if config.get("load_in_4bit"):
        qtype = config.get("bnb_4bit_quant_type", "fp4")
        double = config.get("bnb_4bit_use_double_quant") is True
        spec = WeightSpec("nf4", bits=4, group=64, double_quant=double)
        label = f"bitsandbytes 4-bit {qtype}, absmax per 64" + (" (double-quantized)" if double else "")
    elif config.get("load_in_8bit"):
        spec = WeightSpec("fp8", dtype="int8", bits=8, strategy="channel")  # int8 rows + an fp32 SCB per row
        label = "bitsandbytes LLM.int8 (int8, an fp32 scale per row)"
    else:
        raise _Refused("neither load_in_4bit nor load_in_8bit is set")
    return Scheme("bitsandbytes", label, dtype, linear=spec, skip=skip, match="substring", max_vllm="0.27.0",
                  notes=("vLLM loaded bitsandbytes checkpoints up to 0.27.0; 0.28.0 removed the method "
                         "(vllm/model_executor/layers/quantization/bitsandbytes.py is gone): sized as 0.27.0 "
                         "held it.",))


_READERS = {
    "fp8": _fp8, "compressed-tensors": _compressed_tensors, "compressed_tensors": _compressed_tensors,
    "awq": _awq, "awq_marlin": _awq, "auto_awq": _awq, "gptq": _gptq, "gptq_marlin": _gptq, "auto_gptq": _gptq,
    "mxfp4": _mxfp4, "gpt_oss_mxfp4": _mxfp4, "modelopt": _modelopt, "modelopt_fp4": _modelopt,
    "bitsandbytes": _bitsandbytes,
}
#: Methods vLLM loads that this calculator does not size (quantization/__init__.py, 0.33.0).
VLLM_ONLY = ("fbgemm_fp8", "fp_quant", "modelopt_mxfp8", "modelopt_mixed", "humming", "experts_int8", "quark",
             "moe_wna16", "torchao", "inc", "mxfp8", "gguf")


def _short(dtype: str) -> str:
    return {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32"}.get(dtype, dtype)


def _spec_label(spec: WeightSpec) -> str:
    if spec.kind == "fp8":
        number = "int8" if spec.dtype == "int8" else "fp8"
        where = {"block": f"{spec.block[0]}×{spec.block[1]} blocks", "channel": "per channel"}.get(
            spec.strategy, "per tensor")
        return f"{'W8A8 ' if spec.activations else 'W8A16 '}{number}, scales {where}"
    if spec.kind == "int":
        group = "per channel" if spec.group == -1 else f"group {spec.group}"
        return f"W{spec.bits}A{8 if spec.activations == 'int8' else 16} int{spec.bits}, {group}" + (
            ", zero points" if spec.zero_point else "")
    if spec.kind == "nvfp4":
        return "NVFP4" + (" W4A4" if spec.activations == "fp4" else " W4A16")
    return spec.kind


def _with_note(scheme: Scheme, note: str) -> Scheme:
    from dataclasses import replace

    return replace(scheme, notes=scheme.notes + (note,))


#: Where a multimodal config nests its text model's fields.
_TEXT_CONFIGS = ("text_config", "language_config")


def _levels(config: Mapping[str, Any]) -> list[tuple[Mapping[str, Any], str]]:
    """The config and, when it nests one, its text model's config, each with its place's prefix."""
    nested = [(config.get(name), f"{name}.") for name in _TEXT_CONFIGS]
    return [(config, ""), *((where, prefix) for where, prefix in nested if isinstance(where, Mapping))]


def checkpoint_dtype(config: Mapping[str, Any]) -> str:
    """The unquantized tensors' dtype: ``torch_dtype`` (or transformers 4.56+'s ``dtype``), at the
    top level, else the text config's; bfloat16 when the config does not say. Every level is read."""
    found = [where.get(name) for where, _ in _levels(config) for name in ("torch_dtype", "dtype")]
    for value in found:
        if isinstance(value, str) and value in ("bfloat16", "float16", "float32", "half", "float"):
            return {"half": "float16", "float": "float32"}.get(value, value)
    return ""


def quantization_section(config: Mapping[str, Any]) -> tuple[Any, str]:
    """The checkpoint's quantization config and where it sits, read as vLLM's model config reads it
    (``get_quantization_config``, vllm/config/model.py): the top level's ``quantization_config``,
    else its ``compression_config`` (compressed-tensors' older name), else the text config's (Kimi
    K2.5 keeps its int4 scheme inside text_config). (None, "") when there is none."""
    for where, prefix in _levels(config):
        for name in ("quantization_config", "compression_config"):
            raw = where.get(name)
            if raw is not None:
                return raw, f"{prefix}{name}"
    return None, ""


def read_quantization(config: Mapping[str, Any]) -> Scheme:
    """The :class:`Scheme` of a config.json (its ``quantization_config``, or none: unquantized)."""
    dtype = checkpoint_dtype(config) or "bfloat16"
    raw, where = quantization_section(config)
    if raw is None:
        label = _short(dtype) + ("" if checkpoint_dtype(config) else " (the config names no dtype: bf16 taken)")
        return Scheme("none", label, dtype)
    if not isinstance(raw, Mapping):
        return Scheme("unreadable", "unreadable quantization_config", dtype,
                      unsupported="quantization_config is not an object")
    method = raw.get("quant_method")
    if not isinstance(method, str) or not method:
        if "quantization" in raw or "quant_algo" in raw:  # an hf_quant_config.json pasted as the config's
            method = "modelopt"
        else:
            return Scheme("unknown", "quantization_config without a quant_method", dtype,
                          unsupported="quantization_config has no quant_method")
    method = method.lower()
    reader = _READERS.get(method)
    if method in ("fp8", "deepseek_v4_fp8") and config.get("model_type") == "deepseek_v4":
        # vLLM's DeepseekV4FP8Config.override_quantization_method; expert_dtype sits beside the config's fields
        method, reader = "deepseek_v4_fp8", partial(_deepseek_v4_fp8, expert_dtype=config.get("expert_dtype", "fp4"))
    if reader is None:
        why = ("vLLM loads it, but this calculator does not size it" if method in VLLM_ONLY
               else "not a method this calculator knows")
        return Scheme(method, f"{method} (not modelled)", dtype, unsupported=f"quant_method {method!r}: {why}")
    try:
        scheme = reader(raw, dtype)
        if where and where != "quantization_config":
            scheme = _with_note(scheme, f"The quantization config is read from {where}, where this checkpoint "
                                        f"keeps it (vLLM looks there when the top level has none).")
        return scheme
    except _Refused as exc:
        return Scheme(method, f"{method} (not modelled)", dtype, unsupported=f"quant_method {method!r}: {exc}")
    except (TypeError, ValueError, IndexError, KeyError) as exc:
        return Scheme(method, f"{method} (unreadable)", dtype,
                      unsupported=f"quant_method {method!r}: its fields cannot be read ({exc})")


# -- formats a reader may choose instead of the checkpoint's ------------------------------------

SHIPPED = "shipped"
#: The weight-precision control: "as shipped" and the formats vLLM loads, each as the usual
#: release in that format lays it out (the LM head, embeddings, routers and norms unquantized).
FORMAT_CHOICES = (
    (SHIPPED, "As shipped (the checkpoint's format)"),
    ("bf16", "bf16 (2 bytes)"),
    ("fp16", "fp16 (2 bytes)"),
    ("fp8", "fp8 W8A8, per-channel scales (FP8-dynamic)"),
    ("fp8-block", "fp8 W8A8, 128×128 block scales (DeepSeek-style)"),
    ("w8a8-int8", "int8 W8A8, per-channel scales"),
    ("int8", "int8 weight-only, group 128 (GPTQ)"),
    ("int4", "int4 weight-only, group 128 (GPTQ / W4A16)"),
    ("awq", "int4 AWQ, group 128 with zero points"),
    ("nvfp4", "NVFP4 (fp8 scale per 16)"),
    ("mxfp4", "MXFP4 experts only (as gpt-oss)"),
    ("bnb-nf4", "bitsandbytes nf4 (vLLM ≤ 0.27)"),
)
FORMAT_IDS = tuple(fid for fid, _ in FORMAT_CHOICES)


def format_scheme(format_id: str, dtype: str = "bfloat16") -> Scheme:
    """The scheme of a chosen format for a model whose unquantized tensors are in ``dtype``."""
    if format_id in ("bf16", "fp16"):
        dtype = "bfloat16" if format_id == "bf16" else "float16"
        return Scheme("none", _short(dtype), dtype)
    configs = {
        "fp8": {"quant_method": "compressed-tensors", "format": "float-quantized", "ignore": ["lm_head"],
                "config_groups": {"g": {"targets": ["Linear"],
                                        "weights": {"num_bits": 8, "type": "float", "strategy": "channel"},
                                        "input_activations": {"num_bits": 8, "type": "float", "dynamic": True}}}},
        "fp8-block": {"quant_method": "fp8", "activation_scheme": "dynamic", "weight_block_size": [128, 128]},
        "w8a8-int8": {"quant_method": "compressed-tensors", "format": "int-quantized", "ignore": ["lm_head"],
                      "config_groups": {"g": {"targets": ["Linear"],
                                              "weights": {"num_bits": 8, "type": "int", "strategy": "channel"},
                                              "input_activations": {"num_bits": 8, "type": "int", "dynamic": True}}}},
        "int8": {"quant_method": "gptq", "bits": 8, "group_size": 128, "sym": True, "desc_act": False},
        "int4": {"quant_method": "gptq", "bits": 4, "group_size": 128, "sym": True, "desc_act": False},
        "awq": {"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True},
        "nvfp4": {"quant_method": "modelopt", "quant_algo": "NVFP4", "exclude_modules": ["lm_head"]},
        "mxfp4": {"quant_method": "mxfp4"},
        "bnb-nf4": {"quant_method": "bitsandbytes", "load_in_4bit": True, "bnb_4bit_quant_type": "nf4",
                    "bnb_4bit_use_double_quant": True},
    }
    if format_id not in configs:
        raise KeyError(f"unknown weight format {format_id!r}; known: {', '.join(FORMAT_IDS)}")
    return read_quantization({"quantization_config": configs[format_id], "torch_dtype": dtype})
