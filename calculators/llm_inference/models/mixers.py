"""Linear-attention and state-space layers: which layers they are, the state they keep, their weights.

A hybrid model mixes attention layers (a KV cache that grows with the context) with layers that
keep one fixed state per sequence. Each family says it its own way, read here as transformers'
configuration classes and vLLM's model files define it:

* Qwen3-Next, Qwen3.5 (``qwen3_next``, ``qwen3_5_text``, ``qwen3_5_moe_text``): ``layer_types``
  ("linear_attention"/"full_attention"), else every ``full_attention_interval``-th layer (default
  4) attends fully; the others are Gated DeltaNet (``linear_num_key_heads``,
  ``linear_num_value_heads``, ``linear_key_head_dim``, ``linear_value_head_dim``,
  ``linear_conv_kernel_dim``). Full-attention layers gate their output (q_proj twice as wide).
* Nemotron-H (``nemotron_h``): ``hybrid_override_pattern``, one character per block: "M" Mamba-2,
  "*" attention, "-" MLP, "E" mixture of experts (``ALL_DECODER_LAYER_TYPES``,
  vllm/model_executor/models/nemotron_h.py).
* Granite 4.0-H (``granitemoehybrid``): ``layer_types`` ("mamba"/"attention"), every layer also an
  MoE block and a shared MLP.
* Falcon-H1 (``falcon_h1``): every layer runs attention and Mamba-2 side by side.
* Jamba (``jamba``): attention where ``i % attn_layer_period == attn_layer_offset``, Mamba-1
  elsewhere; experts where ``i % expert_layer_period == expert_layer_offset``.
* Kimi-Linear (``kimi_linear``): ``linear_attn_config`` lists the KDA and the (MLA) attention
  layers, 1-based (``KimiLinearConfig.is_kda_layer``: ``(layer_idx + 1) in kda_layers``).
* MiniMax-Text-01 / M1 (``minimax``, ``minimax_text_01``, ``minimax_m1``): ``attn_type_list`` (0 =
  lightning attention, 1 = softmax) or ``layer_types``.

Parameters are counted from the modules as checkpoints store them (transformers' modelling files
for Qwen3-Next, Granite, Falcon-H1, Jamba and MiniMax; vLLM's for Nemotron-H and Kimi-Linear).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ConfigError
from .fields import FieldReader
from .params import COLUMN, MIXER, ROW, Params, Tensor, conv1d, join, linear, norm, vector
from .shape import FULL, LINEAR, NONE, RecurrentState

#: The model types whose recurrent layers are read here.
GDN_TYPES = ("qwen3_next", "qwen3_5_text", "qwen3_5_moe_text", "qwen3_5", "qwen3_5_moe")
MINIMAX_TYPES = ("minimax", "minimax_text_01", "minimax_m1")
HYBRID_TYPES = (*GDN_TYPES, "nemotron_h", "granitemoehybrid", "falcon_h1", "jamba", "kimi_linear", *MINIMAX_TYPES)
#: Families with recurrent layers this calculator does not model: named when a config of one is
#: pasted, and refused.
UNMODELLED_TYPES = {
    "mamba": "Mamba-1 (attention-free)", "mamba2": "Mamba-2 (attention-free)", "falcon_mamba": "Falcon-Mamba",
    "zamba": "Zamba", "zamba2": "Zamba2 (shared attention blocks)", "bamba": "Bamba (Mamba-2 hybrid)",
    "lfm2": "LFM2 (short convolutions)", "lfm2_moe": "LFM2-MoE (short convolutions)", "plamo2": "PLaMo 2",
    "rwkv": "RWKV", "rwkv5": "RWKV-5", "rwkv6": "RWKV-6", "rwkv7": "RWKV-7", "recurrent_gemma": "RecurrentGemma",
    "xlstm": "xLSTM", "nemotron_h_puzzle": "Nemotron-H Puzzle",
    "bailing_moe_linear": "Ling-linear (lightning attention)", "qwen4_exp": "Qwen4-Exp (mixed state layouts)",
}
#: Fields that only a model with recurrent (or otherwise non-attention) layers has: a config that sets
#: one but is not of a family read here is refused, naming the field.
RECURRENT_FIELDS = (
    "hybrid_override_pattern", "linear_attn_config", "attn_type_list", "ssm_cfg", "mamba_d_state",
    "ssm_state_size", "linear_num_value_heads", "attn_layer_indices", "block_configs", "conv_L_cache",
    "full_attn_idxs", "layers_block_type",
)


@dataclass(frozen=True)
class HybridPlan:
    """What a hybrid config says, layer by layer.

    kinds: one (kind, size) per layer: ("full", 0) for attention, ("linear", 0) for a recurrent layer,
        ("none", 0) for Nemotron-H's MLP and MoE blocks.
    mixer_params: parameters of each layer's token mixer (attention, recurrent, or both in
        Falcon-H1; 0 for an MLP-only block).
    ffn: each layer's feed-forward ("dense", "moe" or "none") where the family fixes it layer by
        layer (Nemotron-H's blocks, Jamba's expert period, Falcon-H1); None: the usual MoE rules
        (:mod:`.experts`) apply.
    dense_width: the dense MLP's width; ``gated``: SwiGLU (gate, up, down) or plain (up, down).
    norms: each layer's norm weights; ``state``, ``state_layers``: the recurrent state.
    """

    kinds: tuple[tuple[str, int], ...]
    mixer_params: tuple[Params, ...]
    ffn: tuple[str, ...] | None
    norms: tuple[Params, ...]
    state: RecurrentState
    state_layers: int
    dense_width: int = 0
    gated: bool = True
    mlp_bias: bool = False


# -- the recurrent mixers' tensors -----------------------------------------------------------------
# Each builder returns the tensors as the checkpoint names them (``prefix`` is the mixer's module:
# "mixer" in Nemotron-H, "mamba" in Granite, Falcon-H1 and Jamba, "linear_attn" in Qwen3-Next,
# "self_attn" in Kimi-Linear and MiniMax); projections are split as vLLM splits them (in_proj by
# columns, out_proj by rows), per-head vectors with their heads.

def mamba2_params(hidden: int, inner: int, groups: int, state: int, heads: int, kernel: int, *,
                  conv_bias: bool, proj_bias: bool, gated_norm: bool = True, out_bias: bool | None = None,
                  prefix: str = "mixer") -> Params:
    """Mamba-2 (``MambaMixer2`` / ``*Mixer``): in_proj to z, x, B, C and dt (2·I + 2·G·N + H);
    a depthwise conv over x, B, C (I + 2·G·N channels, K taps, optional bias); A_log, D, dt_bias (H
    each); the gated RMSNorm over I; out_proj back (its bias ``out_bias``, else ``proj_bias``)."""
    conv_dim = inner + 2 * groups * state
    return join(
        linear(hidden, inner + conv_dim + heads, proj_bias, module=f"{prefix}.in_proj", group=MIXER, split=COLUMN),
        conv1d(conv_dim, kernel, f"{prefix}.conv1d", bias=conv_bias),
        *(vector(MIXER, f"{prefix}.{name}", heads, name) for name in ("A_log", "D", "dt_bias")),
        norm(inner, f"{prefix}.norm", split=COLUMN) if gated_norm else Params(),
        linear(inner, hidden, proj_bias if out_bias is None else out_bias, module=f"{prefix}.out_proj", group=MIXER,
               split=ROW))


def mamba1_params(hidden: int, inner: int, state: int, kernel: int, dt_rank: int, *, conv_bias: bool,
                  proj_bias: bool, inner_norms: bool = True, prefix: str = "mamba") -> Params:
    """Mamba-1 (``JambaMambaMixer``): in_proj (2·I), conv (I × K + bias), x_proj (dt_rank + 2N),
    dt_proj (I, with bias), A_log (I × N), D (I), out_proj, and Jamba's dt/B/C RMSNorms."""
    parts = [
        linear(hidden, 2 * inner, proj_bias, module=f"{prefix}.in_proj", group=MIXER, split=COLUMN),
        conv1d(inner, kernel, f"{prefix}.conv1d", bias=conv_bias),
        linear(inner, dt_rank + 2 * state, module=f"{prefix}.x_proj", group=MIXER, split=ROW),
        linear(dt_rank, inner, True, module=f"{prefix}.dt_proj", group=MIXER, split=COLUMN),
        Params([Tensor(MIXER, f"{prefix}.A_log", (inner, state), COLUMN, param="A_log")]),
        vector(MIXER, f"{prefix}.D", inner, "D"),
        linear(inner, hidden, proj_bias, module=f"{prefix}.out_proj", group=MIXER, split=ROW),
    ]
    if inner_norms:
        parts += [norm(dt_rank, f"{prefix}.dt_layernorm"), norm(state, f"{prefix}.b_layernorm"),
                  norm(state, f"{prefix}.c_layernorm")]
    return join(*parts)


