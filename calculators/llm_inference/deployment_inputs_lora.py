"""vLLM's LoRA inputs: ``--enable-lora --max-loras M --max-lora-rank R [--fully-sharded-loras]``, read into
``Engine.lora`` (physics.lora.LoraSlots; None when off).

Declared apart from :mod:`.deployment_inputs` (whose :func:`~.deployment_inputs.engine_inputs` lists
them) so that the LoRA rule and its inputs sit together: the slots' bytes are physics.lora's, from
vLLM's source (engines.vllm_lora). The slot count's 0 is "no ``--enable-lora``", the default, so a
calculator run without LoRA gives the numbers it gave before these inputs existed.
"""

from __future__ import annotations

from typing import Any, Mapping

from course_calculators.spec import Choice, Number

from .engines import vllm_lora
from .physics.lora import LoraSlots

#: The most slots offered: vLLM sets no bound (``max_loras`` ≥ 1), but each slot is a whole copy of
#: every adapter tensor on every GPU, and 64 of rank 512 on a 70B model is several times its KV cache.
MAX_SLOTS = 64


def max_loras_param() -> Number:
    return Number("max_loras", "LoRA adapter slots (--max-loras)", 0, 0, MAX_SLOTS, unit="adapters", advanced=True,
                  help="0: LoRA off. N: --enable-lora --max-loras N — vLLM preallocates N slots of the largest rank "
                       "in every wrapped layer on every GPU when it loads the model, before it sizes the KV cache, "
                       "so they shrink the pool whether or not an adapter is loaded. Dense Llama, Qwen, Mistral, "
                       "Gemma 2 and Phi-3 models, and the Mixtral, Qwen3-MoE, DeepSeek-V2/V3 (MLA; vLLM 0.17 to "
                       "0.19 do not start with LoRA on it), GLM-4.5 and gpt-oss (vLLM 0.33.0, NVIDIA) mixtures of "
                       "experts, whose slots hold an adapter for every routed expert, and for the dense layers' "
                       "and shared experts' MLPs.")


def max_lora_rank_param() -> Choice:
    default = str(vllm_lora.DEFAULT_MAX_LORA_RANK)
    return Choice("max_lora_rank", "LoRA rank (--max-lora-rank)", default,
                  tuple((str(r), str(r) + (" (default)" if str(r) == default else ""))
                        for r in vllm_lora.MAX_LORA_RANKS),
                  advanced=True,
                  help="The largest adapter rank a slot holds: every slot is sized for it, whatever the rank of the "
                       "adapters served. The ranks vLLM accepts (MaxLoRARanks).")


def fully_sharded_param() -> Choice:
    return Choice("fully_sharded_loras", "Fully sharded LoRA (--fully-sharded-loras)", "off",
                  (("off", "off (default)"), ("on", "on")), advanced=True,
                  help="On: each GPU keeps 1/TP of the rank of the column-parallel A tensors and 1/TP of the "
                       "row-parallel B tensors' output, which every GPU otherwise holds whole (S-LoRA's sharding). "
                       "The embeddings, the LM head and an MoE router stay whole. vLLM refuses it with a rank the "
                       "GPUs do not divide, and with expert parallelism on a mixture of experts.")


def lora_inputs() -> tuple:
    """The parameters of this module, in the order the calculators show them."""
    return (max_loras_param(), max_lora_rank_param(), fully_sharded_param())


def lora_of(p: Mapping[str, Any]) -> LoraSlots | None:
    """The slots the reader asked for (None: LoRA off, as where a calculator does not offer it)."""
    slots = int(p.get("max_loras", 0))
    if slots <= 0:
        return None
    return LoraSlots(slots, int(p.get("max_lora_rank", vllm_lora.DEFAULT_MAX_LORA_RANK)),
                     p.get("fully_sharded_loras", "off") == "on")
