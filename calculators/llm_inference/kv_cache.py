"""KV cache: how much GPU memory the keys and values of every cached token take, and what fits —
per GPU, the way vLLM places and budgets it.

Per token, grouped-query attention (GQA) stores a key and a value vector per KV head per layer:

    kv_bytes_per_token = 2 (K and V) × layers × kv_heads × head_dim × bytes per element

Multi-head attention is GQA with kv_heads = query heads; multi-query attention has kv_heads = 1.
Multi-head latent attention (MLA, DeepSeek-V2/V3) caches one compressed latent per layer plus a
small decoupled RoPE key, shared by K and V, so there is no factor 2:

    kv_bytes_per_token = layers × (latent_dim + rope_dim) × bytes per element

Windowed layers (Mistral-7B v0.1, Gemma 2 and 3, gpt-oss, Llama 4's chunks) keep at most the
window. Those are the textbook sizes (``kv_bytes_per_*``). The verdict is vLLM's
(:mod:`llm_inference.physics`): the weights, the heads and the layers split over the GPUs (an MLA
latent copied onto each), and per GPU

    Available KV cache memory = memory the driver shows × gpu_memory_utilization
                                − weights − activation peak − non-torch and CUDA-graph memory

cut into 16-token blocks; "maximum concurrency for N tokens" is blocks ÷ blocks per request.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from course_calculators.spec import Bar, Calculator, Chart, Computed, Number, Output, Preset
from course_calculators.units import GiB, format_bytes, format_count, format_ratio

from . import answers, engine_choice, physics, scenario, scenario_params
from .hardware import GPUS
from .engines import vllm_hybrid, vllm_measured
from .engines.vllm_hybrid import MIXER_NAMES
from .physics import expert_parallel, fleet, kv
from . import lora_notes, multi_page_notes, speculation_outputs, startup
from .weight_breakdown import breakdown_chart, breakdown_text

CONTEXT_MAX = 1048576

_SHAPE = scenario_params.model_params("llama-3.1-8b")
_DTYPES = scenario_params.dtype_params()
_DEPLOY = scenario_params.deployment_params()
_ENGINE = scenario_params.engine_params()


def _pick(params, *names):
    table = {p.name: p for p in params}
    return tuple(table[n] for n in names)


PARAMS = (
    *_SHAPE[:2],  # model, config
    *_pick(_SHAPE, "attention", "layers", "kv_heads", "head_dim", "latent_dim", "rope_dim"),
    _pick(_DTYPES, "kv_dtype")[0],
    Number("context", "Context length", 8192, 1, CONTEXT_MAX, unit="tokens", scale="log", scenario="context",
           help="Tokens per sequence: vLLM's max_model_len."),
    Number("concurrency", "Concurrent sequences", 1, 1, 4096, scale="log", scenario="concurrency"),
    *_pick(_SHAPE, "sliding_window", "window_layers", "window_kind", "params_b", "active_params_b", "experts",
           "experts_per_token", "heads", "hidden_size", "intermediate_size", "vocab_size"),
    *_pick(_SHAPE, *scenario.STATE_FILLS),
    _pick(_DTYPES, "weight_dtype")[0],
    *_DEPLOY,
    *_ENGINE,
)

OUTPUTS = (
    Output("kv_bytes_per_token", "KV cache per token", "bytes", primary=True),
    Output("kv_bytes_per_sequence", "KV cache per sequence", "bytes"),
    Output("kv_bytes_total", "KV cache, all sequences", "bytes", primary=True),
    Output("state_bytes_per_sequence", "Recurrent state per sequence", "bytes",
           help="Linear-attention and state-space layers: one fixed state per sequence (convolution window "
                "and SSM state, vLLM's dtypes), whatever its length; 0 for a pure transformer."),
    Output("weight_bytes", "Weights", "bytes",
           help="Every tensor in its format, scales included, as vLLM holds it on this kind of GPU (the "
                "breakdown below, one GPU's worth: with no parallelism this is 'Model loading took')."),
    Output("weight_format", "Weights stored as", "text"),
    Output("weight_breakdown", "Weights by tensor group", "text"),
    Output("total_bytes", "Weights + KV cache", "bytes", primary=True,
           help="With the sequences' recurrent states, for a hybrid model."),
    Output("fits", "Verdict (vLLM)", "bool", words=("does not fit", "fits"), primary=True,
           help="vLLM starts with this layout and holds the sequences at this context at once."),
    Output("max_sequences", "Sequences that fit at this context", "count",
           help="Whole sequences of this length the GPUs hold at once (vLLM's concurrency, rounded down)."),
    Output("max_context", "Longest context that fits at this concurrency", "count",
           help="Tokens per sequence; 0 when not even one block fits."),
    *scenario.pool_outputs(),
    Output("weight_bytes_per_gpu", "Weights per GPU", "bytes"),
    lora_notes.OUTPUT,
    Output("free_bytes_per_gpu", "Left outside vLLM's share, per GPU", "bytes",
           help="The memory the driver shows minus what vLLM may use (gpu_memory_utilization): free for other "
                "processes."),
    Output("runtime_bytes", "Non-torch and CUDA-graph memory per GPU", "bytes",
           help="The release's accounting: non-torch memory (the CUDA context too up to 0.9.0), the CUDA-graph "
                "estimate from 0.20.0 (0.26.0 on ROCm), plus any extra memory set below."),
    Output("engine_release", "Engine rules", "text",
           help="The vLLM release whose rules these figures follow (More parameters: vLLM release)."),
    startup.OUTPUT,
    Output("kv_bytes_per_token_per_gpu", "KV cache per token, per GPU", "bytes",
           help="A GPU's layers and KV heads (the whole MLA latent under tensor parallelism)."),
    Output("block_size", "vLLM's block (tokens)", "count",
           help="16 tokens; a hybrid model's attention block grows until one page holds a state; "
                "DeepSeek-V3.2's sparse kernels take 64."),
    Output("kv_replicas", "Copies of each KV head", "count",
           help="GPUs that hold the same KV head: TP ÷ KV heads when TP exceeds them; every GPU for MLA."),
    Output("legal_gpus", "GPU counts vLLM accepts", "text"),
    Output("gpus_needed", "Fewest GPUs that fit", "count", help="A legal size; 0 when none up to 64 fits."),
    Output("cheapest_gpus", "Cheapest listed GPUs that fit", "text",
           help="Each listed GPU at its fewest count that fits, the lowest hourly rent kept: by memory alone "
                "(a cheap card may decode far slower; see decode-roofline)."),
    Output("cheapest_usd_per_hour", "Their price per hour", "usd", precision=2,
           help="On-demand rent (llm_inference/hardware.py, dated); 0 when none fits."),
    Output("model_name", "Model", "text"),
    Output("model_source", "Shape read from", "text"),
)
OUTPUTS = answers.grouped((*OUTPUTS, *speculation_outputs.MEMORY_OUTPUTS), answers.KV_CACHE_GROUPS)

_LLAMA3_8B = {"model": "llama-3.1-8b", "context": 8192, "concurrency": 1, "kv_dtype": "bf16",
              "weight_dtype": "shipped", "gpu": "h100-sxm", "gpus": 1}
_DEEPSEEK = {**_LLAMA3_8B, "model": "deepseek-v3", "gpu": "h200", "gpus": 8,
             "context": 131072}

PRESETS = (
    Preset("llama3-8b", "Llama 3 8B", _LLAMA3_8B,
           "2 × 32 layers × 8 KV heads × 128 × 2 bytes = 128 KiB per token: 1 GiB per 8K sequence, and vLLM "
           "on one H100 has room for 52 of them."),
    Preset("llama3-8b-128k", "8B at 128K", {**_LLAMA3_8B, "context": 131072},
           "One 128K-token sequence holds 16 GiB of keys and values — more than the 15 GiB of weights."),
    Preset("llama3-70b", "Llama 3 70B", {**_LLAMA3_8B, "model": "llama-3.1-70b", "gpus": 2},
           "320 KiB per token; 141 GB of bf16 weights need two 80 GB GPUs before any cache."),
    Preset("llama3-70b-tp16", "70B on 16 GPUs", {**_LLAMA3_8B, "model": "llama-3.1-70b", "gpus": 16,
                                                  "context": 131072},
           "Tensor parallel over 16 GPUs, but only 8 KV heads: each is stored on two GPUs, so every GPU "
           "still caches 40 KiB per token."),
    Preset("gpt3-mha", "GPT-3 (MHA)", {**_LLAMA3_8B, "model": "gpt3-175b", "gpus": 8},
           "96 unshared KV heads on 96 layers: 4.5 MiB per token, 36× Llama 3 8B. Grouped-query "
           "attention exists to shrink exactly this."),
    Preset("deepseek-v3-mla", "DeepSeek-V3 (MLA)", _DEEPSEEK,
           "(512 + 64) × 61 layers × 2 bytes = 68.6 KiB per token, no factor 2: 8.58 GiB per 128K sequence. "
           "But under tensor parallelism every H200 holds the whole latent: 5 sequences fit, not 45."),
    Preset("deepseek-v3-dp8", "DeepSeek-V3, DP attention", {**_DEEPSEEK, "attention_parallel": "dp"},
           "Data-parallel attention with expert parallelism: each GPU keeps its own sequences' latents, "
           "so the 8 pools add up — more sequences, though each GPU also holds all the attention weights."),
    Preset("deepseek-v3-as-gqa", "DeepSeek-V3 misread as GQA",
           {**_DEEPSEEK, "model": "custom", **dict(scenario.catalogue_values("deepseek-v3")),
            "attention": "gqa", "kv_heads": 128, "head_dim": 160},
           "The mistake many calculators make: 128 KV heads (K 192-dim, V 128-dim: 160 on average) "
           "in the GQA formula give 4.77 MiB per token, 71× what MLA really caches."),
    Preset("qwen3-next-hybrid", "Qwen3-Next (hybrid)", {**_LLAMA3_8B, "model": "qwen3-next-80b-a3b", "gpu": "h200",
                                                       "gpus": 2, "context": 262144, "concurrency": 8},
           "36 of 48 layers are Gated DeltaNet: 24 KiB per token from the 12 attention layers, plus a fixed "
           "37.7 MiB state per sequence. vLLM grows the block to 576 tokens so one page holds a state."),
    Preset("deepseek-v32-dcp", "DeepSeek-V3.2, DCP 8", {**_DEEPSEEK, "model": "deepseek-v3.2", "concurrency": 8,
                                                       "dcp": 8},
           "Sparse MLA adds a 132-byte indexer key per token and layer. Decode context parallelism over the 8 "
           "GPUs stores each request's tokens round-robin: the copied latent is divided by 8."),
    Preset("llama3-70b-draft", "70B + 8B draft", {**_LLAMA3_8B, "model": "llama-3.1-70b", "gpus": 4,
                                                  "speculation": "draft_model", "draft_model": "llama-3.1-8b"},
           "Speculative decoding with Llama 3.1 8B drafting: vLLM shards the draft over the same 4 GPUs (3.74 GiB "
           "each) and caches its 32 layers beside the 80: vLLM's maximum concurrency at 8K falls from 55.8 to 35.6."),
    Preset("deepseek-v3-mtp", "DeepSeek-V3 + MTP", {**_DEEPSEEK, "speculation": "mtp", "num_speculative_tokens": 1},
           "DeepSeek-V3's own multi-token-prediction layer as the drafter: one MoE layer and eh_proj (its LM "
           "head the model's, shared), 1.55 GiB per H200, and a 62nd latent per token: 4.67 sequences of 128K "
           "instead of 4.92."),
    Preset("mistral-7b-swa", "Mistral 7B, sliding window", {**_LLAMA3_8B, "model": "mistral-7b-v0.1",
                                                            "context": 32768},
           "Every layer keeps at most 4,096 tokens: past that, the cache stops growing (512 MiB per sequence)."),
)


def _not_computed(notes: list[str]) -> Computed:
    """Every output empty ("not computed"): the notes say why."""
    return Computed({o.name: None for o in OUTPUTS}, notes, {"pool": None, "refused": True})


#: The outputs that come from vLLM's pool (its allocator and budget), not from the textbook sizes.
#: Outputs that are the weights' bytes, or sums of them.
_WEIGHT_OUTPUTS = ("weight_bytes", "total_bytes", "weight_bytes_per_gpu", "kv_cache_memory", "drafter_bytes_per_gpu",
                   "drafter_kv_bytes_per_token")
_POOL_OUTPUTS = ("fits", "max_sequences", "max_context", "max_concurrency", "kv_cache_tokens", "gpus_needed",
                 "cheapest_gpus", "cheapest_usd_per_hour", "block_size", "startup_lines", "lora_bytes_per_gpu")


def hybrid_notes(model: physics.Model, pool: physics.Pool, context: int) -> list[str]:
    """What a hybrid model's recurrent layers, DeepSeek-V3.2's indexer and decode context
    parallelism do to vLLM's pool (shared by the calculators that show it)."""
    notes: list[str] = []
    cache = pool.layout
    if cache is None:
        return notes
    if model.is_hybrid:
        state = kv.state_bytes_per_sequence(model, pool.version)
        pages = vllm_hybrid.state_blocks_per_request(
            cache.cache_mode, max_model_len=context, block_size=cache.block_size, num_spec=cache.num_spec,
            checkpoint_blocks=cache.checkpoint_blocks, version=cache.version)
        why = {"none": "", "align": " ('align' mode, for prefix caching: the running state and the last full "
               "block's" + (", and a prefill checkpoint" if cache.checkpoint_blocks else "") + ")",
               "all": " ('all' mode, prefix caching of Mamba models: a state per block of context)"}[cache.cache_mode]
        mode = f"{pages} state page{'s' if pages > 1 else ''} per group{why}"
        notes.append(
            f"Hybrid model: {model.kv_free_layers} of {model.layers} layers keep no KV cache"
            + (f" ({model.kv_free_layers - model.state_layers} of them MLP or MoE blocks)"
               if model.kv_free_layers > model.state_layers else "")
            + f"; {model.state_layers} are {MIXER_NAMES[model.state.kind]} layers, holding a fixed "
            f"{format_bytes(state)} state per sequence (convolution window + recurrent state), as large at 10 "
            f"tokens as at {format_count(context)}. vLLM serves them from the same pool: it sets the attention "
            f"block to {format_count(cache.block_size)} tokens so that one attention page "
            f"({format_bytes(cache.page_bytes)} per layer on a GPU) holds a state, pads each state page by "
            f"{cache.state_padding:.2%}, and gives a request {mode}.")
    if model.indexer_dim:
        notes.append(
            f"DeepSeek-V3.2's sparse attention: beside each layer's latent, an indexer key of "
            f"{model.indexer_dim} fp8 values and one fp32 scale per 128 "
            f"({vllm_hybrid.indexer_bytes_per_token(model.indexer_dim)} bytes per token and layer, whatever the "
            f"KV dtype), in 64-token blocks (FlashMLA's sparse kernels).")
    if cache.dcp > 1 and not cache.problem and not cache.unmodelled:
        notes.append(
            f"Decode context parallelism over {cache.dcp} ranks: each stores every {cache.dcp}th token of a "
            f"request, so a GPU caches {format_bytes(pool.bytes_per_token)} per token of context and its "
            f"pool holds {cache.dcp}× the tokens.")
    grown = sorted({g.block_size for g in cache.groups if g.block_size and g.block_size != cache.block_size})
    if grown and not cache.unmodelled:
        notes.append(
            f"The KV layers' pages differ in size: vLLM keeps the largest ({format_bytes(cache.page_bytes)} a layer "
            f"on a GPU) and grows the smaller kind's block from {cache.block_size} to "
            f"{', '.join(str(b) for b in grown)} tokens so every page matches (unify_kv_cache_spec_page_size).")
    return notes


