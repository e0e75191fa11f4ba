"""A cache for the pure functions that a run calls many times with the same arguments.

One kv-cache run asks for the pool of every listed GPU at several counts (the cheapest fitting
configuration, the fewest GPUs), and a reader moving a slider asks again with only the context
changed: the pools, the cache layouts and the release rules repeat. Their arguments are frozen
dataclasses (Model, GPU, Layout, Placement, Engine), strings, numbers and weight objects that the
plan caches keep alive (compared by identity), so a least-recently-used cache keyed on them
returns the same object the function would build. A call whose arguments cannot be hashed (a
caller's own mutable object) is computed as before, uncached.
"""

from __future__ import annotations

from functools import lru_cache, wraps
from typing import Callable, TypeVar

F = TypeVar("F", bound=Callable)


def pure_cache(maxsize: int = 4096) -> Callable[[F], F]:
    """``lru_cache(maxsize)`` for a pure function, falling back to a plain call on unhashable arguments."""
    def decorate(func: F) -> F:
        cached = lru_cache(maxsize=maxsize)(func)

        @wraps(func)
        def call(*args, **kwargs):
            try:
                return cached(*args, **kwargs)
            except TypeError as exc:  # unhashable argument: compute it as before
                if "unhashable" not in str(exc):
                    raise
                return func(*args, **kwargs)

        call.cache_info = cached.cache_info  # type: ignore[attr-defined]
        call.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]
    return decorate
