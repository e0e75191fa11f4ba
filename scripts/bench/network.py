"""The bench's network figures: throttled profiles, other engines and Lighthouse, and their report.

Each part runs in the same ``make bench`` as the loopback figures, against the same servers
(gzip on), so every ratio compares columns of one run.
"""

from __future__ import annotations

from . import launch, lighthouse
from .link import FAST, SLOW
from .report import fmt_bytes, fmt_ms, median

PROFILES = (FAST, SLOW)
#: The issue's targets: ready over 10 Mbit/s against plain Pyodide's, and Lighthouse's mobile score.
FAST_READY_LIMIT = 0.7
LIGHTHOUSE_LIMIT = 95
#: The worker's boot milestones the links table shows (worker/start-python.js marks them), in order.
MILESTONES = ("workerStarted", "pathChosen", "wasmArrived", "snapshotChecked", "pyodideLoaded", "wheelLoaded", "ready")


def summarize_profile(runs: list[dict]) -> dict:
    return {"runs": len(runs), "ready_ms": median(r.get("ready_ms") for r in runs),
            "fcp_ms": median(r.get("fcp_ms") for r in runs),
            "bytes_ready": median(r.get("bytes_ready") for r in runs),
            "modes": sorted({r["boot_mode"] for r in runs if r.get("boot_mode")}),
            "milestones": milestones(runs)}


def milestones(runs: list[dict]) -> dict:
    """The median of each boot milestone the worker marked (ms from navigation), over ``runs``."""
    out = {}
    for name in MILESTONES:
        got = median((r.get("timings") or {}).get(name) for r in runs)
        if got is not None:
            out[name] = got
    return out


def milestones_table(network: dict) -> str:
    """Where the site's boot spends its time on each link: the worker's milestones, side by side."""
    rows = [(prof.label, network.get("profiles", {}).get(prof.name, {}).get("site", {})) for prof in PROFILES]
    return _milestones_markdown("Link", rows)


def _milestones_markdown(first: str, rows: list, extra: tuple = ()) -> str:
    """A table of boot milestones: one column per ``(label, measurement)``, and a row for its
    path, for each ``extra`` ``(heading, key)`` and for each milestone that any column has.
    Milestones run down the page (not across it) so that the table fits a phone's width: a table
    that scrolls sideways is a region a keyboard cannot reach (axe's scrollable-region-focusable)."""
    names = [n for n in MILESTONES if any(n in (s.get("milestones") or {}) for _, s in rows)]
    if not names:
        return "Not measured."
    lines = ["| " + " | ".join([first, *(label for label, _ in rows)]) + " |", "|---|" + "---:|" * len(rows)]
    lines.append("| path | " + " | ".join(", ".join(s.get("modes") or []) or "—" for _, s in rows) + " |")
    for heading, key in extra:
        lines.append(f"| {heading} | " + " | ".join(fmt_ms(s.get(key)) for _, s in rows) + " |")
    for n in names:
        lines.append(f"| {n} | " + " | ".join(fmt_ms((s.get("milestones") or {}).get(n)) for _, s in rows) + " |")
    return "\n".join(lines)


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
    row(f"Ready over {FAST.label} ≤ {FAST_READY_LIMIT} × plain Pyodide", r, FAST_READY_LIMIT,
        f"{fmt_ms(fast.get('site', {}).get('ready_ms'))} vs {fmt_ms(fast.get('plain', {}).get('ready_ms'))}: {_x(r)}")
    lr = _ratio(site.get("ready_ms"), plain.get("ready_ms"))
    row("Loopback lead kept: ready ≤ 0.4 × plain Pyodide", lr, 0.4,
        f"{fmt_ms(site.get('ready_ms'))} vs {fmt_ms(plain.get('ready_ms'))}: {_x(lr)}")
    scores = [p["mobile"]["score"] for p in network.get("lighthouse", []) if p.get("mobile", {}).get("score") is not None]
    worst = min(scores) if scores else None
    runs = max((len(p["mobile"].get("scores") or [1]) for p in network.get("lighthouse", []) if p.get("mobile")), default=1)
    row(f"Lighthouse performance ≥ {LIGHTHOUSE_LIMIT} on mobile, every chapter page (lowest median of {runs})",
        worst, LIGHTHOUSE_LIMIT, "—" if worst is None else f"{worst} (of {len(scores)} pages)", above=True)
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