def gdn_params(hidden: int, k_heads: int, v_heads: int, k_dim: int, v_dim: int, kernel: int, *,
               prefix: str = "linear_attn", split_projections: bool = False) -> Params:
    """Gated DeltaNet (``Qwen3NextGatedDeltaNet``): in_proj_qkvz (2·Kh·Kd + 2·Vh·Vd), in_proj_ba
    (2·Vh), the conv over q, k, v (2·Kh·Kd + Vh·Vd channels, K taps, no bias), dt_bias and A_log
    (Vh each), the gated norm over Vd, out_proj. Qwen3.5's checkpoints store the projections apart
    (``split_projections``: in_proj_qkv, in_proj_z, in_proj_b, in_proj_a; the same sizes)."""
    key, value = k_heads * k_dim, v_heads * v_dim
    if split_projections:
        projections = [linear(hidden, width, module=f"{prefix}.{name}", group=MIXER, split=COLUMN)
                       for name, width in (("in_proj_qkv", 2 * key + value), ("in_proj_z", value),
                                           ("in_proj_b", v_heads), ("in_proj_a", v_heads))]
    else:
        projections = [linear(hidden, 2 * key + 2 * value, module=f"{prefix}.in_proj_qkvz", group=MIXER, split=COLUMN),
                       linear(hidden, 2 * v_heads, module=f"{prefix}.in_proj_ba", group=MIXER, split=COLUMN)]
    return join(
        *projections,
        conv1d(2 * key + value, kernel, f"{prefix}.conv1d"),
        vector(MIXER, f"{prefix}.dt_bias", v_heads, "dt_bias"), vector(MIXER, f"{prefix}.A_log", v_heads, "A_log"),
        norm(v_dim, f"{prefix}.norm"),
        linear(value, hidden, module=f"{prefix}.out_proj", group=MIXER, split=ROW))


