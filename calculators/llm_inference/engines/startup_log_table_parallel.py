"""Public vLLM startup logs of deployments with LoRA adapters, expert parallelism or tensor parallelism 8, quoted as published.

Rows of the evidence table (:mod:`.startup_log_table` joins them into ``LOGS``; the fields are
:class:`.startup_log_record.Log`'s, the feature's own being ``max_loras``, ``max_lora_rank``, ``expert_parallel``, ``tensor_parallel``); the Accuracy page and
tests/unit/llm_inference/test_accuracy.py rebuild each through the kv-cache calculator.
"""

from __future__ import annotations

from .startup_log_record import FITS, NO_BLOCKS, TOO_LITTLE_KV, Log, Seen  # noqa: F401  (the rows use them)

LOGS: tuple[Log, ...] = ()

#: Logs read for this table and left out, each with why.
SEEN: tuple[Seen, ...] = ()