def engine_milestones_table(network: dict) -> str:
    """Where each engine's cold start goes: the worker's milestones (median over the engine's
    runs, whichever path each took), beside its first paint and its ready."""
    engines = network.get("engines", {})
    rows = [(n, engines[n]) for n in ("chromium", "firefox", "webkit") if engines.get(n) and not engines[n].get("error")]
    return _milestones_markdown("Engine", rows, extra=(("FCP", "fcp_ms"),))


def lighthouse_table(network: dict) -> str:
    lines = ["| Page | Mobile score (median; runs) | LCP | TBT | Desktop score | LCP | TBT |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for p in network.get("lighthouse", []):
        m, d = p.get("mobile", {}), p.get("desktop", {})
        runs = m.get("scores") or []
        shown = f"{m.get('score', '—')} ({', '.join(str(x) for x in runs)})" if len(runs) > 1 else f"{m.get('score', '—')}"
        lines.append(f"| {p['page']} | {shown} | {fmt_ms(m.get('lcp_ms'))} | {fmt_ms(m.get('tbt_ms'))} | "
                     f"{d.get('score', '—')} | {fmt_ms(d.get('lcp_ms'))} | {fmt_ms(d.get('tbt_ms'))} |")
    return "\n".join(lines)


def engine_runs(engines: dict, url: str, probe, runs: int) -> dict:
    """Cold ready of ``url`` in each engine of this machine: the medians, or why not. The engines
    take turns, one visit each per round, so that a change in the machine's load falls on all of
    them alike; an engine that fails is not tried again."""
    readings = {name: [] for name in engines}
    errors: dict[str, str] = {}
    for _ in range(runs):
        for name, program in engines.items():
            if name in errors:
                continue
            try:
                readings[name].append(launch.cold_ready(name, program, url, probe))
            except RuntimeError as exc:
                errors[name] = str(exc)
    out = {}
    for name, got in readings.items():
        out[name] = {"runs": len(got), "ready_ms": median(r.get("readyAt") for r in got),
                     "fcp_ms": median(r.get("fcp") for r in got),
                     "modes": sorted({r["mode"] for r in got if r.get("mode")}),
                     "milestones": milestones(got),
                     "raw": [{k: r.get(k) for k in ("readyAt", "fcp", "valueAt", "mode", "timings")} for r in got]}
        if name in errors and not got:
            out[name]["error"] = errors[name]
    return out


def lighthouse_runs(node_modules, base: str, pages: list[str], chrome: str, mobile_runs: int = 1) -> list[dict]:
    """Lighthouse on each page: ``mobile_runs`` mobile audits (the run with the median score is
    kept, with every score beside it) and one desktop audit."""
    out = []
    for page in pages:
        row = {"page": page}
        for preset in ("mobile", "desktop"):
            audits = []
            for _ in range(mobile_runs if preset == "mobile" else 1):
                try:
                    audits.append(lighthouse.audit(node_modules, base + page, preset, chrome))
                except (RuntimeError, ValueError, KeyError) as exc:
                    audits.append({"score": None, "error": str(exc)[-300:]})
                print(f"bench: lighthouse {preset:7s} {audits[-1].get('score')!s:>4}  {page}", flush=True)
            row[preset] = median_audit(audits)
        out.append(row)
    return out


def median_audit(audits: list[dict]) -> dict:
    """The audit whose score is the median of ``audits`` (the lower middle of an even count), with
    every run's score under ``scores``."""
    scored = sorted((a for a in audits if a.get("score") is not None), key=lambda a: a["score"])
    if not scored:
        return audits[0]
    return {**scored[(len(scored) - 1) // 2], "scores": [a["score"] for a in audits if a.get("score") is not None]}


def markdown(summary: dict, net: dict) -> str:
    """The network part of the Performance page's generated block."""
    from .report import targets_table
    return "\n\n".join([
        "### Links, bytes until ready",
        profiles_table(summary, net),
        "### The site's boot on each link (worker milestones, ms from navigation, median)",
        milestones_table(net),
        "### Engines",
        engines_table(net),
        "### Where each engine's cold start goes (worker milestones, ms from navigation, median)",
        engine_milestones_table(net),
        "### Lighthouse (performance, 0–100)",
        lighthouse_table(net) if net.get("lighthouse") else "Not run.",
        "### Network targets",
        targets_table(targets(summary, net)),
    ])
