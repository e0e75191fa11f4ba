"""The author's edit loop: ``mkdocs serve``'s save → page latency, and the cold build beside a plain one.

A tiny two-calculator site (:func:`write_tiny_site`) is served by ``mkdocs serve``; a save of one
calculator module changes a number, and the time until the open page shows it is the loop's
latency: the page keeps itself and its worker, which takes the rebuilt wheel in place
(``course_calculators/plugin/live.py``), once Python is running in it; a save that changes what a
result cannot show (the banner of a broken module) reloads the page, as MkDocs' live reload does. The same site is also built cold, in fresh processes:
with the plugin, with the plugin but no snapshot, and as a plain mkdocs-material site of the same
pages (the plugin left out, the fences plain code): the build's own cost beside MkDocs' is the
ratio of the second to the third (the target: at most 2 ×, the snapshot step on top).

Used by ``make bench`` and by ``tests/e2e/test_edit_loop.py`` (which reports, never asserts, the time).
"""

from __future__ import annotations

import compileall
import os
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[2]

AREA = '''"""A rectangle's area."""

from course_calculators.spec import Calculator, Number, Output


def compute(inputs):
    return {"area": inputs["width"] * inputs["height"] * SCALE}


SCALE = 1

SPEC = Calculator(
    id="area", title="Area of a rectangle", compute=compute,
    params=(Number("width", "Width", 3, 1, 100, unit="m"), Number("height", "Height", 4, 1, 100, unit="m")),
    outputs=(Output("area", "Area", "count", primary=True),),
)
'''

SPEED = '''"""An average speed."""

from course_calculators.spec import Calculator, Number, Output


def compute(inputs):
    return {"speed": inputs["distance"] / inputs["hours"]}


SPEC = Calculator(
    id="speed", title="Average speed", compute=compute,
    params=(Number("distance", "Distance", 120, 1, 1000, unit="km"), Number("hours", "Time", 2, 1, 24, unit="h")),
    outputs=(Output("speed", "Speed", "count", primary=True),),
)
'''

PAGE = """# Two calculators

```calculator area
```

```calculator speed
```
"""

MKDOCS = """site_name: Tiny
site_url: http://127.0.0.1:8000/
theme:
  name: material
  font: false
plugins:
  - search
  - calculators:
      node_modules: {node_modules}
      packages: [tiny_calcs]
{extra}nav:
  - Home: index.md
"""


def write_tiny_site(folder: Path, node_modules: Path = ROOT / "node_modules") -> Path:
    """A site with one page and two calculators (``area``, ``speed``) in ``folder``; returns the
    module the loop edits (``tiny_calcs/area.py``)."""
    (folder / "docs").mkdir(parents=True, exist_ok=True)
    (folder / "tiny_calcs").mkdir(exist_ok=True)
    (folder / "docs" / "index.md").write_text(PAGE)
    (folder / "tiny_calcs" / "__init__.py").write_text('"""Two tiny calculators."""\n')
    (folder / "tiny_calcs" / "area.py").write_text(AREA)
    (folder / "tiny_calcs" / "speed.py").write_text(SPEED)
    write_config(folder, node_modules)
    return folder / "tiny_calcs" / "area.py"