def kda_params(hidden: int, heads: int, head_dim: int, kernel: int, *, prefix: str = "self_attn") -> Params:
    """Kimi Delta Attention (vllm/model_executor/layers/kda.py, 0.21.0): q, k, v projections
    (H·D each), their three convs (K taps), f_a/f_b and g_a/g_b low-rank gates through D, dt_bias
    (H·D), b_proj (H), A_log (H), the gated norm over D, o_proj."""
    proj = heads * head_dim
    parts = [linear(hidden, proj, module=f"{prefix}.{x}_proj", group=MIXER, split=COLUMN) for x in "qkv"]
    parts += [conv1d(proj, kernel, f"{prefix}.{x}_conv1d") for x in "qkv"]
    for gate in "fg":
        parts += [linear(hidden, head_dim, module=f"{prefix}.{gate}_a_proj", group=MIXER),
                  linear(head_dim, proj, module=f"{prefix}.{gate}_b_proj", group=MIXER, split=COLUMN)]
    parts += [vector(MIXER, f"{prefix}.dt_bias", proj, "dt_bias"),
              linear(hidden, heads, module=f"{prefix}.b_proj", group=MIXER, split=COLUMN),
              vector(MIXER, f"{prefix}.A_log", heads, "A_log"), norm(head_dim, f"{prefix}.o_norm"),
              linear(proj, hidden, module=f"{prefix}.o_proj", group=MIXER, split=ROW)]
    return join(*parts)


def lightning_params(hidden: int, heads: int, head_dim: int, *, prefix: str = "self_attn") -> Params:
    """MiniMax's lightning attention (``MiniMaxLightningAttention``): qkv_proj (3·H·D), output_gate
    (H·D), the norm over H·D, out_proj."""
    proj = heads * head_dim
    return join(linear(hidden, 3 * proj, module=f"{prefix}.qkv_proj", group=MIXER, split=COLUMN),
                linear(hidden, proj, module=f"{prefix}.output_gate", group=MIXER, split=COLUMN),
                norm(proj, f"{prefix}.norm", split=COLUMN),
                linear(proj, hidden, module=f"{prefix}.out_proj", group=MIXER, split=ROW))


def _two_norms(hidden: int) -> Params:
    return join(norm(hidden, "input_layernorm"), norm(hidden, "post_attention_layernorm"))


