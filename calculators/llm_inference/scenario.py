"""The reader's scenario: one model and one deployment, shared by kv-cache, decode-roofline and
unit-economics under the same parameter names, choices and ``scenario=`` keys.

A calculator builds its parameters in :mod:`.scenario_params` and resolves them here with
:func:`make_resolve`:

* choosing a catalogue model fills every shape parameter from its published config.json;
* a pasted config.json (``config``) fills them the same way, names every trap the reading met,
  and is matched with the catalogue; a config that cannot be read — or holds a layer kind the
  calculators do not model — says why, and nothing is computed from it (:func:`refused`);
* editing a filled parameter makes the model ``custom`` (the browser switches the select).

:func:`model_from_inputs` turns the resolved parameters into a :class:`physics.Model`; the
physics never sees a parameter dictionary.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from functools import cache, lru_cache
from typing import Any, Callable, Mapping

from course_calculators.spec import Output
from course_calculators.units import format_count

from . import deployment_inputs, deployment_inputs_lora, deployment_inputs_speculation
from .hardware import GPUS
from .models import (CATALOGUE, ConfigError, ModelShape, catalogue_shape, get_entry, match_catalogue_all,
                     parse_config)
from .models import params as mp
from .models.quantization import SHIPPED, Scheme, format_scheme
from .physics import CHUNKED, GQA, MLA, SLIDING, Engine, Layout, Model
from .physics.model import SideModules
from .physics import kv
from .engines import vllm_releases
from .physics.budget import Pool
from .physics.deployment import Deployment, deploy
from .engines.vllm_hybrid import Mixer
from .physics.placement import DP, TP
from .physics.weights import WeightPlan, Weights, format_of
from .engines.vllm_encoder import DEFAULT_LIMIT_PER_PROMPT as DEFAULT_LIMIT, VisionEncoder, tower_loaded

CUSTOM = "custom"
GiB = 1 << 30
#: The fewest active parameters (billions) a mixture of experts is taken to have: the smallest
#: total a model may have.
ACTIVE_MIN_B = 0.1

#: The recurrent-layer and indexer parameters a model fills.
STATE_FILLS = ("kv_free_layers", "state_layers", "mixer", "state_heads", "state_head_dim", "state_dim",
               "conv_channels", "conv_groups", "conv_kernel", "ssm_dtype", "mamba_chunk", "indexer_dim")
#: The parameters a model fills, in the order the forms list them.
MODEL_FILLS = (
    "attention", "layers", "heads", "kv_heads", "head_dim", "latent_dim", "rope_dim", "sliding_window",
    "window_layers", "window_kind", "params_b", "active_params_b", "experts", "experts_per_token",
    "hidden_size", "intermediate_size", "vocab_size",
    *STATE_FILLS,
)
#: The recurrent-layer kinds a model can have ("none": a pure transformer).
NO_MIXER = "none"


# -- reading a model ----------------------------------------------------------------------------

def _text_config(config: Mapping[str, Any]) -> Mapping[str, Any]:
    nested = config.get("text_config")
    return nested if isinstance(nested, Mapping) else config


def _mlp_width(config: Mapping[str, Any], shape: ModelShape) -> int:
    """The MLP width per expert (MoE) or of the dense MLP, from the config's fields."""
    c = _text_config(config)
    names = ("moe_intermediate_size", "intermediate_size") if shape.is_moe else (
        "intermediate_size", "n_inner", "ffn_dim", "d_ff")
    for name in names:
        value = c.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
            return int(value)
    return 4 * shape.hidden_size  # GPT-2's rule when n_inner is null


