"""The reader's scenario: one model and one deployment, shared by kv-cache, decode-roofline and
unit-economics under the same parameter names, choices and ``scenario=`` keys.

A calculator builds its parameters here (:func:`model_params`, :func:`deployment_params`,
:func:`engine_params`) and resolves them with :func:`make_resolve`:

* choosing a catalogue model fills every shape parameter from its published config.json;
* a pasted config.json (``config``) fills them the same way, names every trap the reading met,
  and is matched with the catalogue; a config that cannot be read changes nothing and says why;
* editing a filled parameter makes the model ``custom`` (the browser switches the select).

:func:`model_from_inputs` turns the resolved parameters into a :class:`physics.Model`; the
physics never sees a parameter dictionary.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any, Callable, Mapping

from course_calculators.spec import Choice, Number, Output, Text
from course_calculators.units import format_count

from .hardware import DTYPE_CHOICES, GPU_CHOICES, GPUS
from .models import CATALOGUE, ConfigError, ModelShape, catalogue_shape, get_entry, match_catalogue, parse_config
from .physics import CHUNKED, GQA, MLA, SLIDING, Engine, Layout, Model
from .physics.budget import DEFAULT_OVERHEAD_BYTES, DEFAULT_UTILIZATION, Pool
from .physics.placement import DP, MAX_GPUS, TP
from .physics.precision import KV_DTYPE_CHOICES

CUSTOM = "custom"
GiB = 1 << 30
#: The fewest active parameters (billions) a mixture of experts is taken to have: the smallest
#: total a model may have.
ACTIVE_MIN_B = 0.1

#: The parameters a model fills, in the order the forms list them.
MODEL_FILLS = (
    "attention", "layers", "heads", "kv_heads", "head_dim", "latent_dim", "rope_dim", "sliding_window",
    "window_layers", "window_kind", "params_b", "active_params_b", "experts", "experts_per_token",
    "hidden_size", "intermediate_size", "vocab_size",
)
#: Shape parameters kept in view; the others sit under "More parameters".
_IN_VIEW = ("attention", "layers", "kv_heads", "head_dim", "params_b")

MODEL_CHOICES = tuple((model_id, entry.name) for model_id, entry in CATALOGUE.items()) + (
    (CUSTOM, "Custom shape (edit the fields)"),)


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
    windows = sorted({(kind, size) for kind, size in shape.layer_kinds if kind != "full"}, key=lambda k: k[1])
    window, window_layers, window_kind = 0, 0, SLIDING
    if windows:
        window_kind, window = windows[-1]
        window_layers = sum(1 for kind, _ in shape.layer_kinds if kind != "full")
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
    }
    return values, notes


@cache
def catalogue_values(model_id: str) -> tuple[tuple[str, Any], ...]:
    """The filled parameters of a catalogue model (computed once), as pairs."""
    values, _ = shape_values(catalogue_shape(model_id), get_entry(model_id).config)
    return tuple(values.items())


def model_from_inputs(p: Mapping[str, Any]) -> Model:
    """The physics' Model from a calculator's (resolved) parameters."""
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
    )


def model_from_shape(shape: ModelShape, config: Mapping[str, Any] | None = None) -> Model:
    """The physics' Model of a derived shape (``config`` gives the MLP width; else 4 × hidden)."""
    values, _ = shape_values(shape, config or {})
    return model_from_inputs(values)


def layout_from_inputs(p: Mapping[str, Any]) -> Layout:
    return Layout(gpus=p["gpus"], pipeline_stages=p["pipeline_stages"],
                  attention=DP if p["attention_parallel"] == DP else TP)


def engine_from_inputs(p: Mapping[str, Any]) -> Engine:
    return Engine(gpu_memory_utilization=p["gpu_memory_utilization"],
                  max_num_batched_tokens=p["max_num_batched_tokens"], max_num_seqs=p["max_num_seqs"],
                  overhead_bytes=p["overhead_gib"] * GiB)


# -- the parameters -----------------------------------------------------------------------------