# -- reading the families -------------------------------------------------------------------------

def _auto_head_dim(reader: FieldReader, name: str, inner: int, heads: int) -> int:
    raw = reader.raw(name)
    if raw == "auto" or raw is None or not reader.has(name):
        if heads <= 0 or inner % heads:
            raise ConfigError(f"{reader.label(name)} is 'auto' but the SSM inner size {inner} does not split into "
                              f"{heads} heads")
        return inner // heads
    return reader.integer(name)


def _explicit_ssm_dtype(reader: FieldReader, names: tuple[str, ...], default: str) -> str:
    for name in names:
        value = reader.raw(name)
        if isinstance(value, str) and value:
            value = {"bf16": "bfloat16", "fp32": "float32", "fp16": "float16"}.get(value, value)
            if value not in ("float32", "float16", "bfloat16", "auto"):
                raise ConfigError(f"{reader.label(name)} = {value!r} is not a state dtype this calculator models "
                                  f"(float32, float16, bfloat16)")
            reader.traps.append(f"{reader.label(name)} {value}: the recurrent (SSM) state is kept in {value}, "
                                f"whatever the KV cache's dtype.")
            return value
    return default


def _gdn(reader: FieldReader, hidden: int, layers: int, attention_params: int) -> HybridPlan:
    types = reader.str_list("layer_types")
    if types is not None:
        if len(types) != layers:
            raise ConfigError(f"{reader.label('layer_types')} lists {len(types)} layers but num_hidden_layers is {layers}")
        unknown = sorted({t for t in types if t not in ("linear_attention", "full_attention")})
        if unknown:
            raise ConfigError(f"{reader.label('layer_types')} has a layer kind this calculator does not model: "
                              f"{unknown[0]!r} (known for {reader.model_type}: linear_attention, full_attention)")
        linear_layer = [t == "linear_attention" for t in types]
        rule = "layer_types"
        reader.seen("full_attention_interval")  # layer_types lists what the interval would imply
    else:
        every = reader.integer("full_attention_interval", default=4)
        if every < 1:
            raise ConfigError(f"{reader.label('full_attention_interval')} must be at least 1, got {every}")
        linear_layer = [bool((i + 1) % every) for i in range(layers)]
        rule = f"full_attention_interval {every}: every {every}th layer attends fully"
    kh, vh = reader.integer("linear_num_key_heads"), reader.integer("linear_num_value_heads")
    kd, vd = reader.integer("linear_key_head_dim"), reader.integer("linear_value_head_dim")
    kernel = reader.integer("linear_conv_kernel_dim")
    state = RecurrentState("gated_deltanet", heads=vh, head_dim=vd, state_dim=kd, conv_channels=2 * kh * kd + vh * vd,
                           conv_kernel=kernel,
                           ssm_dtype=_explicit_ssm_dtype(reader, ("mamba_ssm_dtype", "mamba_ssm_cache_dtype"), "auto"))
    mixer = gdn_params(hidden, kh, vh, kd, vd, kernel, split_projections=reader.model_type.startswith("qwen3_5"))
    n_linear = sum(linear_layer)
    reader.traps.append(
        f"Hybrid attention ({rule}): {layers - n_linear} of {layers} layers attend fully and cache keys and "
        f"values; the other {n_linear} are Gated DeltaNet linear attention, which keeps a fixed state per "
        f"sequence ({vh} value heads × {vd} × {kd} recurrent state and a {kernel - 1}-token convolution window "
        f"over {2 * kh * kd + vh * vd} channels) instead of a KV cache.")
    return HybridPlan(
        kinds=tuple((LINEAR, 0) if lin else (FULL, 0) for lin in linear_layer),
        mixer_params=tuple(mixer if lin else attention_params for lin in linear_layer),
        ffn=None, norms=(_two_norms(hidden),) * layers, state=state, state_layers=n_linear)


#: Nemotron 3 Ultra and 3.5 name each block in ``layers_block_type`` (transformers' NemotronHConfig
#: from 4.57); the older configs spell the same in ``hybrid_override_pattern``.
_BLOCK_NAMES = {"mamba": "M", "attention": "*", "mlp": "-", "moe": "E"}


