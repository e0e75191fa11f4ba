"""Public vLLM startup logs of deployments with a speculative drafter: a draft model, EAGLE / EAGLE-3 heads, MTP layers or n-gram, quoted as published.

Rows of the evidence table (:mod:`.startup_log_table` joins them into ``LOGS``; the fields are
:class:`.startup_log_record.Log`'s, the feature's own being ``speculation``, ``draft_model_id``, ``num_speculative_tokens``); the Accuracy page and
tests/unit/llm_inference/test_accuracy.py rebuild each through the kv-cache calculator.
"""

from __future__ import annotations

from .startup_log_record import FITS, NO_BLOCKS, TOO_LITTLE_KV, Log, Seen  # noqa: F401  (the rows use them)

LOGS: tuple[Log, ...] = ()

#: Logs read for this table and left out, each with why.
SEEN: tuple[Seen, ...] = ()
