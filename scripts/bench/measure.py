"""Chromium through Playwright against the served pages: one cold visit per fresh context.

A *variant* is one of the three pages under test (the site's kv-cache chapter page, the plain
Pyodide baseline, the PyScript baseline). Every time is read on the page's own clock
(``performance.now()``, zero at navigation start) by ``templates/probe.js``; bytes are counted by
the servers, which see every request (page, worker, service worker). Any request that leaves
127.0.0.1 is recorded; the bench fails on one.
"""

from __future__ import annotations

import functools
import http.server
import json
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from .link import CHUNK, COMPRESSED, Gzip, Link

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
        resolve({ ms: performance.now() - t0, calc: w.dataset.calc, url: location.pathname });
      }
    };
    const mo = new MutationObserver(check);
    mo.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-state"] });
  });
  link.click();
  return ready;
}"""


class Traffic:
    """What the servers sent (status line, headers and body) for each request, with the wall time
    the request arrived. The servers do not compress, so this is what crossed the wire; it counts
    every request, whoever made it (page, worker, service worker)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.events: list[tuple[float, str, int]] = []  # (arrival, epoch seconds; path; bytes sent)

    def add(self, arrived: float, path: str, sent: int) -> None:
        with self._lock:
            self.events.append((arrived, path, sent))

    def mark(self) -> int:
        with self._lock:
            return len(self.events)

    def total(self) -> int:
        with self._lock:
            return sum(e[2] for e in self.events)

    def since(self, mark: int, until: float | None = None) -> dict:
        """Bytes, requests and the largest paths of the requests after ``mark`` (that arrived by
        ``until``, epoch seconds, if given)."""
        with self._lock:
            events = [e for e in self.events[mark:] if until is None or e[0] <= until]
        by_path: dict[str, int] = {}
        for _, path, sent in events:
            by_path[path] = by_path.get(path, 0) + sent
        largest = dict(sorted(by_path.items(), key=lambda kv: -kv[1])[:6])
        return {"bytes": sum(by_path.values()), "requests": len(events), "largest": largest}


class _Counting:
    """A write-through wrapper around a handler's socket file that counts the bytes written, each
    slice of them once the link has carried it."""

    def __init__(self, raw, link: Link) -> None:
        self.raw = raw
        self.link = link
        self.count = 0

    def write(self, data) -> int:
        view = memoryview(data)
        for at in range(0, len(view), CHUNK):
            piece = view[at:at + CHUNK]
            self.link.send(len(piece))
            self.raw.write(piece)
            self.count += len(piece)
        return len(view)

    def __getattr__(self, name):
        return getattr(self.raw, name)


