"""The physics of serving, in one place: every calculator of the chapter calls it, none computes
bytes or seconds of its own.

* :mod:`.model` — :class:`Model`, a model as plain counts (layers, heads, parameters, experts,
  windows);
* :mod:`.precision` — bytes per weight, KV-cache layouts with their scales;
* :mod:`.kv` — KV bytes per token, per layer, per sequence (windows capped), the longest context;
* :mod:`.weights` — weight bytes held, and streamed per step (MoE: the experts a batch touches);
* :mod:`.placement` — per-GPU shares under tensor, pipeline and data-parallel layouts, legal sizes;
* :mod:`.expert_parallel` — the routed experts each GPU holds under ``--enable-expert-parallel``
  (vLLM's expert map), and with ``--enable-eplb`` its redundant experts, buffer and tables (its
  sources in :mod:`.expert_parallel_sources`);
* :mod:`.lora` — the LoRA adapter slots ``--enable-lora`` holds on every GPU, dense and fused-MoE
  (its sources in ``engines.vllm_lora``);
* :mod:`.budget` — vLLM's KV budget per GPU, blocks, concurrency, "GPU KV cache size";
* :mod:`.speed` — a decode step's ceiling and estimate (all-reduces, step floor), prefill;
* :mod:`.deployment` — the run's one deployment (model, weights at the release, runner, placement,
  pool), which the searches resize;
* :mod:`.fleet` — the fewest GPUs that fit, the cheapest listed configuration;
* :mod:`.measured` — published measurements set against the same ceiling;
* :mod:`.batching` — serving a stream of requests from one KV budget: contiguous reservations
  against paged blocks (:mod:`.block_pool`), static against continuous batching, the steps a
  reader can watch (:mod:`.frame_recorder`).
"""

from __future__ import annotations

from . import budget, fleet, kv, placement, precision, speed, weights
from . import moe_formats  # noqa: F401  imported here: the snapshot holds only modules imported at build time
from .budget import Engine, Pool, pool
from .model import CHUNKED, GQA, MLA, SLIDING, Model
from .placement import DP, TP, Layout, Placement, legal_tp_sizes, place
from .speed import Step, decode_step, prefill, ridge_batch

__all__ = [
    "budget", "fleet", "kv", "placement", "precision", "speed", "weights",
    "Engine", "Pool", "pool", "Model", "GQA", "MLA", "SLIDING", "CHUNKED", "Layout", "Placement", "TP", "DP",
    "legal_tp_sizes", "place", "Step", "decode_step", "prefill", "ridge_batch",
]
