"""What the calculators show of vLLM's LoRA slots (physics.lora): one output and its note, declared
once for every calculator that offers the LoRA inputs (:mod:`.deployment_inputs_lora`)."""

from __future__ import annotations

from course_calculators.spec import Output
from course_calculators.units import format_bytes

from .physics import Pool

OUTPUT = Output("lora_bytes_per_gpu", "LoRA adapter slots per GPU", "bytes",
                help="--enable-lora: the slots' A and B tensors of every wrapped layer, sized for --max-loras "
                     "adapters of --max-lora-rank, and vLLM's LoRA index buffers, allocated when the model loads "
                     "and so taken from the KV cache; 0 with LoRA off.")

#: The outputs a pool's budget gives that are unknown when the LoRA slots are not modelled (the KV
#: memory is what is left after them).
BUDGET_OUTPUTS = ("lora_bytes_per_gpu", "kv_cache_memory")


def value(pool: Pool) -> float | None:
    """The slots' bytes on one GPU: 0 with LoRA off, None ("not computed") when not modelled."""
    if pool.lora is None:
        return 0.0
    return None if pool.lora.problem else pool.lora_bytes


def unknown(pool: Pool) -> tuple[str, ...]:
    """The outputs to leave not computed because the slots are not modelled (none otherwise)."""
    return BUDGET_OUTPUTS if pool.lora is not None and pool.lora.problem else ()


def notes(pool: Pool) -> list[str]:
    """One line on what the slots take, with LoRA on and modelled."""
    lora = pool.lora
    if lora is None or lora.problem or getattr(pool, "sglang", None) is not None:
        return []  # SGLang's LoRA buffers have their own note (engine_choice.sglang_notes)
    text = (f"LoRA: vLLM holds {format_bytes(lora.slot_bytes)} of adapter slots and {format_bytes(lora.index_bytes)} "
            f"of LoRA index buffers on each GPU, allocated with the weights and so taken from the KV cache "
            f"(vllm/lora/layers create_lora_weights; the modules and shapes are in engines/vllm_lora.py).")
    if lora.expert_slot_bytes:
        text += (f" {format_bytes(lora.expert_slot_bytes)} of it are the fused-MoE slots: every slot holds an adapter "
                 f"for each of the {lora.local_experts} routed experts per layer on this GPU, not only for the few a "
                 f"token uses (vllm/lora/layers/fused_moe.py).")
    if lora.side_modules:
        text += f" The rest includes {lora.side_modules}, each wrapped with its own slots."
    return [text]