def _nemotron_pattern(reader: FieldReader) -> str:
    """The block pattern, one character per layer, from whichever field the config has (both: they
    must agree)."""
    pattern = reader.raw("hybrid_override_pattern")
    blocks = reader.str_list("layers_block_type")
    if blocks is not None:
        unknown = sorted({b for b in blocks if b not in _BLOCK_NAMES})
        if unknown:
            raise ConfigError(f"{reader.label('layers_block_type')} has a block kind this calculator does not model: "
                              f"{unknown[0]!r} (known: {', '.join(_BLOCK_NAMES)})")
        listed = "".join(_BLOCK_NAMES[b] for b in blocks)
        if isinstance(pattern, str) and pattern != listed:
            raise ConfigError(f"{reader.label('hybrid_override_pattern')} and layers_block_type describe different "
                              f"blocks")
        return listed
    if not isinstance(pattern, str):
        raise ConfigError(f"missing field {reader.label('hybrid_override_pattern')} (Nemotron-H's block pattern; "
                          f"newer configs list it as layers_block_type)")
    return pattern


def _nemotron_h(reader: FieldReader, hidden: int, layers: int, attention_params: int) -> HybridPlan:
    pattern = _nemotron_pattern(reader)
    if len(pattern) != layers:
        raise ConfigError(f"{reader.label('hybrid_override_pattern')} has {len(pattern)} blocks but "
                          f"num_hidden_layers is {layers}")
    unknown = sorted(set(pattern) - set("M*-E"))
    if unknown:
        raise ConfigError(f"{reader.label('hybrid_override_pattern')} has a block kind this calculator does not model: "
                          f"{unknown[0]!r} (known: M Mamba-2, * attention, - MLP, E MoE)")
    heads, head_dim = reader.integer("mamba_num_heads"), reader.integer("mamba_head_dim")
    reader.seen("expand")  # vLLM sizes the inner width from the heads, not from expand × hidden
    groups, n = reader.integer("n_groups"), reader.integer("ssm_state_size")
    kernel = reader.integer("conv_kernel")
    inner = heads * head_dim  # vLLM: intermediate_size=config.mamba_num_heads * config.mamba_head_dim
    mamba = mamba2_params(hidden, inner, groups, n, heads, kernel, conv_bias=reader.boolean("use_conv_bias", True),
                          proj_bias=reader.boolean("use_bias", False))
    dtype = _explicit_ssm_dtype(reader, ("mamba_ssm_cache_dtype",), "nemotron_h")
    state = RecurrentState("mamba2", heads=heads, head_dim=head_dim, state_dim=n, conv_channels=inner, groups=groups,
                           conv_kernel=kernel, ssm_dtype=dtype, chunk_size=reader.integer("chunk_size", default=0))
    kinds, mixers, ffn = [], [], []
    for block in pattern:
        kinds.append({"M": (LINEAR, 0), "*": (FULL, 0)}.get(block, (NONE, 0)))
        mixers.append({"M": mamba, "*": attention_params}.get(block, Params()))
        ffn.append({"-": "dense", "E": "moe"}.get(block, "none"))
    counts = {b: pattern.count(b) for b in "M*-E"}
    reader.traps.append(
        f"Nemotron-H blocks ({'layers_block_type' if reader.has('layers_block_type') else 'hybrid_override_pattern'}): "
        f"{counts['M']} Mamba-2, {counts['*']} attention, "
        f"{counts['-']} MLP and {counts['E']} MoE blocks; only the {counts['*']} attention blocks cache keys and "
        f"values, each Mamba-2 block keeps a fixed state per sequence ({heads} heads × {head_dim} × {n}) and "
        f"a {kernel - 1}-token convolution window."
        + ("" if dtype != "nemotron_h" else " mamba_ssm_cache_dtype is not set: vLLM keeps the SSM state in "
           "float32 from 0.20 (float16 in 0.13–0.19)."))
    width = reader.integer("intermediate_size", required=counts["-"] > 0, default=0) if counts["-"] else 0
    if not counts["-"]:
        reader.seen("intermediate_size")  # the dense MLP blocks' width: there are none
    return HybridPlan(kinds=tuple(kinds), mixer_params=tuple(mixers), ffn=tuple(ffn), norms=(norm(hidden, "norm"),) * layers,
                      state=state, state_layers=counts["M"], dense_width=width, gated=False,
                      mlp_bias=reader.boolean("mlp_bias", False))


