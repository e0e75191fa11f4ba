"""Mixture-of-experts fields under their many names, and which layers carry experts.

Names: the expert count is ``num_local_experts`` (Mixtral, Llama 4, gpt-oss), ``n_routed_experts``
(DeepSeek) or ``num_experts`` (Qwen MoE); the per-token count ``num_experts_per_tok`` or
``experts_per_token`` (gpt-oss lists both). An expert's width is ``moe_intermediate_size`` where
the config has one (DeepSeek, Qwen MoE; ``intermediate_size`` is then the dense MLP's), else
``intermediate_size`` (Mixtral, gpt-oss, Llama 4, whose dense layers use ``intermediate_size_mlp``).

Which layers, by transformers' rule for each family of fields:
* DeepSeek: layer i is MoE when ``i >= first_k_dense_replace and i % moe_layer_freq == 0``.
* Qwen MoE: when ``i not in mlp_only_layers and (i + 1) % decoder_sparse_step == 0``.
* Llama 4: the listed ``moe_layers``, else every ``interleave_moe_layer_step``-th layer from
  ``step - 1``.
* Otherwise (Mixtral, gpt-oss) every layer.

Shared experts: DeepSeek's ``n_shared_experts`` (of the expert width), Qwen MoE's one shared MLP
of ``shared_expert_intermediate_size`` with a sigmoid gate, Llama 4's one shared expert.

Latent MoE (Nemotron 3 Super, ``moe_latent_size``; ``NemotronHMoE`` in vLLM's
vllm/model_executor/models/nemotron_h.py): the router and the shared expert see the hidden state
at full width, but the routed path first projects it down to the latent width
(``fc1_latent_proj``, a ReplicatedLinear hidden → latent that takes the quant_config), runs the
routed experts at that width (FusedMoE's ``hidden_size`` is ``moe_latent_size``: each expert is
latent → ``moe_intermediate_size`` → latent) and projects the weighted sum back
(``fc2_latent_proj``, latent → hidden). The experts are thus narrower by hidden / latent, and the
two projections are read by every token.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ConfigError
from .fields import FieldReader, first_present
from .block_sparse_attention import fp32_router
from .experts_beside_mlp import experts_switched_off, router_extras
from .params import (MOE_LATENT, ROUTER, SHARED_EXPERTS, Params, gated_mlp, join, linear, routed_expert, router,
                     ungated_mlp)

EXPERT_COUNT_NAMES = ("num_local_experts", "n_routed_experts", "num_experts", "moe_num_experts")
#: ``top_k_experts``: Gemma 4 (transformers' Gemma4TextConfig).
EXPERTS_PER_TOKEN_NAMES = ("num_experts_per_tok", "experts_per_token", "num_experts_per_token", "moe_top_k",
                           "top_k_experts")
#: A per-layer list naming each layer's MLP (GLM-5.1 and 5.2): "dense" or "sparse" (experts).
_MLP_LAYER_KINDS = {"dense": False, "sparse": True}


@dataclass(frozen=True)
class ExpertPlan:
    experts: int = 0
    per_token: int = 0
    layers: tuple[int, ...] = ()  # indices of the MoE layers
    expert: int = 0  # one routed expert's parameters (Params: with its tensors)
    router: int = 0
    shared: int = 0  # all shared experts of one layer
    shared_count: int = 0
    latent: int = 0  # a latent MoE's two projections (Params), 0 otherwise
    latent_size: int = 0


#: Where each family keeps its MoE block in the checkpoint: (block, router's name in the block).
_MOE_MODULES = {"mixtral": ("block_sparse_moe", "gate"), "minimax_m3": ("block_sparse_moe", "gate"), "llama4_text": ("feed_forward", "router"),
                "gpt_oss": ("mlp", "router"), "gemma4_text": ("moe", "router.proj"),
                "nemotron_h": ("mixer", "gate")}
#: Where a family keeps its router outside its MoE block (Gemma 4's ``router`` beside ``moe``).
_ROUTER_OUTSIDE = ("gemma4_text",)
#: Families whose router vLLM stores in fp32 with an fp32 correction bias (MiniMax-M3's GateLinear
#: with params_dtype=torch.float32: vllm/models/minimax_m3/nvidia/model.py @ 90215894).
_FP32_ROUTERS = {"minimax_m3": fp32_router}
#: Families whose dense layers' MLP width has a field of its own (MiniMax-M3's MiniMaxM3MLP takes
#: ``dense_intermediate_size``; its experts and shared expert take ``intermediate_size``).
_DENSE_WIDTH_FIELDS = {"minimax_m3": "dense_intermediate_size"}


def _listed_moe_layers(reader: FieldReader, layers: int) -> tuple[list[int], str] | None:
    """The MoE layers where the config lists them one by one: ``mlp_layer_types`` ("dense" /
    "sparse", GLM-5.1 and 5.2) or a list-valued ``moe_layer_freq`` (0 / 1 per layer, MiniMax-M3 and
    MiMo-V2-Flash, as their vLLM model files read it). ``first_k_dense_replace`` and a whole-number
    ``moe_layer_freq``, when present, must agree: they are read and checked, not trusted over the list."""
    if reader.has("mlp_layer_types"):
        name = "mlp_layer_types"
        kinds = reader.str_list(name)
        unknown = sorted({k for k in kinds if k not in _MLP_LAYER_KINDS})
        if unknown:
            raise ConfigError(f"{reader.label(name)} has an MLP kind this calculator does not model: {unknown[0]!r} "
                              f"(known: dense, sparse)")
        flags = [_MLP_LAYER_KINDS[k] for k in kinds]
    elif isinstance(reader.raw("moe_layer_freq", aliases=False), (list, tuple)):
        name = "moe_layer_freq"
        values = reader.int_list(name)
        if set(values) - {0, 1}:
            raise ConfigError(f"{reader.label(name)} as a list must give 0 (dense) or 1 (MoE) for each layer")
        flags = [v == 1 for v in values]
    else:
        return None
    if len(flags) != layers:
        raise ConfigError(f"{reader.label(name)} lists {len(flags)} layers but num_hidden_layers is {layers}")
    first = reader.integer("first_k_dense_replace", default=0)
    freq = reader.integer("moe_layer_freq") if name != "moe_layer_freq" and reader.has("moe_layer_freq") else 1
    if any(flags[:first]) or (freq > 1 and flags != [i >= first and i % freq == 0 for i in range(layers)]):
        raise ConfigError(f"{reader.label(name)} and first_k_dense_replace / moe_layer_freq put the experts on "
                          f"different layers")
    indices = [i for i, moe in enumerate(flags) if moe]
    return indices, f"{name}, layer by layer"


def _moe_layers(reader: FieldReader, layers: int) -> tuple[list[int], str]:
    listed = _listed_moe_layers(reader, layers)
    if listed is not None:
        return listed
    if reader.has("first_k_dense_replace") or reader.has("moe_layer_freq") or reader.model_type.startswith("deepseek"):
        first = reader.integer("first_k_dense_replace", default=0)
        freq = max(1, reader.integer("moe_layer_freq", default=1))
        rule = (f"layers from first_k_dense_replace {first} on, every moe_layer_freq {freq}"
                + (f"; the first {first} layers keep a dense MLP" if first else ""))
        return [i for i in range(layers) if i >= first and i % freq == 0], rule
    if reader.has("decoder_sparse_step") or reader.has("mlp_only_layers") or reader.model_type.endswith("_moe"):
        step = max(1, reader.integer("decoder_sparse_step", default=1))
        dense = set(reader.int_list("mlp_only_layers") or [])
        rule = f"every decoder_sparse_step {step} layer" + (f", except mlp_only_layers {sorted(dense)}" if dense else "")
        return [i for i in range(layers) if i not in dense and (i + 1) % step == 0], rule
    listed = reader.int_list("moe_layers")
    if listed is not None:
        return sorted({i for i in listed if 0 <= i < layers}), f"moe_layers {listed}"
    if reader.has("interleave_moe_layer_step") or reader.model_type == "llama4_text":
        step = max(1, reader.integer("interleave_moe_layer_step"))
        rule = "every layer" if step == 1 else (
            f"interleave_moe_layer_step {step}: layers {step - 1}, {2 * step - 1}, {3 * step - 1}, ...; "
            f"the others are dense")
        return list(range(step - 1, layers, step)), rule
    return list(range(layers)), "every layer"


def dense_width_name(reader: FieldReader, has_experts: bool) -> str:
    """The field holding a dense MLP layer's width."""
    own = _DENSE_WIDTH_FIELDS.get(reader.model_type)
    if has_experts and own:
        return own
    return "intermediate_size_mlp" if has_experts and reader.has("intermediate_size_mlp") else "intermediate_size"