def model_params(default_model: str) -> tuple:
    """``model``, ``config`` and the shape parameters, their defaults those of ``default_model``."""
    d = dict(catalogue_values(default_model))
    fills = MODEL_FILLS

    def adv(name: str) -> bool:
        return name not in _IN_VIEW

    return (
        Choice("model", "Model", default_model, MODEL_CHOICES, scenario="model", fills=fills, custom=CUSTOM,
               help="A published model fills the shape below from its config.json; edit a field to make it custom."),
        Text("config", "Or paste a config.json", "", rows=3, max_length=60_000, fills=fills + ("model",),
             placeholder='{"num_hidden_layers": 32, "num_key_value_heads": 8, ...}',
             help="The same Python reads it: every trap in its fields is named below, and a config that "
                  "cannot be read changes nothing."),
        Choice("attention", "Attention", d["attention"], (("gqa", "GQA / MHA / MQA"), ("mla", "MLA (latent)")),
               scenario="attention", help="MHA is GQA with KV heads = query heads; MQA is GQA with one KV head."),
        Number("layers", "Layers", d["layers"], 1, 256, unit="layers", scenario="layers"),
        Number("heads", "Query heads", d["heads"], 1, 1024, unit="heads", advanced=adv("heads"), scenario="heads",
               help="Attention (query) heads: they must split evenly over the tensor-parallel GPUs."),
        Number("kv_heads", "KV heads", d["kv_heads"], 1, 256, unit="heads", scenario="kv_heads",
               help="Key/value heads, not query heads: GQA shares each KV head among several query heads."),
        Number("head_dim", "Head dimension", d["head_dim"], 1, 1024, scenario="head_dim"),
        Number("latent_dim", "MLA latent rank", d["latent_dim"], 0, 8192, advanced=True, scenario="latent_dim",
               help="MLA only: the compressed KV latent per layer."),
        Number("rope_dim", "MLA RoPE key dim", d["rope_dim"], 0, 1024, advanced=True, scenario="rope_dim",
               help="MLA only: the decoupled positional key per layer."),
        Number("sliding_window", "Window", d["sliding_window"], 0, 1048576, unit="tokens", advanced=True,
               scenario="sliding_window",
               help="0 for full attention; otherwise windowed layers keep at most this many tokens."),
        Number("window_layers", "Windowed layers", d["window_layers"], 0, 256, unit="layers", advanced=True,
               scenario="window_layers",
               help="How many layers use the window (all for Mistral-7B v0.1, half for Gemma 2, five in six "
                    "for Gemma 3, three in four for Llama 4)."),
        Choice("window_kind", "Window kind", d["window_kind"],
               ((SLIDING, "sliding window"), (CHUNKED, "chunked local attention (Llama 4)")),
               advanced=True, scenario="window_kind",
               help="vLLM reserves a sliding window minus one token plus the batched tokens and one block; "
                    "a chunk plus the batched tokens."),
        Number("params_b", "Parameters", d["params_b"], 0.1, 2000, step=0.1, unit="B", integer=False,
               scenario="params_b",
               help="Total parameters in billions (for MoE, all experts: all of them sit in memory)."),
        Number("active_params_b", "Active parameters (MoE)", d["active_params_b"], 0, 2000, step=0.1, unit="B",
               integer=False, advanced=True, scenario="active_params_b",
               help="Parameters one token uses, in billions; 0 for a dense model."),
        Number("experts", "Routed experts per layer", d["experts"], 0, 1024, advanced=True, scenario="experts",
               help="MoE only (0 for dense): a batch touches more of them than one token does."),
        Number("experts_per_token", "Experts per token", d["experts_per_token"], 0, 64, advanced=True,
               scenario="experts_per_token"),
        Number("hidden_size", "Hidden size", d["hidden_size"], 1, 65536, advanced=True, scenario="hidden_size",
               help="The residual stream's width: activations, all-reduce messages."),
        Number("intermediate_size", "MLP width (one expert's for MoE)", d["intermediate_size"], 1, 262144,
               advanced=True, scenario="intermediate_size"),
        Number("vocab_size", "Vocabulary", d["vocab_size"], 1, 1048576, advanced=True, scenario="vocab_size",
               help="Sets the sampler's share of vLLM's activation peak (sequences × vocabulary logits)."),
    )