class Handler(http.server.SimpleHTTPRequestHandler):
    """A static host like GitHub Pages (the deployment target): ``Cache-Control: max-age=600``,
    gzip for the types it compresses, over the run's ``Link``. For browsers without Playwright
    (``launch.py``) it also serves the probe (``/__bench/probe.js``, put at the top of every page's
    head) and takes its report (``POST /__bench/result``)."""

    protocol_version = "HTTP/1.1"  # keep-alive, as browsers and static hosts use it

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
        ".json": "application/json",
    }

    def __init__(self, *args, traffic: Traffic, link: Link, gzip: Gzip, probe: "Probe", **kwargs) -> None:
        # Before super().__init__, which handles the request.
        self.traffic, self.link, self.gzip, self.probe = traffic, link, gzip, probe
        super().__init__(*args, **kwargs)

    def setup(self) -> None:
        super().setup()
        self.link.round_trip()  # the connection's handshake
        self.wfile = _Counting(self.wfile, self.link)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        if urlparse(self.path).path == "/__bench/result":
            self.probe.results.append(json.loads(body or b"{}"))
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        self.link.round_trip()  # the request's way there and the first byte's way back
        path = urlparse(self.path).path
        if path == "/__bench/probe.js":
            return self._send(self.probe.script.encode(), "text/javascript", compress=False)
        file = Path(self.translate_path(self.path))
        if file.is_dir():
            file = file / "index.html"
            if not path.endswith("/"):
                return super().do_GET()  # the redirect
        if not file.is_file():
            return super().do_GET()
        ctype = self.guess_type(str(file))
        if file.suffix == ".html" and self.probe.inject:
            text = file.read_text(encoding="utf-8").replace("<head>", '<head><script src="/__bench/probe.js"></script>', 1)
            return self._send(text.encode(), ctype, compress=True)
        if file.suffix in COMPRESSED and "gzip" in (self.headers.get("Accept-Encoding") or ""):
            return self._send(self.gzip.body(file), ctype, encoded=True)
        return super().do_GET()

    def _send(self, body: bytes, ctype: str, *, compress: bool = False, encoded: bool = False) -> None:
        if compress and "gzip" in (self.headers.get("Accept-Encoding") or ""):
            import gzip as _gzip
            body, encoded = _gzip.compress(body, 6), True
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        if encoded:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def parse_request(self) -> bool:
        self.arrived = time.time()
        return super().parse_request()

    def handle_one_request(self) -> None:
        before = self.wfile.count
        self.arrived = None
        super().handle_one_request()
        sent = self.wfile.count - before
        if sent and self.arrived is not None:
            self.traffic.add(self.arrived, urlparse(getattr(self, "path", "") or "").path, sent)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def log_message(self, *args) -> None:
        pass


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:
        """A closed browser context drops its downloads mid-way: not worth a traceback."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class Probe:
    """What the bench server needs for browsers it drives without Playwright: the probe script it
    puts into every page while ``inject`` is on, and the reports it got back."""

    def __init__(self) -> None:
        self.inject = False
        self.script = ""
        self.results: list[dict] = []


def serve(directory: Path, traffic: Traffic, port: int = 0, *, link: Link | None = None,
          gzip: Gzip | None = None, probe: Probe | None = None) -> Server:
    handler = functools.partial(Handler, directory=str(directory), traffic=traffic, link=link or Link(),
                                gzip=gzip or Gzip(), probe=probe or Probe())
    server = Server(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def wait_quiet(traffic: Traffic, quiet_s: float = 1.0, limit_s: float = 60.0) -> None:
    """Until the servers have sent nothing for ``quiet_s`` (a service worker's precache, charts
    and fonts loading after the first value all count as the cold load's traffic)."""
    deadline = time.monotonic() + limit_s
    last, since = traffic.total(), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = traffic.total()
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet_s:
            return


@dataclass
class Variant:
    name: str        # "site", "plain", "pyscript"
    url: str
    instant_nav: bool = False


class Watch:
    """Requests that leave 127.0.0.1, from any page or worker of one browser context."""

    def __init__(self, context) -> None:
        self.external: list[str] = []
        context.on("request", self._request)

    def _request(self, request) -> None:
        url = urlparse(request.url)
        if url.scheme in ("data", "blob", "about"):
            return
        if url.hostname != "127.0.0.1" and request.url not in self.external:
            self.external.append(request.url)


def probe_script(expected: str, beacon: bool = False) -> str:
    return PROBE.read_text().replace("__EXPECTED__", json.dumps(expected)).replace("__BEACON__", json.dumps(beacon))


def load(page, url: str) -> dict:
    """Navigate and wait for the widget's first Python-computed value; the probe's readings."""
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    try:
        page.wait_for_function(
            """() => { const b = window.__bench;
                return b && b.readyAt !== null && (b.valueAt !== null || performance.now() - b.readyAt > 5000); }""",
            timeout=TIMEOUT_MS)
    except Exception as exc:  # say where the page stood, not only that it timed out
        state = page.evaluate("""() => { const r = document.querySelector(".calc[data-calc='kv-cache']");
            const rt = window.calculatorsRuntime;
            return { state: r && r.dataset.state, message: r && (r.querySelector("[data-message]") || {}).textContent,
                     timings: rt && rt.timings, readyState: document.readyState, bench: !!window.__bench }; }""")
        raise RuntimeError(f"{url}: not ready after {TIMEOUT_MS} ms: {state}") from exc
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
        "ready_epoch_s": (probe["timeOrigin"] + ready) / 1000,
        "longtask_ms": sum(d for start, d in probe["longtasks"] if start < ready),
        "blocking_ms": sum(max(0.0, d - 50) for start, d in probe["longtasks"] if start < ready),
        "longtasks": [[round(start), round(d)] for start, d in probe["longtasks"] if start < ready],
    }


def _first_visit(context, variant: Variant, expected: str, traffic: Traffic):
    """The cold visit both runs begin with: the page, the request watch, the traffic mark, and the
    first figures (ready, first value, FCP, bytes until ready, the boot path)."""
    context.add_init_script(probe_script(expected))
    watch = Watch(context)
    page = context.new_page()
    mark = traffic.mark()
    result = load(page, variant.url)
    result["bytes_ready"] = traffic.since(mark, until=result.pop("ready_epoch_s"))["bytes"]
    if variant.name == "site":
        result["boot_mode"] = page.evaluate("() => window.calculatorsRuntime.bootMode")
        result["boot_why"] = page.evaluate("() => window.calculatorsRuntime.bootWhy")
        result["timings"] = page.evaluate("() => window.calculatorsRuntime.timings")
    return page, watch, mark, result


def cold_run(new_context, variant: Variant, expected: str, steps: int, traffic: Traffic) -> dict:
    """One cold visit in a fresh browser profile (``new_context()``), then the latency steps, the
    instant navigation (site only), and a warm-cache visit in a new tab of the same profile."""
    context = new_context()
    try:
        page, watch, mark, result = _first_visit(context, variant, expected, traffic)
        wait_quiet(traffic)
        result.update(traffic.since(mark))
        if variant.name == "site":
            result["python"] = page.evaluate("() => window.calculatorsRuntime && window.calculatorsRuntime.python")
        result["latency_ms"] = page.evaluate(LATENCY_JS, [CALC, steps]) if steps else []
        if variant.instant_nav:
            try:
                nav = page.evaluate(NAV_JS)
            except Exception as exc:  # a full reload destroys the page's context mid-evaluate
                raise RuntimeError(f"instant navigation to the next page failed (did it reload?): {exc}") from exc
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


def ready_only(new_context, variant: Variant, expected: str, traffic: Traffic) -> dict:
    """One cold visit over the current link: ready, first value, FCP and the bytes until ready."""
    context = new_context()
    try:
        _, watch, _, result = _first_visit(context, variant, expected, traffic)
        result["external"] = list(watch.external)
        return result
    finally:
        context.close()
