"""kv-cache's monotonic properties (``test_properties_monotonic.py``'s cases for kv-cache): more
context, more sequences, more layers, more cache; more GPUs, more memory and never fewer sequences.
Each run searches the cheapest fitting GPU of every listed kind, so these are the longest of the
property tests: a file of their own, which ``make test`` can give to the other worker.
"""

from __future__ import annotations

import pytest

from .test_properties_monotonic import MONOTONIC_CASES, case_ids, monotonic

KV_CACHE_CASES = [case for case in MONOTONIC_CASES if case[0] == "kv-cache"]


@pytest.mark.parametrize("calc_id, param, output, kw", KV_CACHE_CASES, ids=case_ids(KV_CACHE_CASES))
def test_monotonic(calc_id, param, output, kw):
    monotonic(calc_id, param, output, **kw)
