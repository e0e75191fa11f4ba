"""Cold ready in each engine: from a first visit in a fresh profile to every widget of the page
ready (Python running and each widget showing its answer), in ms on the page's own clock
(``performance.now()``, zero at navigation start).

``cold_ready(engine, url)`` starts the engine anew (a new browser with an empty profile: empty
HTTP cache, no service worker), opens ``url``, and watches the widgets' ``data-state`` from
DOMContentLoaded on (the same way in every engine: WebDriver has no script that runs before the
page's own) — Python is not ready by then, since it boots in a worker the page starts while it
parses; a run where it was would be refused, not under-reported. Engines: ``chromium``, ``firefox``, ``webkit``
(``scripts/browsers``; where each is found: ``scripts/find_browsers.py``).

    python scripts/bench/engines.py [--runs 3] [--engine firefox ...]

builds the site, serves it like a static host (``measure.serve``) and prints each engine's runs
and median for the kv-cache page.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for path in (ROOT, ROOT / "scripts"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from browsers import launch  # noqa: E402

PAGE = "inference/kv-cache/"
TIMEOUT_MS = 120_000

# Resolves with performance.now() at the first moment every widget is ready; `late` if they all
# were already (the moment then is unknown, and the run is refused rather than under-reported).
WATCH_READY = """(timeoutMs) => new Promise((resolve, reject) => {
  const widgets = () => Array.from(document.querySelectorAll(".calc[data-calc]"));
  const allReady = () => widgets().length > 0 && widgets().every((w) => w.dataset.state === "ready");
  if (allReady()) { resolve({ ms: performance.now(), late: true }); return; }
  const timer = setTimeout(() => { mo.disconnect(); reject(new Error(`not every widget ready within ${timeoutMs} ms`)); }, timeoutMs);
  const mo = new MutationObserver(() => {
    if (widgets().some((w) => w.dataset.state === "error")) {
      mo.disconnect(); clearTimeout(timer); reject(new Error("a widget turned to error"));
    } else if (allReady()) {
      mo.disconnect(); clearTimeout(timer); resolve({ ms: performance.now(), late: false });
    }
  });
  mo.observe(document.documentElement, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
})"""


def cold_ready(engine: str, url: str) -> float:
    """ms from navigation start to every widget ready, on a first visit with a fresh profile."""
    with launch(engine) as browser:
        # WebKitWebDriver never returns from a navigation with the "eager" strategy: "none" returns
        # at once, and the wait below finds the new document's DOMContentLoaded.
        options = {"page_load_strategy": "none"} if engine == "webkit" else {}
        session = browser.new_session(**options)
        try:
            session.goto(url, wait="domcontentloaded")
            session.wait_for("(u) => location.href === u && document.readyState !== 'loading'", url,
                             interval=0.02, timeout=TIMEOUT_MS / 1000, what="the page parsed")
            seen = session.evaluate(WATCH_READY, TIMEOUT_MS)
        finally:
            session.close()
    if seen["late"]:
        raise RuntimeError(f"{engine}: every widget was ready before DOMContentLoaded; cannot time it")
    return seen["ms"]


def main(argv: list[str] | None = None) -> int:
    from bench import measure
    from find_browsers import ALL_ENGINES
    from serving import StaticServer, build_site

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--engine", action="append", choices=ALL_ENGINES, help="repeatable; default all three")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-engines-"))
    try:
        holder = StaticServer(work / "site")  # only to learn a free port to build the site for
        port = holder.server_port
        holder.server_close()
        build_site(work / "site", f"http://127.0.0.1:{port}/", check=True)
        server = measure.serve(work / "site", measure.Traffic(), port)
        try:
            for engine in args.engine or ALL_ENGINES:
                runs = [cold_ready(engine, f"http://127.0.0.1:{port}/{PAGE}") for _ in range(args.runs)]
                print(f"{engine:9s} cold ready: median {statistics.median(runs):6.0f} ms"
                      f"  runs {', '.join(f'{r:.0f}' for r in runs)}", flush=True)
        finally:
            server.shutdown()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "tests"))  # serving.py: the tests' build and server helpers
    sys.exit(main())
