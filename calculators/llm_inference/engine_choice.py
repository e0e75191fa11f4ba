"""Which engine serves the deployment — vLLM or SGLang — and SGLang's own flags.

The parameters are declared here and join :func:`scenario_params.engine_params`; a calculator's deployment
takes them through :func:`deployment_from_inputs`, which puts SGLang's settings on the one
Deployment (physics.deployment), whose pool is then SGLang's (physics.sglang_pool). The vLLM
parameters stay on the form (the framework has no conditional fields): their labels name vLLM,
and under SGLang they change nothing but the weights' release.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from course_calculators.spec import Choice, Number

from .engines import sglang
from .engines import sglang_speculation
from .physics.deployment import Deployment
from .physics.sglang_pool import NEWEST, SGLangSettings

VLLM, SGLANG = "vllm", "sglang"

#: The releases whose automatic mem_fraction_static is modelled, by the form of the rule
#: (engines.sglang.default_mem_fraction_static); the token pool's formula is the same in all.
SGLANG_RELEASE_CHOICES = (
    ("0.4.3", "0.4.3–0.4.5 (fraction table by TP)"),
    ("0.4.6", "0.4.6 (table; 13 GiB kept above 80 GiB)"),
    ("0.4.7", "0.4.7 (table by TP·PP, adjusted above 96 GiB)"),
    ("0.4.8", "0.4.8–0.4.9 (reserved GiB by GPU class)"),
    ("0.4.10", "0.4.10 (as 0.4.8; Gemma 2/3's windowed layers in an SWA pool)"),
    ("0.5.3", "0.5.3–0.5.5 (reserved from chunked prefill and CUDA-graph batch)"),
    (NEWEST, f"{NEWEST} (the same rule)"),
    ("0.5.23", "0.5.23 (memory_hook.py: prefill CUDA graphs and DeepEP reserved too; newest read)"),
)


def params() -> tuple:
    """``engine`` and SGLang's flags."""
    return (
        Choice("engine", "Serving engine", VLLM, ((VLLM, "vLLM"), (SGLANG, "SGLang")), scenario="engine",
               help="vLLM profiles a forward pass and caps its memory at gpu_memory_utilization; SGLang profiles "
                    "nothing, keeps a fixed share of the free memory (1 − mem_fraction_static) for activations and "
                    "CUDA graphs and gives the rest after the weights to a token pool of page size 1."),
        Choice("sglang_version", "SGLang release", NEWEST, SGLANG_RELEASE_CHOICES, advanced=True,
               scenario="sglang_version",
               help="SGLang only: the release whose automatic mem_fraction_static applies (read from the "
                    "wheels 0.4.3.post2 to 0.5.23)."),
        Number("mem_fraction_static", "SGLang --mem-fraction-static", 0, 0, 0.99, step=0.001, integer=False,
               advanced=True,
               help="SGLang only: the share of the free memory that weights and the KV pool may take; 0: the "
                    "release's automatic value for this GPU and TP."),
        Number("sglang_page_size", "SGLang --page-size", 1, 1, 256, advanced=True,
               help="SGLang only: tokens per page (1 by default; FlashMLA forces 64, cutlass MLA 128). The "
                    "pool is rounded down to whole pages."),
        Number("swa_full_tokens_ratio", "SGLang --swa-full-tokens-ratio", 0, 0, 1,
               step=0.01, integer=False, advanced=True,
               help="SGLang only, sliding-window models whose release keeps windowed layers in a pool of their own "
                    "(Gemma 2/3 in 0.4.10, gpt-oss from 0.5.23; 0.5.3–0.5.6 give every layer every token): the "
                    "SWA pool's tokens ÷ the full pool's; 0: SGLang's default, 0.8."),
        Number("max_total_tokens", "SGLang --max-total-tokens", 0, 0, 1 << 24, unit="tokens", advanced=True,
               help="SGLang only: a cap on the token pool; 0: none."),
        Number("sglang_free_gib", "SGLang free memory at start", 0, 0, 1024, step=0.01, unit="GiB", integer=False,
               advanced=True,
               help="SGLang only: the 'Load weight begin. avail mem=… GB' of your log (free memory after the CUDA "
                    "context and NCCL, the base of the fraction); 0: the visible memory less 0.53 GiB (one GPU) "
                    "or 2.0 GiB (tensor parallel), the band public logs show."),
    )