def vision_notes(model: physics.Model, pool: physics.Pool, weights) -> list[str]:
    """What a served vision tower adds to vLLM's budget (engines.vllm_encoder), or how to drop it."""
    if model.vision is None:
        return []
    if pool.encoder is None:
        return ["Vision tower not loaded (image and video limits 0, as --language-model-only sets them): the "
                "pool is the text model's."]
    e, b = pool.encoder, pool.encoder.budget
    peak = ("its pass peaks at " + format_bytes(e.peak_bytes) + ", above the text pass's "
            + format_bytes(pool.text_activation_bytes) if e.peak_bytes >= pool.text_activation_bytes + e.kept_bytes
            else "the text pass, with its outputs and pixels still held, peaks higher: "
            + format_bytes(pool.text_activation_bytes + e.kept_bytes))
    return [f"Vision tower: vLLM loads it ({format_bytes(weights.vision_bytes(pool.placement.tensor_parallel))} per "
            f"GPU, counted in the weights) and, before it sizes the KV cache, encodes {b.items} {b.modality}"
            f"{'s' if b.items > 1 else ''} of the largest size ({format_count(b.tokens_per_item)} tokens, "
            f"{format_count(e.patches)} patches in all); {peak}. Images and videos per prompt at 0 "
            f"(--language-model-only) serve text only and skip both."]


