"""The bench's network figures: throttled profiles, other engines and Lighthouse, and their report.

Each part runs in the same ``make bench`` as the loopback figures, against the same servers
(gzip on), so every ratio compares columns of one run.
"""

from __future__ import annotations

from . import launch, lighthouse
from .link import FAST, SLOW
from .report import fmt_bytes, fmt_ms, median

PROFILES = (FAST, SLOW)


def summarize_profile(runs: list[dict]) -> dict:
    return {"runs": len(runs), "ready_ms": median(r.get("ready_ms") for r in runs),
            "fcp_ms": median(r.get("fcp_ms") for r in runs),
            "bytes_ready": median(r.get("bytes_ready") for r in runs),
            "modes": sorted({r["boot_mode"] for r in runs if r.get("boot_mode")})}


def _ratio(a, b):
    return a / b if a is not None and b else None


def targets(summary: dict, network: dict) -> list[dict]:
    """The issue's targets, side by side in this run, each with its verdict."""
    rows = []

    def row(target, value, limit, shown, above=False):
        met = None if value is None or limit is None else (value >= limit if above else value <= limit)
        rows.append({"target": target, "value": value, "limit": limit, "shown": shown, "met": met})

    site, plain = summary.get("site", {}), summary.get("plain", {})
    b = _ratio(site.get("bytes_ready"), plain.get("bytes_ready"))
    row("Bytes until ready ≤ 1.0 × plain Pyodide, loopback (snapshot path)", b, 1.0,
        f"{fmt_bytes(site.get('bytes_ready'))} vs {fmt_bytes(plain.get('bytes_ready'))}: {_x(b)}")
    for prof in PROFILES:
        p = network.get("profiles", {}).get(prof.name, {})
        s, pl = p.get("site", {}), p.get("plain", {})
        b = _ratio(s.get("bytes_ready"), pl.get("bytes_ready"))
        row(f"Bytes until ready ≤ 1.0 × plain Pyodide, {prof.label}", b, 1.0,
            f"{fmt_bytes(s.get('bytes_ready'))} vs {fmt_bytes(pl.get('bytes_ready'))}: {_x(b)}")
    fast = network.get("profiles", {}).get(FAST.name, {})
    r = _ratio(fast.get("site", {}).get("ready_ms"), fast.get("plain", {}).get("ready_ms"))
    row(f"Ready over {FAST.label} ≤ 0.6 × plain Pyodide", r, 0.6,
        f"{fmt_ms(fast.get('site', {}).get('ready_ms'))} vs {fmt_ms(fast.get('plain', {}).get('ready_ms'))}: {_x(r)}")
    lr = _ratio(site.get("ready_ms"), plain.get("ready_ms"))
    row("Loopback lead kept: ready ≤ 0.4 × plain Pyodide", lr, 0.4,
        f"{fmt_ms(site.get('ready_ms'))} vs {fmt_ms(plain.get('ready_ms'))}: {_x(lr)}")
    scores = [p["mobile"]["score"] for p in network.get("lighthouse", []) if p.get("mobile", {}).get("score") is not None]
    worst = min(scores) if scores else None
    row("Lighthouse performance ≥ 90 on mobile, every chapter page (lowest)", worst, 90,
        "—" if worst is None else f"{worst} (of {len(scores)} pages)", above=True)
    engines = network.get("engines", {})
    chromium = engines.get("chromium", {}).get("ready_ms")
    for name in ("firefox", "webkit"):
        e = engines.get(name, {})
        x = _ratio(e.get("ready_ms"), chromium)
        shown = e.get("error") or f"{fmt_ms(e.get('ready_ms'))} vs {fmt_ms(chromium)}: {_x(x)}"
        row(f"Cold ready in {name.capitalize() if name == 'firefox' else 'WebKit'} ≤ 1.5 × Chromium", x, 1.5, shown)
    return rows


def _x(v) -> str:
    return "—" if v is None else f"{v:.2f} ×"