def settings_from_inputs(p: Mapping[str, Any], model_type: str = "") -> SGLangSettings | None:
    """SGLang's settings when the reader chose SGLang, else None (vLLM); ``model_type``: the model's
    (physics Model.model_type: SGLang keys its SWA pool on the architecture)."""
    if p.get("engine", VLLM) != SGLANG:
        return None
    return SGLangSettings(release=p.get("sglang_version", NEWEST), mem_fraction_static=p.get("mem_fraction_static", 0),
                          page_size=int(p.get("sglang_page_size", 1)),
                          max_total_tokens=int(p.get("max_total_tokens", 0)),
                          free_at_start_gib=p.get("sglang_free_gib", 0),
                          swa_full_tokens_ratio=p.get("swa_full_tokens_ratio", 0),
                          model_type=model_type)


def under_engine(deployment: Deployment, p: Mapping[str, Any]) -> Deployment:
    """``deployment`` served by the engine the reader chose (vLLM's deployment unchanged)."""
    settings = settings_from_inputs(p, deployment.model.model_type)
    return deployment if settings is None else replace(deployment, sglang=settings)


def deployment_from_inputs(p: Mapping[str, Any], *args, **kwargs) -> tuple[Deployment, list[str]]:
    """:func:`scenario.deployment_from_inputs`, served by the chosen engine."""
    from . import scenario  # scenario imports this module's params
    deployment, notes = scenario.deployment_from_inputs(p, *args, **kwargs)
    return under_engine(deployment, p), notes


def engine_text(deployment: Deployment, fallback: str) -> str:
    """The "Engine rules" line: SGLang's release and fraction, or ``fallback`` (vLLM's text)."""
    s = deployment.sglang
    if s is None:
        return fallback
    pool = deployment.pool
    fraction = pool.sglang.mem_fraction_static if getattr(pool, "sglang", None) else s.mem_fraction_static
    how = "given" if s.mem_fraction_static else "automatic"
    return (f"SGLang {s.release} rules (source read: {sglang.RELEASES_READ[0]} to {sglang.RELEASES_READ[-1]}): "
            f"mem_fraction_static {fraction:.3f} ({how}), page size {s.page_size}, token pool = free after weights "
            f"− free at start × (1 − fraction)")


