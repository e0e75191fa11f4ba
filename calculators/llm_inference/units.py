"""The chapter's own units: what only a book on LLM inference measures.

Registered with the framework's unit registry (:func:`course_calculators.units.register`) when the
package is imported, so that the chapter's outputs name them like any other unit
(``Output("throughput", "Tokens/s", "tokens_per_s")``). Memory throughput and compute are given
with decimal SI prefixes, as GPU datasheets state them (H100 SXM: 3.35 TB/s, 989 TFLOP/s dense
bf16); memory sizes stay binary (the framework's ``bytes``).
"""

from __future__ import annotations

from course_calculators.units import Unit, register, sig

__all__ = ["format_tokens_per_s", "format_flops", "format_bandwidth"]


def format_tokens_per_s(r: float) -> str:
    return f"{sig(r)} tokens/s"


def _decimal(x: float, prefixes: tuple[tuple[float, str], ...], symbol: str) -> str:
    for factor, prefix in prefixes:
        if x >= factor or sig(x / factor) == "1":  # 999.9e12 → '1 PFLOP/s', not '1,000 TFLOP/s'
            return f"{sig(x / factor)} {prefix}{symbol}"
    return f"{sig(x)} {symbol}"


def format_flops(x: float) -> str:
    """FLOP/s with SI prefixes: 9.89e14 → '989 TFLOP/s'."""
    return _decimal(x, ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M")), "FLOP/s")


def format_bandwidth(x: float) -> str:
    """Bytes per second, decimal as on datasheets: 3.35e12 → '3.35 TB/s'."""
    return _decimal(x, ((1e12, "T"), (1e9, "G"), (1e6, "M")), "B/s")


TOKENS_PER_S = register("tokens_per_s", Unit("tokens_per_s", format_tokens_per_s, None, "tokens per second", 41.27))
FLOPS = register("flops", Unit("flops", format_flops, None, "FLOP per second", 9.89e14))
BANDWIDTH = register("bandwidth", Unit("bandwidth", format_bandwidth, None, "bytes per second", 3.35e12))
