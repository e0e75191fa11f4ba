"""vLLM deployment inputs beyond the budget's own parameters: the KV block size (``--block-size``),
expert parallelism (``--enable-expert-parallel``) and its load balancer's redundant experts
(``--enable-eplb``).

Declared here, apart from :mod:`.scenario`, so that each input is one parameter and one reader, and
scenario_params.engine_params adds them with one line.

``--block-size`` is ``CacheConfig.block_size`` (vllm/config/cache.py: ``BlockSize = Literal[1, 8,
16, 32, 64, 128, 256]``, default ``DEFAULT_BLOCK_SIZE = 16``). The attention backend must accept
it as a kernel block: FlashAttention and Triton take any multiple of 16
(``get_supported_kernel_block_sizes`` returns ``[MultipleOf(16)]``), FlashInfer only 16, 32 and 64
(v1/attention/backends/flashinfer.py). The sizes offered are those every NVIDIA backend of a
standard-attention model takes: 16, 32 and 64.

What the block size changes is physics.cache_layout's: a page is block_size tokens of one layer, a
request takes ceil(max_model_len ÷ block_size) blocks of each full layer, so the pool's blocks and the
concurrency move by the rounding; a backend or a hybrid model may still raise it (FlashMLA sparse's
64, the Mamba page alignment of engines.vllm_hybrid.hybrid_block_size, which starts from this size).
"""

from __future__ import annotations

from typing import Any, Mapping

from course_calculators.spec import Choice, Number

from . import deployment_inputs_lora, deployment_inputs_speculation
from .engines import vllm

#: ``--block-size`` values every NVIDIA attention backend accepts (see the module docstring).
BLOCK_SIZES = (16, 32, 64)


def block_size_param() -> Choice:
    return Choice("block_size", "KV block size (--block-size)", str(vllm.DEFAULT_BLOCK_SIZE),
                  tuple((str(b), f"{b} tokens" + (" (default)" if b == vllm.DEFAULT_BLOCK_SIZE else ""))
                        for b in BLOCK_SIZES),
                  advanced=True,
                  help="Tokens per KV-cache block. A request takes whole blocks, so a larger block wastes up to "
                       "block − 1 tokens per request and layer. Hybrid models (Mamba, linear attention) grow the "
                       "attention block from this size until a page holds a recurrent state; FlashMLA sparse "
                       "uses 64 whatever is set. FlashInfer accepts 16, 32 and 64, FlashAttention any multiple of 16.")


def engine_inputs() -> tuple:
    """The parameters of this module, of :mod:`.deployment_inputs_lora` and of
    :mod:`.deployment_inputs_speculation`, in the order the calculators show them."""
    return (block_size_param(), *deployment_inputs_lora.lora_inputs(), *deployment_inputs_speculation.params())


def block_size_of(p: Mapping[str, Any]) -> int:
    """``--block-size`` as the reader chose it (vLLM's default where a calculator does not offer it)."""
    return int(p.get("block_size", vllm.DEFAULT_BLOCK_SIZE))


#: ``--enable-expert-parallel``: off (vLLM's default, ``ParallelConfig.enable_expert_parallel = False``) or on.
EXPERT_PARALLEL_OFF, EXPERT_PARALLEL_ON = "off", "on"


def expert_parallel_param() -> Choice:
    """Whole routed experts per GPU instead of a 1/TP slice of each (physics.expert_parallel); only a
    mixture of experts under tensor-parallel attention reads it (DP attention implies it, a dense model
    has no experts to spread), and the calculators say so in a note where it changes nothing."""
    return Choice("expert_parallel", "Expert parallel (--enable-expert-parallel)", EXPERT_PARALLEL_OFF,
                  ((EXPERT_PARALLEL_OFF, "off: experts sliced by tensor parallelism (default)"),
                   (EXPERT_PARALLEL_ON, "on: whole experts per GPU")),
                  advanced=True,
                  help="Mixtures of experts only. Off, every GPU holds 1/TP of every routed expert; on, each holds "
                       "whole experts (E ÷ GPUs of them, the first GPUs one more when they do not split evenly) "
                       "while attention stays tensor parallel. Data-parallel attention always spreads experts so.")


def expert_parallel_of(p: Mapping[str, Any]) -> bool:
    """Whether the reader turned expert parallelism on (off where a calculator does not offer it)."""
    return p.get("expert_parallel", EXPERT_PARALLEL_OFF) == EXPERT_PARALLEL_ON


def redundant_experts_param() -> Number:
    """``--enable-eplb --eplb-config '{"num_redundant_experts": R}'`` as one number, 0 leaving EPLB off
    (``ParallelConfig.enable_eplb = False``, ``EPLBConfig.num_redundant_experts`` default 0, ``ge=0``;
    vllm/config/parallel.py 0.33.0). R > 0 turns EPLB on with R redundant experts: the budget then holds
    (E + R) / EP whole experts and EPLB's buffer and tables per GPU (physics.expert_parallel.share); vLLM's
    refusals (no expert parallelism, an uneven split, R > 1,023) are named instead of a figure."""
    return Number("redundant_experts", "EPLB redundant experts (--enable-eplb)", 0, 0,
                  1023, advanced=True,
                  help="Expert-parallel load balancing with R redundant experts; 0 leaves EPLB off. Every MoE layer "
                       "then holds E + R experts, (E + R) ÷ EP whole ones on each GPU (vLLM only accepts an even "
                       "split), plus a buffer of one layer's local experts and EPLB's tables, counted with the "
                       "weights (vLLM 0.23 on). Needs expert parallelism.")


def redundant_experts_of(p: Mapping[str, Any]) -> int:
    """R as the reader chose it (0, EPLB off, where a calculator does not offer it)."""
    return int(p.get("redundant_experts", 0))
