"""Helpers for end-to-end tests: they speak only the public widget contract (DOM and URL)."""

from __future__ import annotations

import html
import json
import re

from playwright.sync_api import TimeoutError as PlaywrightTimeout

#: The runtime manifest in a page (plugin/manifest.py's head tags).
_MANIFEST = re.compile(r'(<meta name="calculators-runtime" content=")([^"]*)(">)')
#: The site's pages: a folder's URL or an .html file, with or without a query.
_PAGE_URL = re.compile(r"^[^?#]*(?:/|\.html)(?:\?[^#]*)?(?:#.*)?$")


def runtime_options(context, **fields) -> None:
    """Serve the pages of this browser context with these fields of their runtime manifest
    changed, as a site built with those plugin options carries them: ``boot_timeout_ms=600_000``
    is a site built with ``boot_timeout: 600``."""
    def rewrite(route):
        if route.request.resource_type != "document":
            route.fallback()
            return
        response = route.fetch()
        text = response.text()

        def changed(m: re.Match) -> str:
            manifest = json.loads(html.unescape(m.group(2)))
            unknown = set(fields) - set(manifest)
            assert not unknown, f"the runtime manifest has no field {sorted(unknown)}"
            manifest.update(fields)
            return m.group(1) + html.escape(json.dumps(manifest), quote=True) + m.group(3)

        route.fulfill(response=response, body=_MANIFEST.sub(changed, text, count=1))

    context.route(_PAGE_URL, rewrite)


def connection(**fields) -> str:
    """An init script that gives the page a navigator.connection with these fields. Its getter is
    marked, so that :data:`NO_CONNECTION` (the default of every context here) leaves it alone
    whichever of the two scripts runs first."""
    props = ", ".join(f"{k}: {v!r}" if isinstance(v, str) else f"{k}: {str(v).lower()}" for k, v in fields.items())
    return ("Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: Object.assign("
            f"function () {{ return {{ {props}, addEventListener() {{}}, removeEventListener() {{}} }}; }}, "
            "{ e2eConnection: true }) });")


#: What every browser context of these tests tells its pages of the network: nothing, as Firefox
#: and Safari tell it. Chromium's own answer (fast, unmetered) has a page make its offline copy by
#: itself six seconds after Python is ready (page/offline-copy.js): the whole site once more,
#: through the test's server, in every test that stays that long. A test about the connection
#: says which one it is with :func:`connection`.
NO_CONNECTION = """(() => {
  const own = Object.getOwnPropertyDescriptor(Navigator.prototype, 'connection');
  if (own && own.get && own.get.e2eConnection) return;
  Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get() { return undefined; } });
})();"""


def leaving(page) -> None:
    """Mark the page's content before a navigation, so that ``arrived`` can tell the next page's
    content from it: mkdocs-material's instant navigation changes the address first and replaces
    ``[data-md-component=container]`` when the page has been fetched."""
    page.evaluate("() => { document.querySelector('[data-md-component=container]').dataset.left = '1'; }")


def arrived(page, timeout: float = 30_000) -> None:
    """Wait until the content marked by ``leaving`` has been replaced by the next page's."""
    page.wait_for_function(
        "() => { const c = document.querySelector('[data-md-component=container]'); return c && !c.dataset.left; }",
        timeout=timeout,
    )


def wait_ready(page, calc: str | None = None, timeout: float = 60_000) -> None:
    selector = f'.calc[data-calc="{calc}"]' if calc else ".calc"
    page.wait_for_function(
        """(sel) => { const els = document.querySelectorAll(sel);
            return els.length > 0 && Array.from(els).every(e => e.dataset.state === 'ready'); }""",
        arg=selector, timeout=timeout,
    )


def snapshot_start(page, url: str, calc: str | None = None) -> tuple[str, str]:
    """Open ``url`` and wait until ready; (boot mode, its reason).

    The worker takes the snapshot only when the wasm arrives fast (``worker/boot-path.js``), and
    gives it up when its download stalls (``worker/downloads.js``). On a machine with no free core
    even the loopback can measure slow, or starve the snapshot's download for seconds: the reason
    must then say so, and a reload, with the files in the browser's cache, must take the snapshot.
    Any other reason (a refused or unrestorable snapshot) is returned as it is."""
    def started() -> tuple[str, str]:
        wait_ready(page, calc)
        return tuple(page.evaluate("() => [window.calculatorsRuntime.bootMode, window.calculatorsRuntime.bootWhy]"))

    page.goto(url)
    mode, why = started()
    if mode == "boot" and (why.startswith("slow link") or "the download stalled" in why):
        page.reload()
        mode, why = started()
    return mode, why


