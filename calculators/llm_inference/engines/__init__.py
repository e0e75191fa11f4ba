"""What real serving engines do with a GPU's memory, as plain functions of plain numbers.

Each module reproduces one engine's own definitions (``vllm``: the KV-cache budget, the page
sizes, the block count, the concurrency it logs at startup), with every constant's source and
engine version beside it; ``vllm_releases`` says which rule changed in which release. No module here is a calculator (none defines ``SPEC``) and none reads a
model catalogue: callers pass layer counts, head counts and byte sizes. ``startup_logs`` holds
real engine startup logs as data, quoted with their URLs, for the tests to reproduce;
``startup_log_table`` the evidence table the Accuracy page is made from.
"""

__all__ = ["vllm", "vllm_releases", "startup_logs", "startup_log_table"]