def _mamba2_fields(reader: FieldReader, hidden: int, inner: int) -> tuple[int, int, int, int, int]:
    heads = reader.integer("mamba_n_heads")
    head_dim = _auto_head_dim(reader, "mamba_d_head", inner, heads)
    return heads, head_dim, reader.integer("mamba_n_groups"), reader.integer("mamba_d_state"), reader.integer("mamba_d_conv")


def _granite(reader: FieldReader, hidden: int, layers: int, attention_params: int) -> HybridPlan:
    types = reader.str_list("layer_types") or reader.str_list("layers_block_type")
    if types is None:
        raise ConfigError(f"missing field {reader.label('layer_types')} (Granite 4.0-H's mamba/attention layers)")
    if len(types) != layers:
        raise ConfigError(f"{reader.label('layer_types')} lists {len(types)} layers but num_hidden_layers is {layers}")
    unknown = sorted(set(types) - {"mamba", "attention"})
    if unknown:
        raise ConfigError(f"{reader.label('layer_types')} has a layer kind this calculator does not model: "
                          f"{unknown[0]!r} (known for granitemoehybrid: mamba, attention)")
    expand = reader.integer("mamba_expand", default=2)
    inner = expand * hidden
    heads, head_dim, groups, n, kernel = _mamba2_fields(reader, hidden, inner)
    mamba = mamba2_params(hidden, inner, groups, n, heads, kernel, conv_bias=reader.boolean("mamba_conv_bias", True),
                          proj_bias=reader.boolean("mamba_proj_bias", False), prefix="mamba")
    state = RecurrentState("mamba2", heads=heads, head_dim=head_dim, state_dim=n, conv_channels=inner, groups=groups,
                           conv_kernel=kernel,
                           ssm_dtype=_explicit_ssm_dtype(reader, ("mamba_ssm_cache_dtype",), "auto"),
                           chunk_size=reader.integer("mamba_chunk_size", default=0))
    mamba_layers = types.count("mamba")
    reader.traps.append(
        f"Granite 4.0-H layer_types: {layers - mamba_layers} attention and {mamba_layers} Mamba-2 layers; only "
        f"the attention layers cache keys and values, each Mamba-2 layer keeps a fixed state per sequence "
        f"({heads} heads × {head_dim} × {n}, {groups} group{'s' if groups > 1 else ''}).")
    return HybridPlan(
        kinds=tuple((LINEAR, 0) if t == "mamba" else (FULL, 0) for t in types),
        mixer_params=tuple(mamba if t == "mamba" else attention_params for t in types),
        ffn=None, norms=(_two_norms(hidden),) * layers, state=state, state_layers=mamba_layers)


def _falcon_h1(reader: FieldReader, hidden: int, layers: int, attention_params: int) -> HybridPlan:
    d_ssm = reader.integer("mamba_d_ssm", required=False, null_ok=True)
    inner = d_ssm or reader.integer("mamba_expand", default=2) * hidden
    reader.seen("mamba_expand")  # mamba_d_ssm, when set, gives the inner width expand × hidden would
    heads, head_dim, groups, n, kernel = _mamba2_fields(reader, hidden, inner)
    # out_proj's bias follows projectors_bias in FalconH1Mixer (the in_proj follows mamba_proj_bias).
    mamba = mamba2_params(hidden, inner, groups, n, heads, kernel, conv_bias=reader.boolean("mamba_conv_bias", True),
                          proj_bias=reader.boolean("mamba_proj_bias", False),
                          gated_norm=reader.boolean("mamba_rms_norm", False),
                          out_bias=reader.boolean("projectors_bias", False), prefix="mamba")
    state = RecurrentState("mamba2", heads=heads, head_dim=head_dim, state_dim=n, conv_channels=inner, groups=groups,
                           conv_kernel=kernel,
                           ssm_dtype=_explicit_ssm_dtype(reader, ("mamba_ssm_cache_dtype",), "auto"),
                           chunk_size=reader.integer("mamba_chunk_size", default=0))
    reader.traps.append(
        f"Falcon-H1 runs attention and Mamba-2 side by side in every one of its {layers} layers: each caches keys "
        f"and values and also keeps a fixed Mamba-2 state per sequence ({heads} heads × {head_dim} × {n}).")
    return HybridPlan(kinds=((FULL, 0),) * layers, mixer_params=(join(attention_params, mamba),) * layers,
                      ffn=("dense",) * layers, norms=(_two_norms(hidden),) * layers, state=state, state_layers=layers,
                      dense_width=reader.integer("intermediate_size"), mlp_bias=reader.boolean("mlp_bias", False))


