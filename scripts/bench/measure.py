"""Chromium through Playwright against the served pages: one cold visit per fresh context.

A *variant* is one of the three pages under test (the site's kv-cache chapter page, the plain
Pyodide baseline, the PyScript baseline). Every figure is read on the page's own clock
(``performance.now()``, zero at navigation start) by ``templates/probe.js``, or counted by the
browser (bytes: headers and encoded body of every response, the worker's included). Any request
that leaves 127.0.0.1 is recorded; the bench fails on one.
"""

from __future__ import annotations

import functools
import http.server
import json
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

PROBE = Path(__file__).parent / "templates" / "probe.js"
TIMEOUT_MS = 120_000
CALC = ".calc[data-calc='kv-cache']"

# Steps `steps` distinct values into the kv-cache widget's context field, one at a time: the time
# from dispatching `input` to the moment kv_bytes_total's data-value changes, in ms.
LATENCY_JS = """async ([sel, steps]) => {
  const root = document.querySelector(sel);
  const field = root.querySelector("input[type=number][name=context]");
  const out = root.querySelector("output[data-output='kv_bytes_total']");
  const times = [];
  for (let i = 0; i < steps; i++) {
    const before = out.dataset.value;
    const changed = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no output change within 10 s at step " + i)), 10000);
      const mo = new MutationObserver(() => {
        if (out.dataset.value !== before) { mo.disconnect(); clearTimeout(timer); resolve(performance.now()); }
      });
      mo.observe(out, { attributes: true, attributeFilter: ["data-value"] });
    });
    field.value = String(4096 + 97 * (i + 1));
    const t0 = performance.now();
    field.dispatchEvent(new Event("input", { bubbles: true }));
    times.push((await changed) - t0);
  }
  return times;
}"""

# Clicks the footer's "next" link (mkdocs-material's instant navigation swaps the page without a
# reload) and waits for the next page's first widget to turn ready, in ms from the click.
NAV_JS = """async () => {
  const link = document.querySelector("a.md-footer__link--next");
  if (!link) throw new Error("no footer link to a next page");
  const before = new Set(Array.from(document.querySelectorAll(".calc[data-calc]")));
  const t0 = performance.now();
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("next page's widget not ready within 30 s")), 30000);
    const check = () => {
      const w = Array.from(document.querySelectorAll(".calc[data-calc]")).find((e) => !before.has(e));
      if (w && w.dataset.state === "ready") {
        mo.disconnect(); clearTimeout(timer);
        resolve({ ms: performance.now() - t0, calc: w.dataset.calc, url: location.pathname,
                  reloaded: !window.__benchNavMarker });
      }
    };
    const mo = new MutationObserver(check);
    mo.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-state"] });
  });
  window.__benchNavMarker = true;
  link.click();
  return ready;
}"""


class Handler(http.server.SimpleHTTPRequestHandler):
    """A static host like GitHub Pages (the deployment target): ``Cache-Control: max-age=600``."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
        ".json": "application/json",
    }

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def log_message(self, *args) -> None:
        pass


def serve(directory: Path, port: int = 0) -> http.server.ThreadingHTTPServer:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@dataclass
class Variant:
    name: str        # "site", "plain", "pyscript"
    url: str
    instant_nav: bool = False


class Watch:
    """Requests finished in one browser context (the worker's included: Playwright reports a
    dedicated worker's requests with its page's), and any that leave 127.0.0.1."""

    def __init__(self, context) -> None:
        self.finished = []
        self.external: list[str] = []
        context.on("request", self._request)
        context.on("requestfinished", lambda request: self.finished.append(request))

    def _request(self, request) -> None:
        url = urlparse(request.url)
        if url.scheme in ("data", "blob", "about"):
            return
        if url.hostname != "127.0.0.1" and request.url not in self.external:
            self.external.append(request.url)

    def transferred(self) -> tuple[int, int]:
        """(bytes on the wire, requests) so far: headers plus the encoded body. A worker's own
        script reports a body size of 0, so the Content-Length header stands in for it."""
        total = 0
        for request in self.finished:
            sizes = request.sizes()
            body = sizes["responseBodySize"]
            if body <= 0:
                response = request.response()
                body = int((response.headers if response else {}).get("content-length", 0) or 0)
            total += sizes["responseHeadersSize"] + body
        return total, len(self.finished)


def probe_script(expected: str) -> str:
    return PROBE.read_text().replace("__EXPECTED__", json.dumps(expected))


def load(page, url: str) -> dict:
    """Navigate and wait for the widget's first Python-computed value; the probe's readings."""
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    page.wait_for_function("() => window.__bench && window.__bench.readyAt !== null", timeout=TIMEOUT_MS)
    probe = page.evaluate("() => window.__bench")
    ready = probe["readyAt"]
    fcp = probe["fcp"]
    value = probe["valueAt"]
    if value is None:
        raise RuntimeError(f"{url}: the kv-cache widget turned ready without showing the expected value")
    return {
        "fcp_ms": fcp,
        # Nothing is visible before the first paint: a value in the HTML counts from FCP.
        "first_value_ms": max(value, fcp) if fcp is not None else value,
        "ready_ms": ready,
        "longtask_ms": sum(d for start, d in probe["longtasks"] if start < ready),
        "blocking_ms": sum(max(0.0, d - 50) for start, d in probe["longtasks"] if start < ready),
        "longtasks": len([1 for start, _ in probe["longtasks"] if start < ready]),
    }


def cold_run(browser, variant: Variant, expected: str, steps: int) -> dict:
    """One cold visit in a fresh context, then the latency steps, the instant navigation (site
    only), and a warm-cache visit in a new tab of the same context."""
    context = browser.new_context()
    try:
        context.add_init_script(probe_script(expected))
        watch = Watch(context)
        page = context.new_page()
        result = load(page, variant.url)
        page.wait_for_load_state("networkidle", timeout=TIMEOUT_MS)
        result["bytes"], result["requests"] = watch.transferred()
        if variant.name == "site":
            result["python"] = page.evaluate("() => window.calculatorsRuntime && window.calculatorsRuntime.python")
        result["latency_ms"] = page.evaluate(LATENCY_JS, [CALC, steps]) if steps else []
        if variant.instant_nav:
            nav = page.evaluate(NAV_JS)
            if nav["reloaded"]:
                raise RuntimeError("the next-page link reloaded the page: instant navigation did not intercept it")
            result["nav_ms"] = nav["ms"]
            result["nav_page"] = nav["url"]
        page.close()
        warm = context.new_page()
        result["warm_ready_ms"] = load(warm, variant.url)["ready_ms"]
        warm.close()
        result["external"] = list(watch.external)
        return result
    finally:
        context.close()