def output(page, calc: str, name: str) -> tuple[str, str]:
    """(data-value, visible text) of one output."""
    return tuple(page.eval_on_selector(
        f'.calc[data-calc="{calc}"] output[data-output="{name}"]', "e => [e.dataset.value, e.textContent.trim()]"
    ))


def reveal(page, root: str, name: str) -> None:
    """A parameter the page folds under "More parameters" is one click away: open it, as a reader
    would, before using its field."""
    more = page.locator(f"{root} details.calc__more:has([name='{name}'])")
    if more.count() and not more.evaluate("(d) => d.open"):
        more.locator("summary").click()


def set_field(page, calc: str, name: str, value: str) -> None:
    """Fill a number field (or choose an option) and fire the event a reader's edit fires."""
    sel = f'.calc[data-calc="{calc}"] [name="{name}"]:not([type=range])'
    reveal(page, f'.calc[data-calc="{calc}"]', name)
    tag = page.eval_on_selector(sel, "e => e.tagName")
    if tag == "SELECT":
        page.select_option(sel, value)
    else:
        page.fill(sel, value)


def settle(page, calc: str) -> None:
    """Wait until the widget has no run in flight and shows Python's answer for its inputs."""
    page.wait_for_function(
        """(sel) => { const e = document.querySelector(sel);
            if (!e) return false; // instant navigation is swapping the page's content
            const w = window.calculatorsRuntime && window.calculatorsRuntime.widgets.get(e.id);
            return e.dataset.state === 'ready' && w && w.settled; }""",
        arg=f'.calc[data-calc="{calc}"]', timeout=30_000,
    )


_LAYOUT = """() => {
  const problems = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth) problems.push(`the page scrolls sideways: ${doc.scrollWidth}px in ${doc.clientWidth}px`);
  document.querySelectorAll(".calc").forEach((calc) => {
    if (calc.scrollWidth > calc.clientWidth + 1) problems.push(`${calc.id}: content ${calc.scrollWidth}px wide in ${calc.clientWidth}px`);
    const parts = calc.querySelectorAll("input, select, button, summary, output, canvas, .calc__grid, .calc__title");
    parts.forEach((el) => {
      if (!el.checkVisibility()) return; // inside a closed <details>
      const what = `${calc.id} ${el.tagName.toLowerCase()} ${el.name || el.dataset.output || el.dataset.preset || el.textContent.trim().slice(0, 30)}`;
      const box = calc.getBoundingClientRect(), r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) problems.push(`${what}: collapsed to nothing`);
      // A row that scrolls sideways (a phone's presets) holds more than it shows, by design: its
      // own box must fit, and the buttons scroll inside it.
      const row = el.closest(".calc__presets");
      const scrolls = row && getComputedStyle(row).overflowX === "auto";
      const edge = scrolls ? row.getBoundingClientRect() : r;
      if (edge.left < box.left - 1 || edge.right > box.right + 1) problems.push(`${what}: sticks out of its widget`);
      if (!el.matches("input, select, button, summary")) return;
      el.scrollIntoView({ block: "center", inline: "nearest" });
      const s = el.getBoundingClientRect();
      const hit = document.elementFromPoint(s.left + s.width / 2, s.top + s.height / 2);
      if (!hit || !(hit === el || el.contains(hit))) problems.push(`${what}: covered by ${hit ? hit.tagName + "." + hit.className : "nothing"}`);
    });
  });
  window.scrollTo(0, 0);
  return problems;
}"""


def layout_problems(page) -> list[str]:
    """What a narrow or zoomed screen can break: the page scrolling sideways, widget content wider
    than its widget or sticking out of it, a control that cannot be scrolled into view and hit.

    Chart.js follows a resize on its next frames: first wait (bounded) for every chart to fit its box.
    """
    try:
        page.wait_for_function(
            """() => Array.from(document.querySelectorAll(".calc canvas")).every((c) =>
                c.getBoundingClientRect().width <= c.parentElement.getBoundingClientRect().width + 1)""",
            timeout=5_000)
    except PlaywrightTimeout:
        pass  # reported below, with the rest
    return page.evaluate(_LAYOUT)
