"""The startup lines the chosen engine prints for the deployment's pool: SGLang's "KV Cache is
allocated" and ``max_total_num_tokens``, or vLLM's "Available KV cache memory", "GPU KV cache size"
and "Maximum concurrency" — the figures the evidence tables check, in the words of the logs."""

from __future__ import annotations

from course_calculators.spec import Output

from .physics.deployment import Deployment
from .physics.sglang_pool import startup_lines

OUTPUT = Output("startup_lines", "Startup lines (one GPU)", "text",
                help="What the engine logs for this pool: SGLang's 'KV Cache is allocated' and "
                     "max_total_num_tokens, or vLLM's available KV memory, KV cache size and concurrency.")


def lines(deployment: Deployment, context: int) -> str:
    pool = deployment.pool
    if deployment.sglang is not None:
        return startup_lines(pool)
    if pool.problem or not pool.starts:
        return "vLLM does not start: " + (pool.problem or "no memory left for one KV block")
    gib = pool.available_bytes / (1 << 30)
    if not pool.starts_at(context):  # a multi-page pool's start check (physics.multi_page_pool)
        need = pool.layout.multi_page.start_bytes(context, pool.batched_tokens) / (1 << 30)
        return (f"Available KV cache memory: {gib:.2f} GiB · ValueError: To serve at least one request with the "
                f"model's max seq len ({context}), ({need:.2f} GiB KV cache is needed, which is larger than the "
                f"available KV cache memory ({gib:.2f} GiB)")
    return (f"Available KV cache memory: {gib:.2f} GiB · GPU KV cache size: {pool.kv_cache_tokens(context):,} tokens · "
            f"Maximum concurrency for {context:,} tokens per request: {pool.concurrency_per_pool(context):.2f}x")