def shape_values(shape: ModelShape, config: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The filled parameters of a derived shape, and notes on what they simplify."""
    notes: list[str] = []
    windowed = ("sliding", "chunked")
    windows = sorted({(kind, size) for kind, size in shape.layer_kinds if kind in windowed}, key=lambda k: k[1])
    window, window_layers, window_kind = 0, 0, SLIDING
    if windows:
        window_kind, window = windows[-1]
        window_layers = sum(1 for kind, _ in shape.layer_kinds if kind in windowed)
        if len(windows) > 1:
            notes.append(f"The model has windows of several sizes; all {window_layers} windowed layers are "
                         f"taken at the largest, {format_count(window)} tokens.")
    mla = shape.attention == "mla"
    values = {
        "attention": MLA if mla else GQA,
        "layers": shape.layers,
        "heads": shape.heads,
        # vLLM treats MLA as one KV "head" of latent + RoPE values (head_size 576 for DeepSeek).
        "kv_heads": 1 if mla else shape.kv_heads,
        "head_dim": shape.latent_dim + shape.rope_dim if mla else shape.head_dim,
        "latent_dim": shape.latent_dim,
        "rope_dim": shape.rope_dim,
        "sliding_window": window,
        "window_layers": window_layers,
        "window_kind": CHUNKED if window_kind == "chunked" else SLIDING,
        "params_b": shape.total_params / 1e9,
        "active_params_b": shape.active_params / 1e9 if shape.is_moe else 0,
        "experts": shape.experts,
        "experts_per_token": shape.experts_per_token,
        "hidden_size": shape.hidden_size,
        "intermediate_size": _mlp_width(config, shape),
        "vocab_size": shape.vocab_size,
        **_state_values(shape),
    }
    return values, notes


def _state_values(shape: ModelShape) -> dict[str, Any]:
    """The recurrent-layer and indexer parameters of a shape (zeros for a pure transformer)."""
    state = shape.state
    return {
        "kv_free_layers": shape.layers - shape.kv_layers,
        "state_layers": shape.state_layers,
        "mixer": state.mixer if state else NO_MIXER,
        "state_heads": state.heads if state else 0,
        "state_head_dim": state.head_dim if state else 0,
        "state_dim": state.state_dim if state else 0,
        "conv_channels": state.conv_channels if state else 0,
        "conv_groups": state.groups if state else 0,
        "conv_kernel": state.conv_kernel if state else 0,
        "ssm_dtype": state.ssm_dtype if state else "auto",
        "mamba_chunk": state.chunk_size if state else 0,
        "indexer_dim": shape.indexer_head_dim,
    }


def mixer_from_inputs(p: Mapping[str, Any]) -> Mixer | None:
    """The recurrent layers' state dimensions, or None for a pure transformer."""
    if p["mixer"] == NO_MIXER or p["state_layers"] <= 0:
        return None
    return Mixer(p["mixer"], heads=max(1, p["state_heads"]), head_dim=max(1, p["state_head_dim"]),
                 state_dim=max(1, p["state_dim"]), conv_channels=p["conv_channels"], groups=p["conv_groups"],
                 conv_kernel=p["conv_kernel"])


@cache
def catalogue_values(model_id: str) -> tuple[tuple[str, Any], ...]:
    """The filled parameters of a catalogue model (computed once), as pairs."""
    values, _ = shape_values(catalogue_shape(model_id), get_entry(model_id).config)
    return tuple(values.items())


#: "Find the shape the fields show" (:func:`model_shape`), for callers that have not found it yet.
_FROM_FIELDS: Any = object()


def model_from_inputs(p: Mapping[str, Any], shape: ModelShape | None = _FROM_FIELDS) -> Model:
    """The physics' Model from a calculator's (resolved) parameters; ``shape``: the derived shape they
    show (:func:`model_shape`), when the caller has it already.

    One model form: the fields give the counts; when they show a derived shape (a catalogue model or
    a pasted config, not edited away from it) the Model carries that shape's layers too, so a model
    whose layers differ (Gemma 4's two geometries, GLM-5.2's indexer on some layers, DeepSeek-V4's
    compressed layers) is sized layer by layer (:func:`with_layer_specs`). A custom shape has the one
    geometry its fields describe."""
    if shape is _FROM_FIELDS:
        shape = model_shape(p) if "model" in p and "config" in p else None
    model = with_sides(with_layer_specs(_fields_model(p, vision_of(p, shape)), shape), shape)
    return replace(model, model_type=shape.model_type) if shape is not None and shape.model_type else model


def side_modules(shape: ModelShape) -> SideModules | None:
    """The dense layers, shared experts and MLA projections ``shape``'s tensors show (the checkpoint's
    names: ``mlp.gate_proj`` of the dense layers, ``…shared_experts.gate_proj``, ``self_attn.q_a_proj``,
    ``q_proj`` or ``q_b_proj``, ``o_proj``); None for a model with none of them."""
    weights = [t for t in shape.tensors if t.param == "weight"]
    dense = [t for t in weights if t.group == "dense_mlp" and t.module.endswith("gate_proj")]
    shared = [t for t in weights if t.group == "shared_experts" and t.module.endswith("gate_proj")]
    mla = shape.attention == MLA and shape.heads > 0
    if not (mla or (shape.experts and (dense or shared))):
        return None
    sides = SideModules(dense_layers=len(dense) if shape.experts else 0,
                        dense_width=dense[0].shape[0] if dense and shape.experts else 0,
                        shared_width=shared[0].shape[0] if shared else 0)
    if mla:
        attention = {t.module.rpartition(".")[2]: t.shape for t in weights if t.group == "attention"}
        q_out = attention.get("q_b_proj", attention.get("q_proj", (0, 0)))[0]
        sides = replace(sides, q_lora_rank=attention.get("q_a_proj", (0,))[0], qk_head_dim=q_out // shape.heads,
                        v_head_dim=attention.get("o_proj", (0, 0))[1] // shape.heads)
    return sides


def with_sides(model: Model, shape: ModelShape | None) -> Model:
    """``model`` carrying ``shape``'s :func:`side_modules` (unchanged for a custom shape)."""
    sides = side_modules(shape) if shape is not None else None
    return replace(model, sides=sides) if sides is not None else model


def _fields_model(p: Mapping[str, Any], vision: VisionEncoder | None) -> Model:
    mla = p["attention"] == MLA
    active_b = p["active_params_b"]
    active_b = 0 if active_b <= 0 else min(max(active_b, ACTIVE_MIN_B), p["params_b"])
    return Model(
        layers=p["layers"], attention=MLA if mla else GQA, kv_heads=p["kv_heads"], head_dim=p["head_dim"],
        latent_dim=p["latent_dim"], rope_dim=p["rope_dim"], heads=p["heads"], hidden_size=p["hidden_size"],
        intermediate_size=p["intermediate_size"], vocab_size=p["vocab_size"], total_params=p["params_b"] * 1e9,
        active_params=active_b * 1e9, experts=p["experts"],
        experts_per_token=p["experts_per_token"], window=p["sliding_window"], window_layers=p["window_layers"],
        window_kind=CHUNKED if p["window_kind"] == CHUNKED else SLIDING,
        kv_free_layers=min(p["kv_free_layers"], p["layers"] - 1), state=mixer_from_inputs(p),
        state_layers=min(p["state_layers"], p["layers"]), ssm_dtype=p["ssm_dtype"], mamba_chunk=p["mamba_chunk"],
        indexer_dim=p["indexer_dim"] if mla else 0, vision=vision,
    )


def with_layer_specs(model: Model, shape: ModelShape | None) -> Model:
    """``model`` carrying ``shape``'s layer specs where they say more than its fields do (layers that
    differ in geometry, indexer or kind); unchanged when the fields' one geometry already gives the
    same layers (the same specs, so the same numbers), or for a custom shape (None)."""
    if shape is None or not shape.layer_specs:
        return model
    if Counter(shape.layer_specs) == Counter(kv.layer_specs(model)):
        return model
    return replace(model, layer_specs=tuple(shape.layer_specs))


def vision_of(p: Mapping[str, Any], shape: ModelShape | None = _FROM_FIELDS) -> VisionEncoder | None:
    """The vision tower of the model the fields show (a catalogue model or a pasted config whose tower
    is modelled, :mod:`.models.vision`); None for a custom shape or a text-only model."""
    if shape is _FROM_FIELDS:
        if "model" not in p or "config" not in p:
            return None
        shape = model_shape(p)
    return shape.vision.encoder if shape is not None and shape.vision is not None else None


def model_from_shape(shape: ModelShape, config: Mapping[str, Any]) -> Model:
    """The physics' Model of a derived shape and the config.json it was derived from (which gives
    the MLP width: without it a shape would be taken as GPT-2's 4 × hidden), with its layers."""
    values, _ = shape_values(shape, config)
    return with_sides(with_layer_specs(model_from_inputs(values), shape), shape)


@cache
def catalogue_model(model_id: str) -> Model:
    """The physics' Model of a catalogue model, as a calculator sees it when the model is picked."""
    shape = catalogue_shape(model_id)
    return with_sides(with_layer_specs(model_from_inputs(dict(catalogue_values(model_id))), shape), shape)


def layout_from_inputs(p: Mapping[str, Any]) -> Layout:
    return Layout(gpus=p["gpus"], pipeline_stages=p["pipeline_stages"],
                  attention=DP if p["attention_parallel"] == DP else TP,
                  expert_parallel=deployment_inputs.expert_parallel_of(p),
                  redundant_experts=deployment_inputs.redundant_experts_of(p))


#: Config fields that only a hybrid (linear-attention or state-space layers beside attention) has:
#: vLLM's ``is_hybrid`` comes from the model class, which the config names through these.
_HYBRID_FIELDS = ("full_attention_interval", "hybrid_override_pattern", "layers_block_type", "mamba_d_state",
                  "ssm_state_size", "linear_num_value_heads", "attn_layer_indices")


def model_runner_facts(p: Mapping[str, Any]) -> tuple[str, bool, bool]:
    """(architecture, quantized, hybrid) of the model picked or pasted: what vLLM 0.22–0.28 look at to
    choose the V1 or V2 model runner (engines.vllm_releases.Rules.model_runner)."""
    text = p.get("config", "").strip() if isinstance(p.get("config", ""), str) else ""
    model = p.get("model") if not text and p.get("model") in CATALOGUE else ""
    architecture, quantized, hybrid = _config_runner_facts(text, model)
    quantized = quantized or p.get("weight_dtype", "bf16") not in ("bf16", "fp16", "fp32", "shipped")
    return architecture, quantized, hybrid


@lru_cache(maxsize=32)
def _config_runner_facts(text: str, model_id: str) -> tuple[str, bool, bool]:
    """(architecture, checkpoint quantized, hybrid) of a pasted config's text, else a catalogue model's
    config: read once per text."""
    config: Mapping[str, Any] = {}
    if text:
        try:
            loaded = json.loads(text)
            config = loaded if isinstance(loaded, dict) else {}
        except ValueError:
            config = {}
    elif model_id:
        config = CATALOGUE[model_id].config
    archs = config.get("architectures") or [""]
    text_config = config.get("text_config") if isinstance(config.get("text_config"), dict) else {}
    fields = {**config, **text_config}
    layer_types = fields.get("layer_types") or []
    hybrid = any(k in fields for k in _HYBRID_FIELDS) or any(
        isinstance(t, str) and ("linear" in t or "mamba" in t) for t in layer_types)
    return str(archs[0]), bool(config.get("quantization_config")), hybrid


def engine_from_inputs(p: Mapping[str, Any]) -> Engine:
    caching = p.get("prefix_caching", "default")  # absent from calculators without the engine's cache inputs
    architecture, quantized, hybrid = model_runner_facts(p)
    return Engine(gpu_memory_utilization=p["gpu_memory_utilization"],
                  max_num_batched_tokens=p["max_num_batched_tokens"], max_num_seqs=p["max_num_seqs"],
                  overhead_bytes=p["overhead_gib"] * GiB, version=p.get("vllm_version", vllm_releases.NEWEST),
                  install=p.get("vllm_install", "pip"), enforce_eager=p.get("cuda_graphs", "captured") == "eager",
                  prefix_caching=None if caching == "default" else caching == "on", dcp=p.get("dcp", 1),
                  architecture=architecture, quantized=quantized, hybrid=hybrid,
                  image_limit=p.get("image_limit", DEFAULT_LIMIT), video_limit=p.get("video_limit", DEFAULT_LIMIT),
                  max_model_len=p.get("context", 0), block_size=deployment_inputs.block_size_of(p),
                  lora=deployment_inputs_lora.lora_of(p), **_speculation(p))


def _speculation(p: Mapping[str, Any]) -> dict[str, Any]:
    """The Engine's ``speculation`` (and ``num_spec``, its k, which a hybrid's states grow with) from the
    reader's --speculative-config; nothing when off, so the Engine is the one without it."""
    spec = deployment_inputs_speculation.speculation_of(
        p, catalogue_model, lambda model_id: _catalogue_plan(model_id, "", SHIPPED))
    return {"speculation": spec, "num_spec": spec.k} if spec.on else {}


def deployment_from_inputs(p: Mapping[str, Any], engine: Engine | None = None,
                           layout: Layout | None = None) -> tuple[Deployment, list[str]]:
    """The run's one deployment (physics.deployment), in one direction: the shape the fields show
    (found once), the model, its weights in the chosen format at the chosen release on the chosen GPU,
    ``engine`` (default: the engine's parameters) with its model runner chosen for the model, on
    ``layout`` (default: the deployment parameters); and the weights' notes."""
    shape = model_shape(p)
    weights, notes = weights_on(p, shape=shape)
    return deploy(model_from_inputs(p, shape), GPUS[p["gpu"]], layout or layout_from_inputs(p),
                  engine or engine_from_inputs(p), weights, p["kv_dtype"]), notes


def release_text(engine: Engine, vendor: str = "nvidia", is_moe: bool = False) -> str:
    """What the page says about the release whose rules it follows (a deployment's engine carries
    the model runner its budget used)."""
    r = engine.rules
    commit = f" (commit {r.release.commit})" if r.release.commit else ""
    tokens = {"concurrency": "concurrency × max_model_len", "blocks_per_group": "blocks ÷ groups × block size",
              "blocks": "blocks × block size"}[r.tokens_line]
    runner = engine.runner(is_moe, vendor)
    subtracted = r.cuda_graph_bytes(vendor, engine.enforce_eager, runner) > 0
    graphs = "subtracted" if subtracted else "not subtracted"
    return (f"vLLM {r.release.version}{commit} rules: utilization {engine.utilization:g}, model runner "
            f"{runner.upper()}, CUDA graphs {graphs}, 'GPU KV cache size' = {tokens}, sampler peak {engine.sampler}")


# -- vLLM's memory pool, as two calculators show it ----------------------------------------------

#: The pool's outputs in the order :func:`pool_outputs` lists them.
POOL_OUTPUTS = ("usable_bytes", "activation_bytes", "kv_cache_memory", "kv_cache_tokens", "max_concurrency")


def pool_outputs() -> tuple[Output, ...]:
    """vLLM's memory-pool figures, as kv-cache and decode-roofline both show them: declared once,
    so their labels and help texts cannot drift apart; :func:`pool_values` computes them."""
    return (
        Output("usable_bytes", "Memory vLLM may use, all GPUs", "bytes",
               help="The memory the driver shows × gpu_memory_utilization, on every GPU."),
        Output("activation_bytes", "Activation peak per GPU (estimate)", "bytes",
               help="What vLLM's profiling run peaks at: the batched tokens' activations and the sampler's logits."),
        Output("kv_cache_memory", "Available KV cache memory, per GPU", "bytes",
               help="vLLM's figure: memory shown × utilization − weights − activation peak − non-torch/graphs."),
        Output("kv_cache_tokens", "GPU KV cache size (tokens)", "count",
               help="As vLLM 0.21+ logs it: maximum concurrency × context, for one pool (each data-parallel "
                    "rank has its own)."),
        Output("max_concurrency", "Maximum concurrency for this context", "ratio", precision=2,
               help="As vLLM logs it: the KV blocks ÷ the blocks one request of this length takes (times the "
                    "data-parallel ranks)."),
    )


def pool_values(pool: Pool, context: int, gpus: int) -> dict[str, float]:
    """The values of :func:`pool_outputs` for ``pool`` (one GPU's) at ``context`` tokens per request."""
    return {
        "usable_bytes": pool.requested_bytes * gpus,
        "activation_bytes": pool.activation_bytes,
        "kv_cache_memory": max(0.0, pool.available_bytes),
        "kv_cache_tokens": pool.kv_cache_tokens(context),
        "max_concurrency": pool.concurrency(context),
    }


# -- resolving ----------------------------------------------------------------------------------

@lru_cache(maxsize=8)
def _read(text: str) -> tuple[ModelShape | None, str]:
    """The shape of a pasted config, or why it cannot be read (parsed once per text)."""
    try:
        shape = parse_config(text)
    except ConfigError as exc:
        return None, str(exc)
    # a shape whose layers differ (shape.geometry_gap) is read too: the Model carries its layer specs
    return shape, ""


def refused(p: Mapping[str, Any]) -> bool:
    """Whether the inputs hold a pasted config.json that cannot be read (or holds a layer kind the
    calculators do not model), or ask for a cache dtype vLLM refuses for the model's layers: then
    nothing is computed — every output is ``None`` ("not computed"), never the numbers of the model
    the form still shows."""
    text = p.get("config", "").strip()
    return (bool(text) and _read(text)[0] is None) or bool(cache_dtype_problem(p))


def cache_dtype_problem(p: Mapping[str, Any]) -> str:
    """Why vLLM refuses the chosen ``--kv-cache-dtype`` for one of the model's layer kinds ("" when
    it accepts it): DeepSeek-V4's compressed attention caches in fp8 only."""
    text = p.get("config", "").strip()
    shape = _read(text)[0] if text else None
    if shape is None and p.get("model", CUSTOM) != CUSTOM:
        shape = catalogue_shape(p["model"])
    kv_dtype = p.get("kv_dtype", "bf16")
    for spec in dict.fromkeys(shape.layer_specs if shape is not None else ()):
        problem = spec.kv_dtype_problem(kv_dtype)
        if problem:
            return problem
    return ""


def _pasted(text: str) -> tuple[dict[str, Any], list[str]]:
    """What a pasted config fills (with ``model``), and the notes: its traps, or why it was refused."""
    shape, why = _read(text)
    if shape is None:
        return {}, [f"config.json: {why}. Nothing is computed: the outputs would be those of another model."]
    config = json.loads(text)
    values, notes = shape_values(shape, config)
    matches = match_catalogue_all(shape)
    # Of the catalogue's models of this shape, the one released in the pasted checkpoint's format.
    same_format = [m for m in matches if catalogue_shape(m).quantization == shape.quantization]
    match = (same_format or matches or [None])[0]
    values["model"] = match or CUSTOM
    said = (f"config.json: read as {CATALOGUE[match].name} (the catalogue's shape)." if match
            else "config.json: a model not in the catalogue; its shape fills the fields.")
    scheme = shape.quantization
    weights = (f"config.json: its weights are {scheme.label}." if scheme.method != "none"
               else f"config.json: no quantization_config: the weights are {scheme.label}.")
    return values, [said, weights, *(f"config.json: {trap}" for trap in shape.traps), *notes]


@lru_cache(maxsize=32)
def _parsed(text: str) -> ModelShape | None:
    try:
        return parse_config(text)
    except ConfigError:
        return None


def model_shape(p: Mapping[str, Any]) -> ModelShape | None:
    """The derived shape the fields show: the pasted config's, else the catalogue model's; None for
    a custom shape (or when the fields were edited away from the pasted config)."""
    text = p.get("config", "").strip()
    shape = _parsed(text) if text else None
    pasted = text if shape is not None else ""
    if shape is None and p["model"] != CUSTOM:
        shape = catalogue_shape(p["model"])
    if shape is None:
        return None
    values = _shape_fields(p["model"], pasted)
    if any(name in p and p[name] != value and not _close(p[name], value) for name, value in values):
        return None
    return shape


@lru_cache(maxsize=32)
def _shape_fields(model_id: str, pasted: str) -> tuple[tuple[str, Any], ...]:
    """The fields a pasted config (read), else a catalogue model, fills: worked out once per text."""
    if pasted:
        values, _ = shape_values(_parsed(pasted), json.loads(pasted))
        return tuple(values.items())
    return catalogue_values(model_id)


def _close(a: Any, b: Any) -> bool:
    return isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) <= 1e-9 * max(1, abs(b))


def _custom_tensors(p: Mapping[str, Any]) -> tuple[tuple[mp.Tensor, ...], tuple[mp.Tensor, ...], float]:
    """Llama-style tensors from the fields (embedding and LM head untied, q/k/v/o, a gated MLP or
    routed experts with a router, two norms a layer): the ones outside the layers, one layer's
    (every layer alike), and the scale of the Linear layers that makes the total the Parameters
    field."""
    layers, hidden, heads = p["layers"], p["hidden_size"], max(1, p["heads"])
    kv, head_dim, width, vocab = p["kv_heads"], p["head_dim"], p["intermediate_size"], p["vocab_size"]
    experts = p["experts"] if p["experts"] > p["experts_per_token"] > 0 and p["active_params_b"] > 0 else 0
    norms = mp.join(mp.norm(hidden, "input_layernorm"), mp.norm(hidden, "post_attention_layernorm"))
    linear = [mp.gqa_attention(hidden, heads, kv, head_dim, qkv_bias=False, o_bias=False)]
    if experts:
        linear += [mp.router(hidden, experts), mp.repeat(mp.routed_expert(hidden, width), experts)]
    else:
        linear.append(mp.gated_mlp(hidden, width))
    outside = mp.join(mp.embedding_table(vocab, hidden), mp.lm_head(vocab, hidden), mp.norm(hidden, "model.norm"))
    model = model_from_inputs(p)
    target = p["params_b"] * 1e9
    # MoE: the routed experts hold E × X of the total (physics.Model.expert_index_params), the rest
    # is dense; each part's projections are scaled to its share.
    routed = model.experts * model.expert_index_params if experts else 0.0
    expert_linear = sum(part for part in linear if any(t.group == mp.ROUTED_EXPERTS for t in part.tensors))
    dense_linear = sum(linear) - expert_linear
    dense_scale = max(0.0, (target - routed - outside - layers * norms) / (layers * dense_linear)) if dense_linear else 1.0
    expert_scale = routed / (layers * expert_linear) if expert_linear else 1.0
    layer = [*norms.tensors]
    for part in linear:
        for t in part.tensors:
            scale = expert_scale if t.group == mp.ROUTED_EXPERTS else dense_scale
            # rows scaled exactly (a fractional count): the total is the Parameters field to the byte
            shape = (t.shape[0] * scale, *t.shape[1:]) if t.is_linear and scale != 1.0 else t.shape
            layer.append(mp.Tensor(t.group, t.module, shape, t.split, t.param, t.count, 0, t.head_dim))
    return outside.tensors, tuple(layer), dense_scale


@lru_cache(maxsize=64)
def _catalogue_plan(model_id: str, text: str, weight_format: str, vision: bool = False) -> WeightPlan:
    shape = _parsed(text) if text else catalogue_shape(model_id)
    scheme = shape.quantization if weight_format == SHIPPED else format_scheme(weight_format, shape.quantization.dtype)
    tower = shape.vision.tensors if vision and shape.vision is not None else ()
    return WeightPlan(shape.tensors + tower, scheme)


def serves_vision(p: Mapping[str, Any]) -> bool:
    """Whether vLLM loads the model's vision tower with these settings (not with every limit at 0)."""
    return tower_loaded(p.get("image_limit", DEFAULT_LIMIT), p.get("video_limit", DEFAULT_LIMIT))


def weight_plan(p: Mapping[str, Any], shape: ModelShape | None = _FROM_FIELDS) -> tuple[WeightPlan, list[str]]:
    """The weights the fields describe, in the chosen format (with the vision tower when vLLM loads
    it), and notes on how they were read; ``shape`` as for :func:`model_from_inputs`."""
    if shape is _FROM_FIELDS:
        shape = model_shape(p)
    if shape is not None and shape.tensors:
        text = p.get("config", "").strip()
        pasted = text if text and _parsed(text) is shape else ""
        vision = shape.vision is not None and serves_vision(p)
        return _catalogue_plan(p["model"], pasted, p["weight_dtype"], vision), []
    return _custom_plan(tuple(p[n] for n in MODEL_FILLS), p["weight_dtype"])


@lru_cache(maxsize=64)
def _custom_plan(key: tuple, fmt: str) -> tuple[WeightPlan, list[str]]:
    p = dict(zip(MODEL_FILLS, key))
    outside, layer, scale = _custom_tensors(p)
    if fmt == SHIPPED:
        scheme = Scheme("none", "bf16 (a custom shape names no checkpoint format: bf16 taken)", "bfloat16")
    else:
        scheme = format_scheme(fmt)
    notes = ["Custom shape: the weights are split into Llama-style tensors from the fields (untied embedding "
             "and LM head, q/k/v/o, " + ("routed experts and a router" if p["experts"] and p["active_params_b"]
                                         else "a gated MLP") + ", two norms a layer)"
             + (f", the projections scaled ×{scale:.3g} to the {p['params_b']:g}B of the Parameters field."
                if abs(scale - 1) > 1e-3 else ".")]
    return WeightPlan(outside, scheme, repeat=(layer, p["layers"])), notes


def weights_on(p: Mapping[str, Any], gpu_id: str | None = None,
               shape: ModelShape | None = _FROM_FIELDS) -> tuple[Weights, list[str]]:
    """The weights on the chosen GPU (or ``gpu_id``), under the chosen vLLM release when the
    calculator has one, with the notes to show; ``shape`` as for :func:`model_from_inputs`."""
    plan, notes = weight_plan(p, shape)
    version = p.get("vllm_version") or None
    gpu = GPUS[gpu_id or p["gpu"]]
    weights = plan.on(gpu, version) if version else plan.on(gpu)
    return weights, [*notes, *weights.notes()]


def precision_word(weights: Weights) -> str:
    """The weights' format in the words published measurements use ("fp8", "bf16", "int4", ...)."""
    scheme = weights.plan.scheme
    if scheme.method in ("none", "uniform"):
        return {"bfloat16": "bf16", "float16": "fp16"}.get(scheme.dtype, scheme.label)
    quantized: dict = {}
    for t, spec in weights.plan.linear_specs:  # the format of most of the quantized parameters
        if spec.quantized:
            quantized[spec] = quantized.get(spec, 0) + t.params
    if not quantized:
        return "bf16"
    return format_of(max(quantized, key=quantized.get)).word


def refused_note(weights: Weights) -> str:
    """The note every weights-dependent output refers to when the format cannot be sized ("" else)."""
    if not weights.refused:
        return ""
    return (f"The checkpoint's {weights.refused}. Nothing that depends on the weights is computed from another "
            f"format: the weights, the memory verdict, the KV pool, the GPUs needed, the prices and the speeds "
            f"are not computed. Choose a weight precision (More parameters) to size the model in a format this calculator "
            f"models.")


def make_resolve(context_of: Callable[[Mapping[str, Any]], int]) -> Callable[[Mapping[str, Any]], Any]:
    """The ``resolve`` of a calculator whose longest sequence is ``context_of(inputs)`` tokens."""

    def resolve(p: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        values: dict[str, Any] = {}
        notes: list[str] = []
        text = p.get("config", "").strip()
        if text:
            values, notes = _pasted(text)
        if not values and p["model"] != CUSTOM:
            values = dict(catalogue_values(p["model"]))
        model_id = values.get("model", p["model"])
        problem = cache_dtype_problem({**p, **values})
        if problem:
            notes.append(f"{problem} (KV cache precision). Nothing is computed.")
        if model_id != CUSTOM:
            longest = catalogue_shape(model_id).max_position_embeddings
            if longest and context_of(p) > longest:
                notes.append(f"{CATALOGUE[model_id].name} was configured for {format_count(longest)} tokens "
                             f"(max_position_embeddings): vLLM refuses a longer max_model_len unless told to "
                             f"override it.")
        return values, notes

    return resolve


def model_name(p: Mapping[str, Any]) -> tuple[str, str]:
    """(the model's name, where its shape was read) for the outputs."""
    if p["model"] == CUSTOM:
        if p.get("config", "").strip():
            return "Pasted config.json", "the config.json pasted above"
        return "Custom shape", "the fields below"
    entry = CATALOGUE[p["model"]]
    return entry.name, f"config.json: {entry.source.describe()}"


def gpu_name(gpu_id: str) -> str:
    return GPUS[gpu_id].name