def compute(p: Mapping[str, Any]) -> Computed:
    notes: list[str] = []
    if scenario.refused(p):
        return _not_computed(notes)
    deployment, weight_notes = engine_choice.deployment_from_inputs(p)
    model, gpu, layout, engine, w = (deployment.model, deployment.gpu, deployment.layout, deployment.engine,
                                     deployment.weights)
    context, concurrency = p["context"], p["concurrency"]

    pool = deployment.pool
    stored = pool.stored_kv_dtype
    per_token = kv.bytes_per_token(model, stored)
    per_sequence = kv.bytes_per_sequence(model, stored, context)
    state = kv.state_bytes_per_sequence(model, engine.version)
    kv_total = per_sequence * concurrency
    refused = scenario.refused_note(w)
    held = 0.0 if refused else w.total_bytes

    placement = pool.placement
    concurrency_max = pool.concurrency(context)
    sequences = pool.sequences(context)
    fits = pool.holds(context, concurrency)
    longest = pool.longest_context(concurrency, CONTEXT_MAX)
    needed = 0 if refused else fleet.fewest_gpus(deployment, context, concurrency)
    offer = None if refused else fleet.cheapest(deployment, context, concurrency)
    legal = ", ".join(str(n) for n in deployment.legal_sizes())
    name, source = scenario.model_name(p)

    cards = f"{p['gpus']} × {gpu.name}"
    if refused:
        notes.append(refused)
    elif not placement.legal:
        notes.append(placement.problem)
    elif pool.problem:
        notes.append(f"{engine_choice.engine_name(deployment)} refuses this: {pool.problem}.")
    elif pool.available_bytes <= 0:
        notes.append(
            f"vLLM would not start: on each GPU the weights ({format_bytes(placement.weight_bytes_per_gpu)}), "
            f"the activation peak ({format_bytes(pool.activation_bytes)}) and the runtime "
            f"({format_bytes(pool.overhead_bytes)}) exceed the {format_bytes(pool.requested_bytes)} it may use"
            + (f"; {needed} GPUs would fit." if needed else "; no count of these GPUs up to 64 fits."))
    elif refusal := multi_page_notes.refusal(pool, context):
        notes.append(refusal + (f"; {needed} GPUs would fit." if needed else "."))
    elif not fits:
        notes.append(
            f"vLLM starts, but its {format_bytes(pool.available_bytes)} of KV cache per GPU holds "
            f"{format_ratio(round(concurrency_max, 2))} sequences of {format_count(context)} tokens, not "
            f"{format_count(concurrency)}" + (f"; {needed} GPUs would." if needed else "."))
    if placement.legal and model.is_mla and placement.tensor_parallel > 1 and engine.dcp == 1:
        notes.append(f"MLA under tensor parallelism: each of the {placement.tensor_parallel} GPUs holds the whole "
                     f"latent cache ({format_bytes(pool.bytes_per_token)} per token). Data-parallel attention "
                     f"or decode context parallelism (More parameters) divide it instead.")
    elif placement.legal and placement.kv_replicas > 1 and not model.is_mla:
        notes.append(f"Tensor parallel over {placement.tensor_parallel} GPUs with {model.kv_heads} KV heads: each "
                     f"head is stored on {placement.kv_replicas} GPUs.")
    if layout.attention == physics.DP and not model.is_moe and p["gpus"] > 1:
        notes.append(f"Data-parallel attention on a dense model: {p['gpus']} independent replicas, each holding "
                     f"all the weights.")
    if stored != p["kv_dtype"]:
        notes.append(f"vLLM {engine.version} stores --kv-cache-dtype {p['kv_dtype']} on this GPU, for a model with "
                     f"DeepSeek sparse attention, as fp8_ds_mla, the record of FlashMLA's sparse kernels (and of "
                     f"FlashInfer's SM120 sparse backend, which stores auto, fp8 and fp8_e4m3 so from 0.24): 512 fp8 "
                     f"latent values, 4 fp32 scales and 64 bf16 RoPE values, 656 bytes a token and layer (576 in "
                     f"plain fp8, as FlashInfer's sparse backend keeps it on a B200 from 0.19), beside the indexer's "
                     f"fp8 keys.")
    if (p["kv_dtype"] == "bf16" and kv.stored_kv_dtype(model, "fp8", "0.11.0") == "fp8_ds_mla"
            and vllm_hybrid.deepseek_v32_auto_kv_dtype(engine.version) == "fp8_ds_mla"):
        notes.append(f"bf16 here is --kv-cache-dtype bfloat16: vLLM {engine.version}'s default (auto) stores a "
                     f"DeepSeek sparse-attention cache as fp8_ds_mla (0.11 to 0.17), 656 bytes of latent a token "
                     f"and layer.")
    if p["kv_dtype"] in ("fp8_ds_mla", "nvfp4_ds_mla") and model.is_mla and not model.indexer_dim:
        notes.append(f"{p['kv_dtype']} is the record of DeepSeek-V3.2's sparse MLA kernels (FlashMLA); vLLM "
                     f"accepts it only for models with the sparse indexer.")
    if per_token == 0 and model.kv_layers:
        notes.append("The cache per token is 0 bytes: check the head or latent dimensions.")
    notes.extend(expert_parallel.reader_notes(model, layout, placement, w))
    notes.extend(hybrid_notes(model, pool, context))
    notes.extend(engine_choice.sglang_notes(deployment))
    notes.extend(multi_page_notes.notes(pool, context))
    if deployment.sglang is None and (
            tp_note := vllm_measured.tp_communicator_note(gpu, placement.tensor_parallel, engine.version)):
        notes.append(tp_note)
    if uma := vllm_measured.unified_memory_note(gpu, engine.version):
        notes.append(uma)
    notes.extend(vision_notes(model, pool, w))
    notes.extend(lora_notes.notes(pool))
    notes.extend(speculation_outputs.memory_notes(deployment))
    notes.extend(weight_notes)

    values = {
        "kv_bytes_per_token": per_token,
        "kv_bytes_per_sequence": per_sequence,
        "kv_bytes_total": kv_total,
        "state_bytes_per_sequence": state,
        "weight_bytes": held,
        "weight_format": f"not modelled: {w.refused}" if refused else w.plan.scheme.label,
        "weight_breakdown": breakdown_text(w),
        "total_bytes": held + kv_total + state * concurrency,
        "fits": fits,
        "max_sequences": sequences,
        "max_context": longest,
        **scenario.pool_values(pool, context, p["gpus"]),
        # SGLang's own weights per rank (under DP attention its slicing differs from the book's DP placement)
        "weight_bytes_per_gpu": pool.weight_bytes if deployment.sglang is not None else placement.weight_bytes_per_gpu,
        "lora_bytes_per_gpu": lora_notes.value(pool),
        "runtime_bytes": pool.overhead_bytes,
        "free_bytes_per_gpu": max(0.0, pool.visible_bytes - pool.requested_bytes),
        "engine_release": engine_choice.engine_text(deployment,
                                                    scenario.release_text(engine, gpu.vendor, model.is_moe)),
        "startup_lines": startup.lines(deployment, context),
        "kv_bytes_per_token_per_gpu": pool.bytes_per_token,
        "block_size": pool.block_size,
        "kv_replicas": placement.kv_replicas,
        "legal_gpus": legal or "none",
        "gpus_needed": needed,
        "cheapest_gpus": ("not computed (the weights' format is not modelled)" if refused else
                          offer.describe() if offer else "none of the listed GPUs (up to 64)"),
        "cheapest_usd_per_hour": offer.usd_per_hour if offer else 0.0,
        "model_name": name,
        "model_source": source,
        **speculation_outputs.memory_values(pool),
    }
    if pool.unmodelled:
        notes.append(f"Not modelled: {pool.unmodelled}. vLLM's pool is not computed.")
        values.update({name: None for name in (*_POOL_OUTPUTS, *lora_notes.unknown(pool))})
    if refused:  # no number from a substituted format: every output that depends on the weights
        values.update({name: None for name in (*_POOL_OUTPUTS, *_WEIGHT_OUTPUTS)})
    return Computed(values, notes, {"pool": pool, "cards": cards, "utilization": engine.utilization,
                                    "weights": w, "refused": bool(refused)})