def _jamba(reader: FieldReader, hidden: int, layers: int, attention_params: int) -> HybridPlan:
    period, offset = reader.integer("attn_layer_period", default=8), reader.integer("attn_layer_offset", default=4)
    e_period = reader.integer("expert_layer_period", default=2)
    e_offset = reader.integer("expert_layer_offset", default=1)
    if period < 1 or e_period < 1:
        raise ConfigError("attn_layer_period and expert_layer_period must be at least 1")
    inner = reader.integer("mamba_expand", default=2) * hidden
    n, kernel = reader.integer("mamba_d_state", default=16), reader.integer("mamba_d_conv", default=4)
    rank = reader.raw("mamba_dt_rank")
    dt_rank = -(-hidden // 16) if rank in ("auto", None) or not reader.has("mamba_dt_rank") else reader.integer("mamba_dt_rank")
    mamba = mamba1_params(hidden, inner, n, kernel, dt_rank, conv_bias=reader.boolean("mamba_conv_bias", True),
                          proj_bias=reader.boolean("mamba_proj_bias", False))
    state = RecurrentState("mamba1", heads=inner, head_dim=1, state_dim=n, conv_channels=inner, conv_kernel=kernel,
                           ssm_dtype=_explicit_ssm_dtype(reader, ("mamba_ssm_cache_dtype",), "auto"))
    attn = [i % period == offset for i in range(layers)]
    experts = reader.integer("num_experts", default=0)
    ffn = tuple("moe" if experts > 1 and i % e_period == e_offset else "dense" for i in range(layers))
    reader.traps.append(
        f"Jamba: attention on layers i with i % attn_layer_period {period} == attn_layer_offset {offset} "
        f"({sum(attn)} of {layers}); the others are Mamba-1 layers with a fixed state per sequence ({inner} "
        f"channels × {n}) and no KV cache.")
    return HybridPlan(kinds=tuple((FULL, 0) if a else (LINEAR, 0) for a in attn),
                      mixer_params=tuple(attention_params if a else mamba for a in attn), ffn=ffn,
                      norms=(_two_norms(hidden),) * layers, state=state, state_layers=layers - sum(attn),
                      dense_width=reader.integer("intermediate_size"))


def _kimi_linear(reader: FieldReader, hidden: int, layers: int, attention_params: int) -> HybridPlan:
    cfg = reader.raw("linear_attn_config")
    if not isinstance(cfg, dict):
        raise ConfigError(f"missing field {reader.label('linear_attn_config')} (Kimi-Linear's KDA layers)")
    kda_layers = cfg.get("kda_layers")
    if not isinstance(kda_layers, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in kda_layers):
        raise ConfigError(f"{reader.label('linear_attn_config')}.kda_layers must be a list of layer numbers")
    try:
        heads, head_dim, kernel = (int(cfg["num_heads"]), int(cfg["head_dim"]), int(cfg["short_conv_kernel_size"]))
    except (KeyError, TypeError, ValueError):
        raise ConfigError(f"{reader.label('linear_attn_config')} needs num_heads, head_dim and short_conv_kernel_size") from None
    kda = set(kda_layers)
    is_kda = [(i + 1) in kda for i in range(layers)]
    state = RecurrentState("kda", heads=heads, head_dim=head_dim, state_dim=head_dim,
                           conv_channels=3 * heads * head_dim, conv_kernel=kernel)
    mixer = kda_params(hidden, heads, head_dim, kernel)
    reader.traps.append(
        f"Kimi-Linear: linear_attn_config lists {sum(is_kda)} KDA layers (1-based) with a fixed state per sequence "
        f"({heads} heads × {head_dim} × {head_dim} in fp32) and {layers - sum(is_kda)} MLA layers that cache the latent.")
    return HybridPlan(kinds=tuple((LINEAR, 0) if k else (FULL, 0) for k in is_kda),
                      mixer_params=tuple(mixer if k else attention_params for k in is_kda),
                      ffn=None, norms=(_two_norms(hidden),) * layers, state=state, state_layers=sum(is_kda))


def _minimax(reader: FieldReader, hidden: int, layers: int, attention_params: int, heads: int,
             head_dim: int) -> HybridPlan:
    kinds_raw = reader.int_list("attn_type_list") or reader.int_list("decoder_attention_types")
    if kinds_raw is None:
        types = reader.str_list("layer_types")
        if types is None:
            kinds_raw = [1] * layers
        else:
            names = {"linear_attention": 0, "full_attention": 1}
            unknown = sorted({t for t in types if t not in names})
            if unknown:
                raise ConfigError(f"{reader.label('layer_types')} has a layer kind this calculator does not model: "
                                  f"{unknown[0]!r}")
            kinds_raw = [names[t] for t in types]
    if len(kinds_raw) != layers or set(kinds_raw) - {0, 1}:
        raise ConfigError(f"{reader.label('attn_type_list')} must give 0 (lightning) or 1 (softmax) for each of the "
                          f"{layers} layers")
    lightning = lightning_params(hidden, heads, head_dim)
    state = RecurrentState("lightning", heads=heads, head_dim=head_dim, state_dim=head_dim)
    n_linear = kinds_raw.count(0)
    reader.traps.append(
        f"MiniMax attn_type_list: {n_linear} lightning-attention layers (a fixed {heads} × {head_dim} × {head_dim} "
        f"state per sequence) and {layers - n_linear} softmax-attention layers with a KV cache.")
    return HybridPlan(kinds=tuple((LINEAR, 0) if k == 0 else (FULL, 0) for k in kinds_raw),
                      mixer_params=tuple(lightning if k == 0 else attention_params for k in kinds_raw),
                      ffn=None, norms=(_two_norms(hidden),) * layers, state=state, state_layers=n_linear)


def _all_softmax(reader: FieldReader, layers: int) -> bool:
    """Whether ``attn_type_list`` marks every layer softmax attention (1), as MiniMax-M2's configs do
    (vLLM's minimax_m2.py never reads the list: every layer is full attention). Such a list describes
    a plain transformer, so it is read and accepted; a 0 (lightning attention) outside the MiniMax-Text
    families is still refused."""
    kinds = reader.peek("attn_type_list")
    if not (isinstance(kinds, list) and len(kinds) == layers
            and all(k == 1 and not isinstance(k, bool) for k in kinds)):
        return False
    reader.seen("attn_type_list")
    reader.traps.append(f"attn_type_list marks all {layers} layers 1 (softmax attention): every layer caches keys "
                        f"and values, none is linear attention.")
    return True


def refuse_unmodelled(reader: FieldReader) -> None:
    """Raise ConfigError naming the model type when it is a recurrent architecture this calculator
    does not model (checked before any field is read, so the note names the kind, not a field)."""
    kind = reader.model_type
    if kind in UNMODELLED_TYPES:
        raise ConfigError(f"model_type {kind!r} ({UNMODELLED_TYPES[kind]}) has layers this calculator does not model; "
                          f"no figure is computed from another shape")


def read_hybrid(reader: FieldReader, hidden: int, layers: int, attention_params: int, heads: int,
                head_dim: int) -> HybridPlan | None:
    """The hybrid layout of a config, or None for a pure transformer. Raises ConfigError, naming the
    model type or field, for a recurrent architecture this calculator does not model."""
    refuse_unmodelled(reader)
    kind = reader.model_type
    if kind in GDN_TYPES and (reader.has("linear_num_value_heads") or reader.has("layer_types")):
        return _gdn(reader, hidden, layers, attention_params)
    if kind == "nemotron_h":
        return _nemotron_h(reader, hidden, layers, attention_params)
    if kind == "granitemoehybrid":
        return _granite(reader, hidden, layers, attention_params)
    if kind == "falcon_h1":
        return _falcon_h1(reader, hidden, layers, attention_params)
    if kind == "jamba":
        return _jamba(reader, hidden, layers, attention_params)
    if kind == "kimi_linear":
        return _kimi_linear(reader, hidden, layers, attention_params)
    if kind in MINIMAX_TYPES:
        return _minimax(reader, hidden, layers, attention_params, heads, head_dim)
    softmax_only = _all_softmax(reader, layers)
    for name in RECURRENT_FIELDS:
        if reader.has(name) and not (name == "attn_type_list" and softmax_only):
            raise ConfigError(
                f"{reader.label(name)} describes layers without (or beside) attention, but model_type "
                f"{kind or '(none)'!r} is not a family whose layers this calculator models (it reads Qwen3-Next/"
                f"Qwen3.5, Nemotron-H, Granite 4.0-H, Falcon-H1, Jamba, Kimi-Linear and MiniMax-Text-01); no figure "
                f"is computed from another shape")
    return None
