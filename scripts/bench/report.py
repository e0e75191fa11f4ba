"""From raw runs to the published figures: medians, percentiles, verdicts, JSON and Markdown.

Pure functions on plain data (no browser), so ``tests/unit/scripts/test_bench_report.py`` can check them
on made-up runs. A *run* is the dict ``measure.cold_run`` returns; ``runs`` maps a variant name
(``site``, ``plain``, ``pyscript``) to its list of runs.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from pathlib import Path

VARIANTS = (("site", "This site"), ("plain", "Plain Pyodide"), ("pyscript", "PyScript"))
START = "<!-- bench:start -->"
END = "<!-- bench:end -->"


def percentile(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile: the smallest value with at least p% of the values at or below it."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def median(values) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def summarize_variant(runs: list[dict]) -> dict:
    """Medians over the runs; latency percentiles per run (over its steps), then their median."""
    def med(key):
        return median(r.get(key) for r in runs)

    ratios = [r["first_value_ms"] / r["fcp_ms"] for r in runs
              if r.get("first_value_ms") is not None and r.get("fcp_ms")]
    return {
        "runs": len(runs),
        "fcp_ms": med("fcp_ms"),
        "first_value_ms": med("first_value_ms"),
        "first_value_fcp_ratio": median(ratios),
        "ready_ms": med("ready_ms"),
        "warm_ready_ms": med("warm_ready_ms"),
        "nav_ms": med("nav_ms"),
        "latency_p50_ms": median(percentile(r.get("latency_ms") or [], 50) for r in runs),
        "latency_p95_ms": median(percentile(r.get("latency_ms") or [], 95) for r in runs),
        "longtask_ms": med("longtask_ms"),
        "blocking_ms": med("blocking_ms"),
        "bytes_ready": med("bytes_ready"),
        "bytes": med("bytes"),
        "requests": med("requests"),
    }


def summarize(runs: dict[str, list[dict]]) -> dict[str, dict]:
    return {name: summarize_variant(runs[name]) for name, _ in VARIANTS if runs.get(name)}


def verdicts(summary: dict[str, dict]) -> list[dict]:
    """The site's targets, each with the measured figure and whether it is met (None: no target
    or nothing measured)."""
    site = summary.get("site", {})
    plain = summary.get("plain", {})
    vs_plain = (site["ready_ms"] / plain["ready_ms"]
                if site.get("ready_ms") is not None and plain.get("ready_ms") else None)

    def row(target, value, limit, shown):
        return {"target": target, "value": value, "limit": limit, "shown": shown,
                "met": None if value is None or limit is None else value <= limit}

    return [
        row("First correct value visible at first contentful paint (ratio ≤ 1.05)",
            site.get("first_value_fcp_ratio"), 1.05, _ratio(site.get("first_value_fcp_ratio"))),
        row("Ready on a cold load ≤ 1.0 s", site.get("ready_ms"), 1000, fmt_ms(site.get("ready_ms"))),
        row("Ready on a cold load ≤ 0.4 × plain Pyodide (same run)", vs_plain, 0.4, _ratio(vs_plain)),
        row("Ready after instant navigation ≤ 100 ms", site.get("nav_ms"), 100, fmt_ms(site.get("nav_ms"))),
        row("Input → output p95 ≤ 16 ms", site.get("latency_p95_ms"), 16, fmt_ms(site.get("latency_p95_ms"))),
        row("Main-thread long tasks during boot ≤ 50 ms", site.get("longtask_ms"), 50,
            fmt_ms(site.get("longtask_ms"))),
        row("Bytes transferred on a cold load: reported", site.get("bytes"), None,
            f"{fmt_bytes(site.get('bytes_ready'))} until ready, {fmt_bytes(site.get('bytes'))} in all"),
    ]


# -- formatting -------------------------------------------------------------------------------

def fmt_ms(ms: float | None) -> str:
    if ms is None:
        return "—"
    if ms >= 1000:
        return f"{ms / 1000:.2f} s"
    return f"{ms:.1f} ms" if ms < 10 else f"{ms:.0f} ms"


def fmt_bytes(n: float | None) -> str:
    if n is None:
        return "—"
    if n >= 1024 * 1024:
        return f"{n / 1024 / 1024:.1f} MiB"
    return f"{n / 1024:.0f} KiB"


def _ratio(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f} ×"


def _verdict(met: bool | None) -> str:
    return {True: "✅ met", False: "❌ not met", None: "—"}[met]


def results_table(summary: dict[str, dict]) -> str:
    names = [(n, label) for n, label in VARIANTS if n in summary]

    def cells(fn):
        return " | ".join(fn(summary[n]) for n, _ in names)

    def first_value(s):
        ratio = s.get("first_value_fcp_ratio")
        return fmt_ms(s.get("first_value_ms")) + ("" if ratio is None else f" ({ratio:.2f} × FCP)")

    def transferred(s):
        reqs = s.get("requests")
        return fmt_bytes(s.get("bytes")) + ("" if reqs is None else f" ({reqs:.0f} requests)")

    rows = [
        ("First contentful paint (FCP)", lambda s: fmt_ms(s.get("fcp_ms"))),
        ("First correct value visible", first_value),
        ("Ready, cold cache", lambda s: fmt_ms(s.get("ready_ms"))),
        ("Ready, warm HTTP cache", lambda s: fmt_ms(s.get("warm_ready_ms"))),
        ("Ready after instant navigation", lambda s: fmt_ms(s.get("nav_ms")) if s.get("nav_ms") is not None else "n/a"),
        ("Input → output, p50", lambda s: fmt_ms(s.get("latency_p50_ms"))),
        ("Input → output, p95", lambda s: fmt_ms(s.get("latency_p95_ms"))),
        ("Main-thread long tasks during boot (sum)", lambda s: fmt_ms(s.get("longtask_ms"))),
        ("Bytes transferred until ready", lambda s: fmt_bytes(s.get("bytes_ready"))),
        ("Bytes transferred, cold load in all", transferred),
    ]
    head = "| Metric (median of runs) | " + " | ".join(label for _, label in names) + " |"
    rule = "|---|" + "---:|" * len(names)
    body = [f"| {label} | {cells(fn)} |" for label, fn in rows]
    return "\n".join([head, rule, *body])


def targets_table(rows: list[dict]) -> str:
    lines = ["| Target | Measured | Verdict |", "|---|---:|---|"]
    lines += [f"| {r['target']} | {r['shown']} | {_verdict(r['met'])} |" for r in rows]
    return "\n".join(lines)


def machine_lines(machine: dict, config: dict) -> str:
    load = machine.get("load_average")
    items = [
        ("Date", machine.get("date")),
        ("CPU", f"{machine.get('cpu')}, {machine.get('cores')} cores"),
        ("Memory", f"{machine.get('memory_gib')} GiB"),
        ("OS", machine.get("os")),
        ("Load average at start (1, 5, 15 min)", ", ".join(str(x) for x in load) if load else None),
        ("Browser", f"Chromium {machine.get('chromium')} (headless, Playwright {machine.get('playwright')})"),
        ("Python", f"CPython {machine.get('python')} (build); Pyodide {machine.get('pyodide')} "
                   f"(Python {machine.get('pyodide_python') or '?'}); PyScript {machine.get('pyscript')}"),
        ("Runs", f"{config.get('runs')} cold runs per page, interleaved; "
                 f"{config.get('steps')} input steps per run"),
    ]
    return "\n".join(f"- **{k}**: {v}" for k, v in items if v)


def markdown(summary: dict, rows: list[dict], machine: dict, config: dict, json_link: str) -> str:
    """The generated block of the Performance page."""
    return "\n\n".join([
        f"Measured on {machine.get('date')}. Raw runs: [{Path(json_link).name}]({json_link}).",
        results_table(summary),
        "### Targets",
        targets_table(rows),
        "### Machine",
        machine_lines(machine, config),
    ])


def replace_block(text: str, block: str) -> str:
    """``text`` with everything between the bench markers replaced by ``block``."""
    pattern = re.compile(re.escape(START) + r".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        raise ValueError(f"the page has no {START} … {END} markers")
    return pattern.sub(lambda _: f"{START}\n{block}\n{END}", text, count=1)


def document(runs: dict[str, list[dict]], machine: dict, config: dict) -> dict:
    """Everything the JSON file holds: config, machine, summary, verdicts and the raw runs."""
    summary = summarize(runs)
    return {
        "config": config,
        "machine": machine,
        "summary": summary,
        "targets": [{k: r[k] for k in ("target", "value", "limit", "met")} for r in verdicts(summary)],
        "runs": {name: [_rounded(r) for r in rs] for name, rs in runs.items()},
    }


def _rounded(run: dict) -> dict:
    def r(v):
        if isinstance(v, float):
            return round(v, 2)
        if isinstance(v, list):
            return [r(x) for x in v]
        return v
    return {k: r(v) for k, v in run.items()}


#: An array of numbers, or of arrays of numbers, as ``json.dumps(indent=...)`` spreads it out.
_NUMBER_ARRAY = re.compile(r"\[(?:[-\d\s.,eE+]|\[[-\d\s.,eE+]*\])*\]")


def dumps(doc: dict) -> str:
    """Indented JSON, with arrays of numbers (latencies, long tasks) kept on one line."""
    text = json.dumps(doc, indent=1, ensure_ascii=False)
    def one_line(m: re.Match) -> str:  # JSON strings hold no raw newline: only arrays match
        return re.sub(r"\s+", "", m.group(0)).replace(",", ", ") if "\n" in m.group(0) else m.group(0)

    return _NUMBER_ARRAY.sub(one_line, text) + "\n"