def _context_label(tokens: int) -> str:
    if tokens >= 1048576:
        return f"{tokens // 1048576}M"
    if tokens >= 1024:
        return f"{tokens // 1024}K"
    return str(tokens)


def chart(p: Mapping[str, Any], v: Mapping[str, Any], details: Mapping[str, Any]) -> list[Chart]:
    """One GPU's memory against context (when vLLM's pool is computed), and the weights by tensor
    group (when the checkpoint's format is modelled)."""
    charts = []
    if details["pool"] is not None and v["max_concurrency"] is not None:
        charts.append(memory_chart(p, v, details))
    if not details["refused"]:
        charts.append(breakdown_chart(details["weights"]))
    return charts


def memory_chart(p: Mapping[str, Any], v: Mapping[str, Any], details: Mapping[str, Any]) -> Chart:
    """One GPU's memory against context (powers of two): what vLLM may use, and what the weights,
    the activation peak, the runtime and the sequences' KV blocks take."""
    pool = details["pool"]
    contexts = [2**i for i in range(9, 21)]  # 512 … 1M tokens
    weights_bytes = 0.0 if details["refused"] else pool.weight_bytes  # never a substituted format's bytes
    fixed = weights_bytes + pool.lora_bytes + pool.drafter_bytes + pool.activation_bytes + pool.overhead_bytes
    per_pool = math.ceil(p["concurrency"] / pool.placement.data_parallel)
    block_bytes = pool.page_bytes * pool.layers_per_group

    def kv_at(c: int) -> float:
        return per_pool * pool.request_blocks(c) * block_bytes

    used = [(fixed + kv_at(c)) / GiB for c in contexts]
    marker = min(range(len(contexts)), key=lambda i: abs(math.log2(contexts[i]) - math.log2(p["context"])))
    gpu = GPUS[p["gpu"]]
    summary = (
        f"On each of {details['cards']}, vLLM may use {format_bytes(pool.requested_bytes)} (usable: "
        f"{details['utilization']:g} of the {format_bytes(pool.visible_bytes)} the driver shows). Weights take "
        f"{'(not computed)' if details['refused'] else format_bytes(pool.weight_bytes)}, "
        + (f"the LoRA slots {format_bytes(pool.lora_bytes)}, " if pool.lora_bytes else "")
        + (f"the drafter {format_bytes(pool.drafter_bytes)}, " if pool.drafter_bytes else "") + f"the activation peak "
        f"{format_bytes(pool.activation_bytes)}, the runtime "
        f"{format_bytes(pool.overhead_bytes)}; the KV cache gets {format_bytes(max(0.0, pool.available_bytes))}. "
        + (f"At {format_count(p['concurrency'])} sequence(s) the longest context that fits is "
           f"{format_count(v['max_context'])} tokens." if v["max_context"] else
           "Not one sequence fits: vLLM would refuse to start.")
    )
    return Chart(
        kind="line",
        title="One GPU's memory against context length",
        x_label="Context length (tokens, log scale)",
        y_label="GiB per GPU",
        labels=[_context_label(c) for c in contexts],
        series=[
            {"name": "Weights + activations + runtime + KV cache" + (" + LoRA slots" if pool.lora_bytes else "")
             + (" + drafter" if pool.drafter_bytes else ""),
             "values": [round(u, 3) for u in used]},
            {"name": "KV cache of the sequences", "values": [round(kv_at(c) / GiB, 3) for c in contexts]},
            {"name": f"vLLM may use ({details['utilization']:g} × {gpu.id})",
             "values": [round(pool.requested_bytes / GiB, 3)] * len(contexts), "kind": "rule"},
        ],
        marker=marker,
        summary=summary,
    )


SPEC = Calculator(
    id="kv-cache",
    title="KV cache and memory fit",
    summary="Bytes of keys and values per token, per sequence and in total, and what fits: per GPU, as vLLM "
            "places the weights and the cache and budgets its memory.",
    params=PARAMS,
    outputs=OUTPUTS,
    presets=PRESETS,
    compute=compute,
    chart=chart,
    resolve=scenario.make_resolve(lambda p: p["context"]),
    answer=answers.kv_cache,
    answers=answers.KV_CACHE,
    bars=(Bar(answers.MEMORY_PER_GPU, answers.MEMORY_BAR, names=answers.MEMORY_BAR_NAMES,
              optional=answers.MEMORY_BAR_OPTIONAL),),
)
