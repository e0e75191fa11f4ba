"""One row of the vLLM evidence tables: a public startup log as published, with what the kv-cache
calculator needs to rebuild it (:class:`Log`), and a log read and left out, with why (:class:`Seen`).

The rows live in :mod:`.startup_log_table` (plain deployments) and, by the feature they exercise, in
:mod:`.startup_log_table_speculation` (draft models, EAGLE, MTP, n-gram) and
:mod:`.startup_log_table_lora` (LoRA adapters), :mod:`.startup_log_table_parallel` (expert parallelism)
and :mod:`.startup_log_table_tensor_parallel` (tensor parallelism from 0.11: the TP group's
communicator, TP 8);
``startup_log_table.LOGS`` joins them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

__all__ = ["Log", "Seen", "FITS", "TOO_LITTLE_KV", "NO_BLOCKS"]

#: The verdicts: vLLM started; it refused because not one request of max_model_len fits the KV
#: memory ("To serve at least one request with the model's max seq len ..."); or no memory was
#: left for a single block ("No available memory for the cache blocks").
FITS, TOO_LITTLE_KV, NO_BLOCKS = "fits", "too little KV for max_model_len", "fails to start"


@dataclass(frozen=True)
class Log:
    id: str
    url: str
    where: str
    vllm_version: str  # as printed or inferred (then how)
    release: str  # the release whose rules the calculator applies (vllm_releases)
    model: str  # as published
    model_id: str  # the catalogue id (an entry another branch adds is named in ``needs``)
    gpu: str  # as the page names it
    gpu_id: str  # the hardware.GPUS id
    lines: tuple[str, ...]  # quoted exactly
    verdict: str
    tensor_parallel: int = 1
    pipeline_parallel: int = 1
    data_parallel: int = 1
    utilization: float | None = None  # None: the release's default
    max_model_len: int | None = None  # None: the model's default
    max_num_batched_tokens: int | None = None  # None: vllm serve's default for the GPU and release
    max_num_seqs: int | None = None
    weights: str = "bf16"  # the checkpoint's format as shipped
    kv_dtype: str = "auto"
    loading_gib: float | None = None
    available_gib: float | None = None
    kv_tokens: int | None = None
    concurrency: float | None = None
    error: str = ""
    #: "pip" (the wheel alone) or "docker" (the vllm-openai image, or FlashInfer installed beside the
    #: wheel): up to 0.11.0 the profile run samples with FlashInfer when it is installed.
    install: str = "pip"
    enforce_eager: bool = False
    #: ``--limit-mm-per-prompt`` as logged ({"image": 2, "audio": 0}); None: vLLM's default (999 each).
    limit_mm_per_prompt: Mapping[str, int] | None = None
    #: ``--language-model-only``: every modality's limit 0, the vision tower not loaded.
    language_model_only: bool = False
    #: ``--enable-prefix-caching`` / ``--no-enable-prefix-caching``; None: the release's default.
    prefix_caching: bool | None = None
    #: ``--speculative-config``'s method as kv_cache's ``speculation`` input names it ("" none), the
    #: draft model's catalogue id (for "eagle", the head's id in models/data/eagle_heads.py) and
    #: ``num_speculative_tokens``.
    speculation: str = ""
    draft_model_id: str = ""
    num_speculative_tokens: int = 0
    #: ``--max-loras`` / ``--max-lora-rank`` (0: LoRA off) and ``--enable-expert-parallel``.
    max_loras: int = 0
    max_lora_rank: int = 0
    expert_parallel: bool = False
    needs: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()  # "quantized", "hybrid", "failed", "new-gpu", "pre-0.20"
    notes: str = ""
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Seen:
    """A public log read for the table and left out, and why."""

    url: str
    where: str
    reason: str
