"""The speculative drafter's figures as the calculators show them: its memory (kv-cache) and the
speed-up its steps give (decode roofline). Declared once here so that the two calculators add them
with one line each; the numbers are physics.speculation's and physics.speculative_speed's.
"""

from __future__ import annotations

from typing import Any, Mapping

from course_calculators.spec import Number, Output
from course_calculators.units import format_bytes, format_ratio

from .physics.budget import Pool
from .physics.speculation import NGRAM
from .physics.speculative_speed import speculative_step

#: The acceptance rate a reader sees first: chat-like text with a well-matched draft (0.6–0.8 is the
#: range Leviathan et al. 2023 report for T5 and LaMDA drafts of their targets).
DEFAULT_ACCEPTANCE = 0.7

MEMORY_OUTPUTS = (
    Output("drafter_bytes_per_gpu", "Drafter weights per GPU (speculative decoding)", "bytes",
           help="The draft model's share of its weights (sharded like the model), or the MTP layers (their "
                "LM head and embedding the model's, shared; DeepSeek's kept its own head up to vLLM 0.15): taken "
                "off the KV cache's budget on every GPU. 0 without speculative decoding."),
    Output("drafter_kv_bytes_per_token", "Drafter's KV cache per token, per GPU", "bytes",
           help="Keys and values the drafter's layers cache per token in the same pool (counted in the KV "
                "cache per token, per GPU)."),
)

SPEED_PARAMS = (
    Number("spec_acceptance", "Acceptance rate α (speculative decoding)", DEFAULT_ACCEPTANCE, 0, 1, step=0.01,
           integer=False, advanced=True,
           help="Chance the model accepts a drafted token; with speculative decoding on (More parameters), the "
                "speed-up is computed at this rate."),
)

SPEED_OUTPUTS = (
    Output("spec_tokens_per_step", "Tokens per step (speculative decoding)", "count", precision=2,
           help="(1 − α^(k+1)) / (1 − α): accepted drafts plus the token the model samples itself."),
    Output("spec_speedup", "Speed-up of one stream (speculative, ceiling)", "ratio", precision=2,
           help="Tokens per step × a plain step ÷ (the model verifying k + 1 tokens + k draft steps), on the "
                "bandwidth and compute ceilings."),
    Output("spec_tokens_per_s", "Tokens/s, one stream (speculative, ceiling)", "tokens_per_s"),
)


def memory_values(pool: Pool) -> dict[str, Any]:
    return {"drafter_bytes_per_gpu": pool.drafter_bytes,
            "drafter_kv_bytes_per_token": pool.drafter.token_bytes}


#: Said where the engine is SGLang: its draft's memory is (physics.sglang_pool, engine_choice.sglang_notes),
#: not the speed of its steps.
SGLANG_NOTE = ("Speculative decoding's speed under SGLang is not modelled (its draft's memory is: see the "
               "pool's note).")


#: n-gram loads no drafter (physics.speculation): said, so that an unchanged pool is not read as an error.
NGRAM_NOTE = ("Speculative decoding with n-gram prompt lookup: vLLM loads no drafter model and caches nothing "
              "more (the draft is looked up in the request's own tokens on the CPU), so the pool is the plain one.")


def memory_notes(deployment) -> list[str]:
    if deployment.sglang is not None:
        return []  # SGLang's draft: engine_choice.sglang_notes
    d = deployment.pool.drafter
    if d.method == NGRAM:
        return [NGRAM_NOTE]
    if not (d.weight_bytes or d.kv_layers):
        return []
    return [f"Speculative decoding with {d.label}: {format_bytes(d.weight_bytes)} of drafter weights on each GPU "
            f"and {d.kv_layers} more layer(s) caching in the same pool ({format_bytes(d.token_bytes)} per token "
            f"on each GPU), so fewer sequences fit."]


def speed_values(deployment, p: Mapping[str, Any], batch: int,
                 plain_tokens_per_s: float) -> tuple[dict[str, Any], list[str]]:
    """The speed outputs and a note: without speculation one token a step at the plain speed; None
    when the drafter is not computed."""
    pool = deployment.pool
    spec = deployment.engine.speculation
    if not spec.on:
        return {"spec_tokens_per_step": 1.0, "spec_speedup": 1.0, "spec_tokens_per_s": plain_tokens_per_s}, []
    step = None
    if not pool.problem:
        step = speculative_step(pool.drafter, spec.k, p.get("spec_acceptance", DEFAULT_ACCEPTANCE),
                                deployment.model, pool.placement, deployment.gpu, deployment.weights,
                                p["kv_dtype"], batch, p["context"])
    if step is None:
        return {o.name: None for o in SPEED_OUTPUTS}, [SGLANG_NOTE] if deployment.sglang is not None else []
    note = (f"Speculative decoding, k {step.k} at α {step.acceptance:g}: {step.tokens_per_step:.2f} tokens per "
            f"step; the model verifying {step.k + 1} tokens per sequence costs {format_ratio(step.verify_s / step.plain_s)} "
            f"of a plain step and each draft step {format_ratio(step.draft_cost)}, so one stream goes "
            f"{format_ratio(step.speedup)} as fast (ceiling; the engine's per-step floor left out).")
    return {"spec_tokens_per_step": step.tokens_per_step, "spec_speedup": step.speedup,
            "spec_tokens_per_s": step.tokens_per_s}, [note]
