"""The calculators' compute time in CPython: every preset of every calculator, and the inputs
that make each one work hardest, timed in the same ``make bench`` as the browser figures.

Reported as a share of one 60 Hz frame (16.7 ms), the budget an input step has before the reader
sees a stall; Pyodide runs the same code a few times slower, which the browser's input latency
(the loopback table) measures directly.
"""

from __future__ import annotations

import time

from .report import median

FRAME_MS = 1000 / 60
#: Inputs beyond the presets that make a calculator do the most work (the largest models, the
#: longest contexts, the smallest GPUs: the most placement candidates and chart points).
HARDEST = {
    "unit-economics": [{"model": "llama-3.1-405b", "gpu": "rtx-4090", "input_tokens": 1_000_000},
                       {"model": "deepseek-v3", "gpu": "a100-40g", "dau": 10**9}],
}


def cases(calc) -> list[tuple[str, dict]]:
    out = [(p.id, dict(p.values)) for p in calc.presets] or [("defaults", {})]
    out += [(f"hardest {i + 1}", raw) for i, raw in enumerate(HARDEST.get(calc.id, []))]
    return out


def time_calculator(calc, repeats: int = 20) -> dict:
    """The median and the slowest case's median, in milliseconds, of ``repeats`` runs per case."""
    per_case, first = {}, {}
    for name, raw in cases(calc):
        start = time.perf_counter()
        calc.run(raw)  # the first run fills caches a reader's first input also fills: timed apart
        first[name] = (time.perf_counter() - start) * 1000
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            calc.run(raw)
            times.append((time.perf_counter() - start) * 1000)
        per_case[name] = median(times)
    slowest = max(per_case, key=per_case.get)
    coldest = max(first, key=first.get)
    return {"cases": len(per_case), "median_ms": median(per_case.values()),
            "slowest_ms": per_case[slowest], "slowest_case": slowest,
            "first_ms": first[coldest], "first_case": coldest}


def measure(calculators, repeats: int = 20) -> dict[str, dict]:
    return {calc.id: time_calculator(calc, repeats) for calc in calculators}


def markdown(results: dict[str, dict]) -> str:
    lines = ["**Compute time in CPython** (each preset, and the hardest inputs; median of 20 runs). "
             "Share of one 60 Hz frame (16.7 ms). \"First run\" is the slowest case's first run, which "
             "fills the caches (a model's weight plan, each GPU's pools) that the following runs reuse:", "",
             "| Calculator | Cases | Median | Slowest case | Slowest ÷ frame | First run |",
             "|---|---:|---:|---|---:|---|"]
    for cid, r in results.items():
        lines.append(f"| `{cid}` | {r['cases']} | {r['median_ms']:.2f} ms | {r['slowest_case']}: "
                     f"{r['slowest_ms']:.2f} ms | {r['slowest_ms'] / FRAME_MS:.2f}× | "
                     f"{r.get('first_case', '')}: {r.get('first_ms', 0):.2f} ms |")
    return "\n".join(lines)
