"""The LoRA buffers SGLang preallocates with ``--enable-lora``, before it measures the memory left for the
KV pool (so they come out of it byte for byte)."""

from __future__ import annotations

from . import sglang  # the module object: physics imports these while sglang is loading

__all__ = ["SGLANG_MAX_LORAS_PER_BATCH", "lora_buffer_bytes"]

#: SGLang's LoRA memory pool, read in 0.5.6 (lora/mem_pool.py ``LoRAMemoryPool``); a release from 0.5.6 up
#: to 0.5.22 takes it. 0.5.23's pool adds embedding, LM-head and MoE-expert buffers (not modelled);
#: releases before 0.5.6 were not read for it.
_LORA_FROM, _LORA_BEFORE = (0, 5, 6), (0, 5, 23)
#: ``--max-loras-per-batch``'s default (server_args.py, 0.5.6).
SGLANG_MAX_LORAS_PER_BATCH = 8


def lora_buffer_bytes(*, layers: int, hidden: int, heads: int, kv_heads: int, head_dim: int, intermediate: int,
                      max_loras_per_batch: int, max_lora_rank: int, tp: int = 1, dtype_bytes: int = 2,
                      release: str = "0.5.6") -> int:
    """Bytes of the A and B buffers ``--enable-lora`` preallocates on one GPU of a dense model, every target
    module (``--lora-target-modules all``: qkv_proj, o_proj, gate_up_proj, down_proj after
    ``get_normalized_target_modules``).

    0.5.6 (https://github.com/sgl-project/sglang/blob/v0.5.6/python/sglang/srt/lora/mem_pool.py
    ``init_buffers``, shapes from ``get_lora_A_shape``/``get_lora_B_shape`` and lora/utils.py
    ``get_hidden_dim``): per layer and module, A is (slots, rank × stacked, input) and B (slots, output,
    rank), stacked 3 for qkv_proj and 2 for gate_up_proj; TP divides A's input of the row-parallel modules
    (o_proj, down_proj) and B's output of the others. In the base model's dtype. model_runner.py
    ``initialize`` calls ``init_lora_manager`` after the weights and before ``init_memory_pool``, whose
    ``profile_max_num_token`` measures the free memory again: the buffers come out of the KV pool, byte for
    byte. (The adapters' own weights, loaded by lora/lora.py, are not counted here: not read.)
    """
    version = sglang.parse_release(release)
    if not _LORA_FROM <= version < _LORA_BEFORE:
        raise ValueError(f"SGLang {release}'s LoRA memory pool is not modelled (read: 0.5.6, which releases up to "
                         "0.5.22 take; 0.5.23 adds embedding, LM-head and expert buffers)")
    if tp > 1 and (heads * head_dim % tp or intermediate % tp or kv_heads % tp and tp % kv_heads):
        raise ValueError(f"SGLang's LoRA buffers split over TP {tp}: the head or MLP widths do not divide")
    slots, rank = max_loras_per_batch, max_lora_rank
    qkv_out = head_dim * (heads + 2 * kv_heads)
    per_layer = (slots * rank * 3 * hidden + slots * (qkv_out // tp) * rank  # qkv_proj: A, B
                 + slots * rank * (heads * head_dim // tp) + slots * hidden * rank  # o_proj (row parallel)
                 + slots * rank * 2 * hidden + slots * (2 * intermediate // tp) * rank  # gate_up_proj
                 + slots * rank * (intermediate // tp) + slots * hidden * rank)  # down_proj (row parallel)
    return per_layer * layers * dtype_bytes