def sglang_notes(deployment: Deployment) -> list[str]:
    """What SGLang does with windowed layers and DeepSeek-V3.2's indexer (nothing under vLLM, or when refused)."""
    pool = deployment.pool
    s = getattr(pool, "sglang", None)
    if deployment.sglang is None or s is None or pool.problem:
        return []
    model, notes = deployment.model, []
    dp = pool.placement.data_parallel
    if dp > 1:
        notes.append(_dp_attention_note(deployment, pool, s, dp))
    if s.swa is not None:
        notes.append(
            f"SGLang {s.release} keeps the {s.swa.swa_layers} sliding-window layers in a pool of their own "
            f"(SWAKVPool): {s.swa.full_tokens:,} tokens for the {s.swa.full_layers} full layers, "
            f"{s.swa.swa_tokens:,} (--swa-full-tokens-ratio {s.swa.ratio:g}) for the windowed ones, from the same "
            f"bytes one pool of every layer would take. A request takes its whole length in the full pool; "
            f"the SWA pool frees what falls out of the {model.window:,}-token window.")
    elif model.windowed_layers:
        notes.append(
            f"SGLang {s.release} gives the {model.windowed_layers} sliding-window layers every token, as the full "
            f"ones (one pool; the window is an attention mask): SGLang's SWA pool is Gemma 2/3's in 0.4.10 and "
            f"gpt-oss's from 0.5.23, and 0.5.3–0.5.6 turn it off for both (disable_hybrid_swa_memory).")
    spec = getattr(pool, "speculative", None)
    if spec is not None:
        if spec.algorithm == "NGRAM":
            notes.append("SGLang's NGRAM speculative decoding loads no draft model and leaves the pool as it is.")
        else:
            headroom = sglang_speculation.speculative_headroom(spec)
            notes.append(
                f"SGLang {spec.algorithm} ({pool.drafter.label}): {spec.num_steps} steps, topk {spec.eagle_topk}, "
                f"{spec.num_draft_tokens} draft tokens, --max-running-requests {spec.max_running_requests}. The "
                f"target's pool gets {headroom:,} tokens of headroom beyond the profile (requests × (steps × topk "
                f"+ draft tokens) + 100), and the draft's weights ({pool.drafter_bytes / sglang.GIB:.2f} GiB) "
                f"and its own KV pool of as many tokens ({pool.draft_pool_bytes / sglang.GIB:.2f} GiB) load after "
                f"the profile, out of the 1 − mem_fraction_static reserve"
                + (", whose automatic value keeps a draft's share." if not deployment.sglang.mem_fraction_static
                   else "."))
    lora = getattr(pool, "lora", None)
    if lora is not None and lora.slot_bytes:
        slots = deployment.engine.lora
        notes.append(
            f"SGLang --enable-lora --max-loras-per-batch {slots.max_loras} --max-lora-rank {slots.max_rank} (every "
            f"target module): its A and B buffers ({lora.slot_bytes / sglang.GIB:.2f} GiB a GPU, lora/mem_pool.py) "
            f"are allocated after the weights and before profile_max_num_token measures the free memory, so they "
            f"come out of the KV pool byte for byte.")
    if model.indexer_dim:
        notes.append(
            f"SGLang's NSA pool (DeepSeek-V3.2): per token and layer the latent and the indexer's key "
            f"({sglang.nsa_indexer_bytes(model.indexer_dim)} bytes: {model.indexer_dim} fp8 values and an fp32 scale "
            f"per 128), in pages of {sglang.NSA_PAGE_SIZE} tokens, which server_args sets for it.")
    return notes


def _dp_attention_note(deployment: Deployment, pool, s, dp: int) -> str:
    """What SGLang makes of the book's DP layout (--tp N --dp N --enable-dp-attention)."""
    model = deployment.model
    text = (f"SGLang serves this layout as --tp {dp} --dp {dp} --enable-dp-attention: {dp} attention groups of one "
            f"GPU (layers/dp_attention.py), each caching "
            + ("the whole MLA latent" if model.is_mla else f"all {model.kv_heads} KV heads")
            + f" for its own requests: {s.max_total_num_tokens:,} tokens a rank, {dp} pools. Its weights are "
            f"SGLang's ({pool.weight_bytes / sglang.GIB:.2f} GiB a GPU: attention and embedding whole, LM head, "
            f"dense MLPs and every expert sliced over the {dp} GPUs), not the book's DP placement "
            f"({pool.placement.weight_bytes_per_gpu / sglang.GIB:.2f} GiB, experts dealt whole).")
    version = sglang.parse_release(s.release)
    if version >= (0, 5, 0) and (d := s.defaults) is not None:
        text += (f" Each rank prefills {d.chunked_prefill_per_rank:,} tokens a chunk "
                 f"({d.chunked_prefill_size:,} ÷ {dp}).")
    if not deployment.sglang.mem_fraction_static:
        text += (" The automatic fraction keeps 3 MiB (4.5 above a graph batch of 300) × graph batch × "
                 f"{dp} more for DP attention's padding." if version >= (0, 5, 0) else
                 " The automatic fraction keeps 4 GiB more for DP attention." if version >= (0, 4, 8) else "")
    return text


def engine_name(deployment: Deployment) -> str:
    return "vLLM" if deployment.sglang is None else "SGLang"