def write_config(folder: Path, node_modules: Path = ROOT / "node_modules", *, plugin: bool = True,
                 snapshot: bool = True, name: str = "mkdocs.yml") -> Path:
    """The tiny site's ``mkdocs.yml`` (``name``), with or without the plugin and its snapshot."""
    text = MKDOCS.format(node_modules=node_modules, extra="" if snapshot else "      snapshot: false\n")
    if not plugin:
        text = re.sub(r"  - calculators:\n(      .*\n)+", "", text)
    path = folder / name
    path.write_text(text)
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env() -> dict[str, str]:
    return {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


@contextmanager
def serving(folder: Path, *, config: str = "mkdocs.yml", timeout: float = 300) -> Iterator[tuple[str, subprocess.Popen]]:
    """``mkdocs serve --strict`` of ``folder`` on a free port; yields its URL once the first build
    answers, and the process (its output goes to ``folder/serve.log``)."""
    port = free_port()
    log = open(folder / "serve.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--strict", "-f", config,
                             "-a", f"127.0.0.1:{port}"], cwd=folder, env=_env(), stdout=log,
                            stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"mkdocs serve exited: {(folder / 'serve.log').read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(url, timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"mkdocs serve never answered: {(folder / 'serve.log').read_text()[-2000:]}")
            time.sleep(0.2)
        yield url, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def output_text(page, selector: str) -> str:
    return page.evaluate("(s) => document.querySelector(s)?.textContent.trim() ?? ''", selector)


#: Installed in the page before its scripts run: the wall-clock time (ms since the epoch) at which
#: each watched output first holds a text in a freshly loaded document, so the loop's figure is
#: when the reader sees the number, not when Playwright's polling (restarted by every navigation,
#: about 0.2 s here) next looks.
FIRST_SEEN = """(() => {
  const seen = (window.__calcFirstSeen = {});
  const look = () => {
    for (const e of document.querySelectorAll('output[data-output]')) {
      const text = e.textContent.trim(), key = e.closest('[id]')?.id + ' ' + e.dataset.output;
      if (text && seen[key]?.text !== text) seen[key] = {text, at: performance.timeOrigin + performance.now()};
    }
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true, characterData: true});
  // Under serve, when the page heard that the rebuild finished (plugin/livereload-poll.js's event).
  document.addEventListener('calculators:rebuilt', () => { window.__calcRebuiltAt = performance.timeOrigin + performance.now(); });
})()"""


def save_and_wait(page, module: Path, old: str, new: str, selector: str, expected: str,
                  timeout_ms: float = 120_000) -> float:
    """Replace ``old`` with ``new`` in ``module`` and return the seconds until the open page's
    ``selector`` reads ``expected`` (MkDocs' live reload reloads it after the rebuild): the time
    the page itself saw it when :data:`FIRST_SEEN` was installed, else when Playwright did."""
    text = module.read_text()
    assert old in text, f"{old!r} not in {module}"
    started = time.time()
    module.write_text(text.replace(old, new))
    page.wait_for_function("([s, want]) => document.querySelector(s)?.textContent.trim() === want",
                           arg=[selector, expected], timeout=timeout_ms, polling=20)
    polled = time.time() - started
    seen = page.evaluate("""(s) => { const e = document.querySelector(s); if (!e || !window.__calcFirstSeen) return null;
                                     return window.__calcFirstSeen[e.closest('[id]')?.id + ' ' + e.dataset.output] ?? null; }""",
                         selector)
    if seen and seen["text"] == expected and started <= seen["at"] / 1000 <= started + polled:
        return seen["at"] / 1000 - started
    return polled


def measure_serve_loop(browser, folder: Path, *, saves: int = 3) -> dict:
    """Serve the tiny site in ``folder``, open its page, and time ``saves`` saves of ``area.py``
    (each changes the area's scale); then a save that breaks it (the banner) and one that fixes it."""
    module = write_tiny_site(folder)
    times, broken = [], None
    with serving(folder) as (url, _):
        page = browser.new_page()
        page.add_init_script(FIRST_SEEN)
        page.goto(url)
        selector = '#calc-area output[data-output="area"]'
        # Python running in the page's worker: a save reaches it in place (before, the page reloads).
        page.wait_for_selector('#calc-area[data-state="ready"]', timeout=120_000)
        page.evaluate("window.__calcSamePage = true")
        scale = 1
        ready, in_place, after_rebuild = [], [], []
        for _ in range(saves):
            expected = str(12 * (scale + 1))
            saved = time.time()
            times.append(save_and_wait(page, module, f"SCALE = {scale}\n", f"SCALE = {scale + 1}\n",
                                       selector, expected))
            rebuilt = page.evaluate("window.__calcRebuiltAt ?? null")
            if rebuilt is not None and rebuilt / 1000 >= saved:  # this save's rebuild, heard by this page
                after_rebuild.append(saved + times[-1] - rebuilt / 1000)
            page.wait_for_selector('#calc-area[data-state="ready"]', timeout=120_000)
            ready.append(time.time() - saved)
            in_place.append(page.evaluate("window.__calcSamePage === true"))
            scale += 1
        runtime = page.evaluate("({reloads: calculatorsRuntime.reloads, restarts: calculatorsRuntime.restarts,"
                                " bootMs: calculatorsRuntime.bootMs, reloadMs: calculatorsRuntime.reloadMs})")
        started = time.monotonic()
        module.write_text(module.read_text().replace("* SCALE}", "* SCALE / 0}"))
        page.wait_for_selector("[data-calc-live-error]", timeout=120_000)
        broken = time.monotonic() - started
        banner = page.get_attribute("[data-calc-live-error]", "data-calc-live-error")
        fixed = save_and_wait(page, module, "* SCALE / 0}", "* SCALE}", selector, str(12 * scale))
        page.close()
    return {"save_to_page_s": times, "median_s": statistics.median(times), "save_to_ready_s": ready,
            "ready_median_s": statistics.median(ready), "in_place": in_place, "runtime": runtime,
            "after_rebuild_s": after_rebuild,
            "broken_to_banner_s": broken, "banner_names": banner, "fixed_to_page_s": fixed}


def cold_build_seconds(folder: Path, config: str) -> float:
    """One cold ``mkdocs build --strict`` in a fresh process (its site in a folder of its own)."""
    out = folder / f"site-{Path(config).stem}"
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", config, "-d", str(out)],
                          cwd=folder, env=_env(), capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"mkdocs build -f {config} failed:\n{proc.stderr[-3000:]}")
    return time.monotonic() - started


