"""``make bench``: the site against two self-hosted baselines, in real browsers, on 127.0.0.1.

Builds the site (``mkdocs build --strict``) and the baselines (``bench/baselines.py``) into a
temporary folder, serves both from 127.0.0.1 as a static host does (headers, gzip), then, all in
one run: for each of ``--runs`` rounds one cold visit to each page in a fresh Chromium profile
(interleaved, so a slow moment of the machine hurts all three alike); the same cold visits over
throttled links (``bench/link.py``: 10 Mbit/s with 40 ms, 1.6 Mbit/s with 150 ms; ``--slow-runs``
for the slower); the site's cold ready in Firefox and WebKit beside Chromium's
(``bench/launch.py``); Lighthouse on every chapter page, mobile and desktop; each
calculator's compute time in CPython (``bench/compute.py``); and the author's edit loop
(``bench/edit_loop.py``): ``mkdocs serve``'s save → page latency on a two-calculator site, and
its cold build beside a plain mkdocs-material build of the same pages. Reports medians.
Writes the JSON file and the tables of the site's Performance page (``docs/performance.md``)
unless ``--no-write``.

Fails (exit 1) when any page makes a request that leaves 127.0.0.1, or never shows the right
value.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from bench import baselines, compute, edit_loop, link, machine, measure, network, report, tables  # noqa: E402
from find_browsers import CHROMIUM_ARGS, executable_path  # noqa: E402
from serving import build_site  # noqa: E402

PAGE = ROOT / "docs" / "performance.md"
JSON = ROOT / "docs" / "performance" / "latest.json"
SITE_PAGE = "inference/kv-cache/"
#: Belt and braces: whatever a page asks for outside 127.0.0.1 cannot resolve (and is reported).
NO_EXTERNAL_HOSTS = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch_available(chromium: str | None) -> dict[str, str]:
    from bench import launch
    return launch.available(chromium)


def chapter_pages() -> list[str]:
    """The site paths of the chapter's pages (the nav's "The chapter" section of mkdocs.yml)."""
    import re
    text = (ROOT / "mkdocs.yml").read_text()
    section = text.split("- The chapter:", 1)[1].split("\n  - ", 1)[0]
    return [m.removesuffix(".md") + "/" for m in re.findall(r":\s*(inference/[\w-]+\.md)", section)]


def measure_edit_loop(playwright, runs: int, browser_launch=None) -> tuple[dict, dict]:
    """The edit loop (``bench/edit_loop.py``): serve's save → page, then the cold builds."""
    folder = Path(tempfile.mkdtemp(prefix="bench-loop-"))
    try:
        if browser_launch is None:
            with playwright() as p:
                browser = p.chromium.launch(executable_path=executable_path(p), args=[*CHROMIUM_ARGS, NO_EXTERNAL_HOSTS])
                loop = edit_loop.measure_serve_loop(browser, folder / "serve", saves=max(3, runs))
                browser.close()
        else:
            browser = browser_launch()
            loop = edit_loop.measure_serve_loop(browser, folder / "serve", saves=max(3, runs))
            browser.close()
        print(f"bench: edit loop: save → page {loop['median_s']:.2f} s (median of {len(loop['save_to_page_s'])})", flush=True)
        builds = edit_loop.measure_cold_builds(folder / "build", runs=runs)
        m = builds["median_s"]
        print(f"bench: cold builds: plain {m['plain']:.2f} s, plugin without snapshot {m['no_snapshot']:.2f} s, "
              f"with {m['full']:.2f} s: {builds['ratio']:.2f} ×", flush=True)
        return loop, builds
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=3, help="cold runs per page, loopback and 10 Mbit/s (default 3)")
    p.add_argument("--steps", type=int, default=200, help="input steps per run for the latency (default 200)")
    p.add_argument("--port", type=int, default=0, help="port for the site (default: a free one)")
    p.add_argument("--json", type=Path, default=JSON, help=f"where the JSON goes (default {JSON.relative_to(ROOT)})")
    p.add_argument("--page", type=Path, default=PAGE, help=f"the page whose table is rewritten (default {PAGE.relative_to(ROOT)})")
    p.add_argument("--slow-runs", type=int, default=1, help="cold runs per page at 1.6 Mbit/s (default 1)")
    p.add_argument("--engine-runs", type=int, default=3, help="cold runs in each engine, Chromium, Firefox and WebKit in turns (default 3)")
    p.add_argument("--no-lighthouse", action="store_true", help="skip Lighthouse")
    p.add_argument("--no-edit-loop", action="store_true", help="skip the edit loop (mkdocs serve, cold builds)")
    p.add_argument("--edit-loop-only", action="store_true", help="measure the edit loop alone (and write nothing)")
    p.add_argument("--lighthouse-runs", type=int, default=3, help="mobile Lighthouse runs per page, median kept (default 3)")
    p.add_argument("--no-write", action="store_true", help="print the results only")
    p.add_argument("--only", choices=[n for n, _ in report.VARIANTS], action="append",
                   help="measure only this page (repeatable; default all three)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.runs < 1:
        sys.exit("--runs must be at least 1")
    started = time.monotonic()
    from playwright.sync_api import sync_playwright

    if args.edit_loop_only:
        loop, builds = measure_edit_loop(sync_playwright, args.runs)
        print("\n" + edit_loop.markdown(loop, builds) + "\n")
        return 0

    import course_calculators

    course_calculators.register_package("llm_inference")
    expected = course_calculators.run("kv-cache")["raw"]["kv_bytes_total"]
    computed = compute.measure(course_calculators.CALCULATORS.values())
    node_modules = ROOT / "node_modules"
    work = Path(tempfile.mkdtemp(prefix="bench-"))
    servers = []
    try:
        port = args.port or free_port()
        print(f"bench: building the site for http://127.0.0.1:{port}/ and the baselines in {work}", flush=True)
        build_site(work / "site", f"http://127.0.0.1:{port}/", check=True)
        table_sizes = tables.sizes(work / "site")
        baselines.build(work / "baselines", node_modules)
        traffic = measure.Traffic()
        wire, gzip, probe = link.Link(), link.Gzip(), measure.Probe()
        probe.script = measure.probe_script(expected, beacon=True)
        servers = [measure.serve(work / "site", traffic, port, link=wire, gzip=gzip, probe=probe),
                   measure.serve(work / "baselines", traffic, link=wire, gzip=gzip, probe=probe)]
        base = f"http://127.0.0.1:{servers[1].server_port}/"
        variants = [
            measure.Variant("site", f"http://127.0.0.1:{port}/{SITE_PAGE}", instant_nav=True),
            measure.Variant("plain", base + "plain.html"),
            measure.Variant("pyscript", base + "pyscript.html"),
        ]
        variants = [v for v in variants if not args.only or v.name in args.only]
        runs: dict[str, list[dict]] = {v.name: [] for v in variants}
        with sync_playwright() as p:
            launch = {"executable_path": executable_path(p), "args": [*CHROMIUM_ARGS, NO_EXTERNAL_HOSTS]}
            browser = p.chromium.launch(**launch)
            described = machine.describe(node_modules, browser.version)
            browser.close()

            def fresh_profile():
                """A new browser with an empty profile on disk: an empty HTTP cache that, like a
                reader's, keeps large files (an incognito context's in-memory cache drops the
                9.6 MB wasm, so no warm visit or service worker could reuse it)."""
                return p.chromium.launch_persistent_context(tempfile.mkdtemp(prefix="profile-", dir=work), **launch)

            for i in range(args.runs):
                for v in variants:
                    run = measure.cold_run(fresh_profile, v, expected, args.steps, traffic)
                    runs[v.name].append(run)
                    print(f"bench: run {i + 1}/{args.runs} {v.name:8s} ready {report.fmt_ms(run['ready_ms']):>8s}"
                          f"  warm {report.fmt_ms(run['warm_ready_ms']):>8s}"
                          f"  first value {report.fmt_ms(run['first_value_ms']):>8s}"
                          f"  FCP {report.fmt_ms(run['fcp_ms']):>7s}", flush=True)
            net = {"profiles": {}, "engines": {}, "lighthouse": []}
            throttled = [v for v in variants if v.name in ("site", "plain")]
            for prof in network.PROFILES:
                wire.profile = prof
                rounds = args.slow_runs if prof is link.SLOW else args.runs
                got: dict[str, list[dict]] = {v.name: [] for v in throttled}
                for i in range(rounds):
                    for v in throttled:
                        wire.reset()
                        run = measure.ready_only(fresh_profile, v, expected, traffic)
                        got[v.name].append(run)
                        print(f"bench: {prof.label} run {i + 1}/{rounds} {v.name:8s} ready {report.fmt_ms(run['ready_ms']):>8s}"
                              f"  bytes {report.fmt_bytes(run['bytes_ready'])} {run.get('boot_mode') or ''}", flush=True)
                net["profiles"][prof.name] = {name: {**network.summarize_profile(rs), "raw": rs} for name, rs in got.items()}
                for rs in got.values():
                    for r in rs:
                        runs.setdefault("_external", []).append({"external": r.get("external", [])})
            site_url = next((v.url for v in variants if v.name == "site"), None)
            touch = {}
            for prof in network.PROFILES if site_url else ():  # numbers before Python, on each link
                wire.profile = prof
                wire.reset()
                touch[prof.label] = tables.first_touch(fresh_profile, site_url)
                print(f"bench: {prof.label} first touch before Python: bound {report.fmt_ms(touch[prof.label]['bound_ms'])}",
                      flush=True)
            wire.profile = link.LOOPBACK
            wire.reset()
            if site_url:
                # The three engines started the same way, in turns (launch.py): Chromium's row is
                # its own visits of this step, not the Playwright runs above.
                chromium = launch["executable_path"] or p.chromium.executable_path  # for Lighthouse too
                net["engines"] = network.engine_runs(launch_available(chromium), site_url, probe, args.engine_runs)
                for name, e in net["engines"].items():
                    print(f"bench: {name:8s} cold ready {report.fmt_ms(e.get('ready_ms'))} ({e.get('runs')} runs)"
                          f"{' — ' + e['error'] if e.get('error') else ''}", flush=True)
                if not args.no_edit_loop:
                    net["edit_loop"] = measure_edit_loop(None, args.runs, browser_launch=lambda: p.chromium.launch(**launch))
                if not args.no_lighthouse:
                    from bench import lighthouse
                    if lighthouse.binary(node_modules):
                        net["lighthouse"] = network.lighthouse_runs(node_modules, f"http://127.0.0.1:{port}/",
                                                                    chapter_pages(), chromium, args.lighthouse_runs)
    finally:
        for server in servers:
            server.shutdown()
        shutil.rmtree(work, ignore_errors=True)

    external = sorted({url for rs in runs.values() for r in rs for url in r.get("external", [])})
    runs.pop("_external", None)
    if external:
        print("bench: FAILED — requests left 127.0.0.1:\n  " + "\n  ".join(external), file=sys.stderr)
        return 1
    described["pyodide_python"] = next((r.get("python") for r in runs.get("site", []) if r.get("python")), None)
    config = {"runs": args.runs, "steps": args.steps, "site_page": SITE_PAGE,
              "seconds": round(time.monotonic() - started)}
    doc = report.document(runs, described, config)
    doc["network"] = net
    doc["compute"] = computed
    doc["tables"] = {"widgets": table_sizes, "first_touch": touch}
    doc["network_targets"] = [{k: r[k] for k in ("target", "value", "limit", "met")}
                              for r in network.targets(doc["summary"], net)]
    json_link = os.path.relpath(args.json, args.page.parent).replace(os.sep, "/")
    block = report.markdown(doc["summary"], report.verdicts(doc["summary"]), described, config, json_link)
    block += "\n\n" + network.markdown(doc["summary"], net)
    block += "\n\n" + compute.markdown(computed)
    block += "\n\n" + tables.markdown(table_sizes, touch)
    if net.get("edit_loop"):
        loop, builds = net["edit_loop"]
        doc["edit_loop"] = {"serve": loop, "cold_builds": builds}
        block += "\n\n" + edit_loop.markdown(loop, builds)
    print("\n" + block + "\n")
    if not args.no_write:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(report.dumps(doc))
        args.page.write_text(report.replace_block(args.page.read_text(), block))
        print(f"bench: wrote {args.json} and the table in {args.page}")
    print(f"bench: done in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