def dtype_params(weight_default: str = "bf16", kv_default: str = "bf16") -> tuple:
    return (
        Choice("weight_dtype", "Weight precision", weight_default, DTYPE_CHOICES, scenario="weight_dtype"),
        Choice("kv_dtype", "KV cache precision", kv_default, KV_DTYPE_CHOICES, scenario="kv_dtype",
               help="fp8: vLLM's --kv-cache-dtype fp8 (one scale per layer); int8/int4: LMDeploy's layout, "
                    "a scale and a zero point per head and token; fp8_ds_mla: DeepSeek's sparse-MLA layout."),
    )


def deployment_params(gpu_default: str = "h100-sxm", gpus_default: int = 1) -> tuple:
    return (
        Choice("gpu", "GPU", gpu_default, GPU_CHOICES, scenario="gpu"),
        Number("gpus", "GPUs", gpus_default, 1, MAX_GPUS, scenario="gpus",
               help="Only sizes vLLM accepts for the model: heads, KV heads, MLP width and vocabulary "
                    "must split evenly over the tensor-parallel GPUs."),
        Number("pipeline_stages", "Pipeline stages", 1, 1, MAX_GPUS, advanced=True,
               help="Pipeline parallelism: the layers split into this many stages of GPUs ÷ stages GPUs "
                    "each (tensor parallel within a stage)."),
        Choice("attention_parallel", "Attention layout", TP,
               ((TP, "tensor parallel"), (DP, "data-parallel attention + expert parallel")), advanced=True,
               help="Tensor parallel copies an MLA latent onto every GPU; data-parallel attention gives each "
                    "GPU its own KV pool (vLLM: --data-parallel-size N --enable-expert-parallel)."),
    )


def engine_params() -> tuple:
    return (
        Number("gpu_memory_utilization", "vLLM gpu_memory_utilization", DEFAULT_UTILIZATION, 0.05, 1,
               step=0.01, integer=False,
               help="Share of the memory the driver shows that vLLM may use: 0.9 by default up to 0.19, "
                    "0.92 from 0.20.0 (PR #38284, which also started subtracting CUDA graphs)."),
        Number("max_num_batched_tokens", "Batched tokens per step", 0, 0, 1048576, unit="tokens", advanced=True,
               help="0: vLLM serve's default for the GPU (8,192 on H100/H200, 2,048 on A100/L40S/RTX 4090, "
                    "16,384 from 160 GiB). It sizes the profiling run's activations and windowed layers."),
        Number("max_num_seqs", "Max sequences per step", 0, 0, 65536, advanced=True,
               help="0: vLLM's default (1,024 on H100-class GPUs, 256 below 70 GiB or on an A100). The "
                    "sampler's logits for this many sequences dominate the activation peak."),
        Number("overhead_gib", "Non-torch and CUDA-graph memory", DEFAULT_OVERHEAD_BYTES / GiB, 0, 64, step=0.01,
               unit="GiB", integer=False, advanced=True,
               help="Per GPU: CUDA context, NCCL and cuBLAS buffers, CUDA graphs (0.5 to 0.7 GiB in the "
                    "startup logs of one GPU; more with NCCL under tensor parallelism)."),
    )


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

def _pasted(text: str) -> tuple[dict[str, Any], list[str]]:
    """What a pasted config fills (with ``model``), and the notes: its traps, or why it was refused."""
    try:
        shape = parse_config(text)
    except ConfigError as exc:
        return {}, [f"config.json: {exc}. The model's shape is unchanged."]
    config = json.loads(text)
    values, notes = shape_values(shape, config)
    match = match_catalogue(shape)
    values["model"] = match or CUSTOM
    said = (f"config.json: read as {CATALOGUE[match].name} (the catalogue's shape)." if match
            else "config.json: a model not in the catalogue; its shape fills the fields.")
    return values, [said, *(f"config.json: {trap}" for trap in shape.traps), *notes]


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