def profiles_table(summary: dict, network: dict) -> str:
    lines = ["| Link (gzip on) | This site: ready | path | bytes until ready | Plain Pyodide: ready | bytes until ready |",
             "|---|---:|---|---:|---:|---:|"]
    site, plain = summary.get("site", {}), summary.get("plain", {})
    lines.append(f"| loopback | {fmt_ms(site.get('ready_ms'))} | snapshot | {fmt_bytes(site.get('bytes_ready'))} | "
                 f"{fmt_ms(plain.get('ready_ms'))} | {fmt_bytes(plain.get('bytes_ready'))} |")
    for prof in PROFILES:
        p = network.get("profiles", {}).get(prof.name, {})
        s, pl = p.get("site", {}), p.get("plain", {})
        lines.append(f"| {prof.label} | {fmt_ms(s.get('ready_ms'))} | {', '.join(s.get('modes') or []) or '—'} | "
                     f"{fmt_bytes(s.get('bytes_ready'))} | {fmt_ms(pl.get('ready_ms'))} | {fmt_bytes(pl.get('bytes_ready'))} |")
    return "\n".join(lines)


def engines_table(network: dict) -> str:
    engines = network.get("engines", {})
    lines = ["| Engine | Cold ready (median) | FCP | Path | Runs |", "|---|---:|---:|---|---:|"]
    for name in ("chromium", "firefox", "webkit"):
        e = engines.get(name)
        if not e:
            continue
        if e.get("error"):
            lines.append(f"| {name} | {e['error']} | — | — | 0 |")
            continue
        modes = ", ".join(e.get("modes") or []) or "—"
        lines.append(f"| {name} | {fmt_ms(e.get('ready_ms'))} | {fmt_ms(e.get('fcp_ms'))} | {modes} | {e.get('runs')} |")
    return "\n".join(lines)


def lighthouse_table(network: dict) -> str:
    lines = ["| Page | Mobile score | LCP | TBT | Desktop score | LCP | TBT |", "|---|---:|---:|---:|---:|---:|---:|"]
    for p in network.get("lighthouse", []):
        m, d = p.get("mobile", {}), p.get("desktop", {})
        lines.append(f"| {p['page']} | {m.get('score', '—')} | {fmt_ms(m.get('lcp_ms'))} | {fmt_ms(m.get('tbt_ms'))} | "
                     f"{d.get('score', '—')} | {fmt_ms(d.get('lcp_ms'))} | {fmt_ms(d.get('tbt_ms'))} |")
    return "\n".join(lines)


def engine_runs(engines: dict, url: str, probe, runs: int) -> dict:
    """Cold ready of ``url`` in each engine of this machine: the medians, or why not."""
    out = {}
    for name, program in engines.items():
        readings, error = [], None
        for _ in range(runs):
            try:
                readings.append(launch.cold_ready(name, program, url, probe))
            except RuntimeError as exc:
                error = str(exc)
                break
        out[name] = {"runs": len(readings), "ready_ms": median(r.get("readyAt") for r in readings),
                     "fcp_ms": median(r.get("fcp") for r in readings),
                     "modes": sorted({r["mode"] for r in readings if r.get("mode")}),
                     "raw": [{k: r.get(k) for k in ("readyAt", "fcp", "valueAt", "mode")} for r in readings]}
        if error and not readings:
            out[name]["error"] = error
    return out


def lighthouse_runs(node_modules, base: str, pages: list[str], chrome: str) -> list[dict]:
    out = []
    for page in pages:
        row = {"page": page}
        for preset in ("mobile", "desktop"):
            try:
                row[preset] = lighthouse.audit(node_modules, base + page, preset, chrome)
            except (RuntimeError, ValueError, KeyError) as exc:
                row[preset] = {"score": None, "error": str(exc)[-300:]}
            print(f"bench: lighthouse {preset:7s} {row[preset].get('score')!s:>4}  {page}", flush=True)
        out.append(row)
    return out


def markdown(summary: dict, net: dict) -> str:
    """The network part of the Performance page's generated block."""
    from .report import targets_table
    return "\n\n".join([
        "### Links, bytes until ready",
        profiles_table(summary, net),
        "### Engines",
        engines_table(net),
        "### Lighthouse (performance, 0–100)",
        lighthouse_table(net) if net.get("lighthouse") else "Not run.",
        "### Network targets",
        targets_table(targets(summary, net)),
    ])