def _restated_widths(reader: FieldReader, width_name: str, width: int) -> None:
    """MiniMax-M3: vLLM sizes the routed experts and the shared expert by ``intermediate_size``
    (FusedMoE's and MiniMaxM3MLP's ``intermediate_size * n_shared_experts``); the config's
    ``moe_intermediate_size`` and ``shared_intermediate_size`` restate it, and are refused where they
    do not (which one the checkpoint holds is not known here)."""
    if reader.model_type not in _DENSE_WIDTH_FIELDS:
        return
    inner = reader.integer("intermediate_size")
    for name in ("moe_intermediate_size", "shared_intermediate_size"):
        value = reader.peek(name)
        if value is not None and value != inner:
            raise ConfigError(f"{reader.label(name)} {value} differs from intermediate_size {inner}, which vLLM's "
                              f"{reader.model_type} model sizes its experts by")
        reader.seen(name)


def read_experts(reader: FieldReader, hidden: int, layers: int, moe_layers: list[int] | None = None) -> ExpertPlan:
    """The config's experts; an empty plan for a dense model. ``moe_layers``: the MoE layers where the
    family fixes them itself (Nemotron-H's "E" blocks, Jamba's expert period)."""
    if experts_switched_off(reader):
        return ExpertPlan()
    count_name = first_present(reader, EXPERT_COUNT_NAMES)
    experts = reader.integer(count_name) if count_name else 0
    if not experts:
        return ExpertPlan()
    # another name for the same count (NVIDIA's GLM-5.2-NVFP4 lists num_experts beside n_routed_experts):
    # a restatement when it agrees, refused when it does not
    for other in EXPERT_COUNT_NAMES:
        if other != count_name and reader.peek(other) is not None:
            if reader.peek(other) != experts:
                raise ConfigError(f"{reader.label(other)} = {reader.peek(other)} contradicts "
                                  f"{reader.label(count_name)} = {experts}")
            reader.seen(other)
    per_token_name = first_present(reader, EXPERTS_PER_TOKEN_NAMES)
    if per_token_name is None:
        raise ConfigError(
            f"missing field {reader.label('num_experts_per_tok')}: {reader.label(count_name)} is "
            f"{experts}, so the config must say how many experts each token uses"
        )
    per_token = reader.integer(per_token_name)
    if not 1 <= per_token <= experts:
        raise ConfigError(f"{reader.label(per_token_name)} = {per_token} must be between 1 and {count_name} {experts}")
    if moe_layers is None:
        indices, rule = _moe_layers(reader, layers)
    else:
        indices, rule = list(moe_layers), "the layers the family's pattern marks as MoE"
    width_name = "moe_intermediate_size" if reader.has("moe_intermediate_size") else "intermediate_size"
    width = reader.integer(width_name)
    _restated_widths(reader, width_name, width)
    gpt_oss = reader.model_type == "gpt_oss"  # biases on the experts and the router
    block, router_name = _MOE_MODULES.get(reader.model_type, ("mlp", "gate"))
    latent_size = _latent_size(reader, hidden)
    latent = Params()
    if latent_size:
        bias = reader.boolean("mlp_bias", False)  # vLLM builds both with bias=config.mlp_bias
        latent = join(linear(hidden, latent_size, bias, module=f"{block}.fc1_latent_proj", group=MOE_LATENT),
                      linear(latent_size, hidden, bias, module=f"{block}.fc2_latent_proj", group=MOE_LATENT))
    expert_width = latent_size or hidden  # what a routed expert reads and writes
    # Nemotron-H's experts are relu² MLPs: up and down projections, no gate (NemotronHMLP).
    gated = reader.model_type != "nemotron_h"
    mlp = gated_mlp if gated else ungated_mlp
    shared_count, shared = 0, Params()
    if reader.has("n_shared_experts") or reader.has("num_shared_experts"):
        # vLLM builds DeepSeek's shared experts as one MLP n_shared_experts times as wide.
        shared_count = reader.integer("n_shared_experts" if reader.has("n_shared_experts") else "num_shared_experts")
        # Step 3.7 calls the shared expert's width share_expert_dim, MiniMax-M3 shared_intermediate_size.
        shared_name = first_present(reader, ("moe_shared_expert_intermediate_size", "share_expert_dim",
                                             "shared_intermediate_size"))
        shared_width = reader.integer(shared_name) if shared_name else width
        shared = mlp(hidden, shared_count * shared_width, prefix=f"{block}.shared_experts", group=SHARED_EXPERTS)
    elif reader.has("shared_intermediate_size") and reader.integer("shared_intermediate_size") > 0:
        shared_count = 1  # Granite 4.0-H's shared_mlp (input_linear to 2x the width, output_linear)
        shared = gated_mlp(hidden, reader.integer("shared_intermediate_size"), prefix="shared_mlp",
                           group=SHARED_EXPERTS)
    elif reader.has("shared_expert_intermediate_size"):
        shared_count = 1
        shared = join(  # + its sigmoid gate, a ReplicatedLinear(hidden, 1) vLLM never quantizes
            gated_mlp(hidden, reader.integer("shared_expert_intermediate_size"), prefix=f"{block}.shared_expert",
                      group=SHARED_EXPERTS),
            linear(hidden, 1, module=f"{block}.shared_expert_gate", group=ROUTER))
    elif reader.model_type == "llama4_text":
        shared_count = 1
        shared = gated_mlp(hidden, width, prefix=f"{block}.shared_expert", group=SHARED_EXPERTS)

    if len(indices) < layers and reader.model_type == "nemotron_h":
        dense_note = ""  # its non-MoE blocks are Mamba-2, attention and MLP blocks
    elif len(indices) < layers:
        dense_name = dense_width_name(reader, True)
        dense_note = f"; dense layers use {dense_name} {reader.integer(dense_name)}"
    elif width_name == "moe_intermediate_size" and reader.has("intermediate_size"):
        dense_note = f"; intermediate_size {reader.integer('intermediate_size')} is not used (no dense layer)"
    elif reader.has("intermediate_size_mlp"):
        dense_note = f"; intermediate_size_mlp {reader.integer('intermediate_size_mlp')} is not used (no dense layer)"
    else:
        dense_note = ""
    reader.traps.append(
        f"Mixture of experts ({count_name} {experts}, {per_token_name} {per_token}"
        + (f", {shared_count} shared expert{'s' if shared_count > 1 else ''}" if shared_count else "")
        + f"): experts of {width_name} {width} on {len(indices)} of {layers} layers ({rule}){dense_note}."
    )
    if reader.model_type == "llama4_text":
        reader.traps.append("Llama 4 names the expert width intermediate_size and the dense MLP width intermediate_size_mlp.")
    if latent_size:
        reader.traps.append(
            f"Latent MoE (moe_latent_size {latent_size}): the routed experts work at width {latent_size}, not "
            f"hidden_size {hidden}: each token is projected down (fc1_latent_proj, {hidden} → {latent_size}) before "
            f"its experts ({latent_size} → {width_name} {width} → {latent_size}) and back up after them "
            f"(fc2_latent_proj); the router and the shared expert read the full {hidden}. Each routed expert "
            f"holds {hidden / latent_size:g}× fewer parameters than it would at the hidden width.")
    return ExpertPlan(
        experts=experts, per_token=per_token, layers=tuple(indices),
        expert=routed_expert(expert_width, width, bias=gpt_oss, prefix=f"{block}.experts", gated=gated),
        router=(join(router(hidden, experts, module=router_name), router_extras(hidden, experts))
                if reader.model_type in _ROUTER_OUTSIDE
                else _FP32_ROUTERS[reader.model_type](hidden, experts, f"{block}.{router_name}")
                if reader.model_type in _FP32_ROUTERS
                else router(hidden, experts, bias=gpt_oss, module=f"{block}.{router_name}")),
        shared=shared, shared_count=shared_count, latent=latent, latent_size=latent_size,
    )


def _latent_size(reader: FieldReader, hidden: int) -> int:
    """``moe_latent_size``, read for Nemotron-H (the one family whose latent MoE is modelled); 0
    when absent or null (Nemotron 3 Nano's experts work at the hidden width). Elsewhere the field is
    refused: its experts' width would otherwise be guessed."""
    if not reader.has("moe_latent_size") or reader.raw("moe_latent_size") is None:
        return 0
    if reader.model_type != "nemotron_h":
        raise ConfigError(
            f"{reader.label('moe_latent_size')} describes a latent MoE (experts narrower than the hidden "
            f"state), modelled only for Nemotron-H (model_type 'nemotron_h'), not {reader.model_type or '(none)'!r}; "
            f"no figure is computed from another shape")
    size = reader.integer("moe_latent_size")
    if not 0 < size <= hidden:
        raise ConfigError(f"{reader.label('moe_latent_size')} = {size} must be between 1 and hidden_size {hidden}")
    return size
