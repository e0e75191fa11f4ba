"""What kv-cache says of a pool whose layers keep pages of several sizes (physics.multi_page_pool):
GLM-5.2's latent and indexer pages, DeepSeek-V4's compressed, window and state pages."""

from __future__ import annotations

from course_calculators.units import format_bytes, format_count

from .physics import multi_page_pool as mpp
from .physics.budget import Pool


def notes(pool: Pool, context: int) -> list[str]:
    """How vLLM lays this pool out (its per-request reckoning at ``context`` tokens)."""
    cache = pool.layout
    pages = cache.multi_page if cache is not None else None
    if pages is None:
        return []
    out = []
    if pages.packed:
        first = pages.groups[0]
        per_group = pages.group_pages(context, pool.batched_tokens)
        fixed = sum(p * g.page for p, g in zip(per_group[1:], pages.groups[1:]))
        window = next(g.window for g in pages.groups if g.block_size == mpp.V4_WINDOW_BLOCK)
        out.append(
            f"DeepSeek-V4's pool (vLLM {cache.version}): every layer keeps a {window}-token window in "
            f"{mpp.V4_WINDOW_BLOCK}-token blocks; the C4 and C128 layers add compressed entries and the C4 indexer "
            f"keys (one page of {len(set(first.pages))} sizes per {cache.block_size}-token block) and their "
            f"compressors' fp32 states. vLLM makes "
            f"{len(pages.groups)} groups of them ({pages.layer_tuples} layer tuples) and "
            + ("lays each group over the same block, the largest group's pages"
               if pages.block_bytes == max(g.page for g in pages.groups) else
               "pads each window and state page up to a compressed one and packs a block id's pages together")
            + f": {format_bytes(pages.block_bytes)} a block on each GPU. A request of {format_count(context)} tokens takes {per_group[0]:,} compressed "
            f"pages, growing with its length, and window and state pages that do not "
            f"({format_bytes(fixed)}: each window and state holds its window plus the tokens in flight), so "
            f"\"GPU KV cache size\" is the concurrency times the length, not a capacity per token.")
    else:
        out.append(
            f"The indexer is kept on some layers only: vLLM puts every layer's latent page and each indexer-key "
            f"page of a {cache.block_size}-token block in one group (UniformTypeKVCacheSpecs), "
            f"{format_bytes(pages.block_bytes)} a block on each GPU.")
    return out


def refusal(pool: Pool, context: int) -> str:
    """vLLM's start check failing at ``context`` tokens ("" when it passes or does not apply)."""
    if pool.starts_at(context):
        return ""
    pages = pool.layout.multi_page
    need = pages.start_bytes(context, pool.batched_tokens)
    longest = pages.longest_start(pool.available_bytes, pool.batched_tokens, context)
    return (f"vLLM refuses to start: for one request of {format_count(context)} tokens its check asks "
            f"{format_bytes(need)} of KV cache memory (_max_memory_usage_bytes_from_groups), and each GPU has "
            f"{format_bytes(pool.available_bytes)}; its estimated maximum model length is {longest:,}")