def compile_framework() -> None:
    """The framework's modules as bytecode, as installing a package leaves them: mkdocs and
    mkdocs-material, installed by pip, are read from their bytecode, and so is the plugin of a
    site that installs it; this repository's editable copy would otherwise be compiled afresh by
    every build where ``PYTHONDONTWRITEBYTECODE`` is set (a tenth of a second, not the build's own
    work). The site's calculator package is compiled by each build, as an author's is."""
    compileall.compile_dir(ROOT / "course_calculators", quiet=1)


def measure_cold_builds(folder: Path, *, runs: int = 3) -> dict:
    """Median cold build times of the tiny site: plain mkdocs-material, the plugin without its
    snapshot, the plugin as shipped; interleaved, so a slow moment of the machine hurts all alike."""
    compile_framework()
    write_tiny_site(folder)
    configs = {"plain": write_config(folder, plugin=False, name="plain.yml").name,
               "no_snapshot": write_config(folder, snapshot=False, name="nosnap.yml").name,
               "full": "mkdocs.yml"}
    got: dict[str, list[float]] = {k: [] for k in configs}
    for _ in range(runs):
        for kind, config in configs.items():
            got[kind].append(cold_build_seconds(folder, config))
    med = {k: statistics.median(v) for k, v in got.items()}
    snapshot_step = med["full"] - med["no_snapshot"]
    return {"runs": got, "median_s": med, "snapshot_step_s": snapshot_step,
            "ratio": med["no_snapshot"] / med["plain"],
            "met": med["full"] <= 2 * med["plain"] + snapshot_step}


def markdown(loop: dict | None, builds: dict | None) -> str:
    rows = ["| the author's edit loop (a two-calculator site) | seconds |", "|---|---:|"]
    if loop:
        kept = sum(loop.get("in_place", []))
        how = ("with the worker reloaded in place, no page reload" if kept == len(loop["save_to_page_s"])
               else f"the page reloaded {len(loop['save_to_page_s']) - kept} times")
        rows.append(f"| save a calculator → the open page shows the new number (`mkdocs serve`, {how}, "
                    f"median of {len(loop['save_to_page_s'])}) | {loop['median_s']:.2f} |")
        ready = ("the same worker, Python not booted again" if kept == len(loop["save_to_page_s"])
                 else "Python booted in the reloaded page's worker")
        rows.append(f"| … and its widget is ready again ({ready}) | {loop['ready_median_s']:.2f} |")
        if loop.get("after_rebuild_s"):
            rows.append(f"| … of which from the rebuild's end (the page told) to the number (median) | "
                        f"{statistics.median(loop['after_rebuild_s']):.2f} |")
        if loop.get("runtime", {}).get("reloadMs") is not None:
            rows.append(f"| … of which the worker's reload (fetch the lock and the wheel, unpack, import; the last save) | "
                        f"{loop['runtime']['reloadMs'] / 1000:.2f} |")
        rows.append(f"| save that breaks it → the page's banner names `{loop['banner_names']}` | "
                    f"{loop['broken_to_banner_s']:.2f} |")
        rows.append(f"| save that fixes it → the number again | {loop['fixed_to_page_s']:.2f} |")
    if builds:
        m = builds["median_s"]
        rows.append(f"| cold `mkdocs build`, plain mkdocs-material, same pages | {m['plain']:.2f} |")
        rows.append(f"| cold `mkdocs build` with the plugin, no snapshot | {m['no_snapshot']:.2f} |")
        rows.append(f"| cold `mkdocs build` with the plugin (snapshot step {builds['snapshot_step_s']:.2f} s) | "
                    f"{m['full']:.2f} |")
        rows.append(f"| the plugin's build beside plain mkdocs-material, snapshot step aside (target ≤ 2 ×) | "
                    f"{builds['ratio']:.2f} × {'met' if builds['met'] else 'not met'} |")
    return "\n".join(rows)
