"""Accessibility in Chromium: axe-core on every page in both palettes, a widget used by keyboard
alone, throttled screen-reader announcements, text alternatives of charts, and 200 % zoom.

axe-core comes from ``node_modules`` (pinned in package.json) and is injected by the test: it is no
part of the built site. The 375 px check lives in test_catalogue.py and shares ``layout_problems``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import course_calculators
from e2e_helpers import layout_problems, settle, wait_ready

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
BLOCKING = ("serious", "critical")
#: Selectors axe must skip, each with the reason: nothing yet (Material's own findings are fixed by
#: the overrides in theme/partials/ and theme/assets/chapter.css).
AXE_EXCLUDE: list[str] = []
#: 200 % zoom of a 1280 px window: a 640 CSS px viewport at two device pixels per CSS pixel.
DESKTOP = {"width": 1280, "height": 800}
ZOOMED = {"width": 640, "height": 800}

AXE_RUN = """async ([tags, exclude]) => {
  const r = await axe.run({ exclude: exclude.map((s) => [s]) },
                          { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
  return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => n.target.join(" ") + " — " + (n.failureSummary || "").replace(/\\s+/g, " ")) }));
}"""

CHARTS = """() => Array.from(document.querySelectorAll("figure[data-chart]")).map((f) => {
  const img = f.querySelector("canvas[role=img], .calc__grid[role=img]");
  const summary = f.querySelector("[data-chart-summary]");
  return { widget: f.closest(".calc").id, kind: img ? img.tagName.toLowerCase() : null,
           name: img ? (img.getAttribute("aria-label") || "").trim() : "",
           summary: summary ? summary.textContent.trim() : "",
           rows: f.querySelectorAll("[data-chart-table] tbody tr").length };
})"""


def site_pages(site_dir: Path) -> list[str]:
    """Every page of the sitemap (paths relative to the site root), then every embed page."""
    locs = re.findall(r"<loc>([^<]+)</loc>", (site_dir / "sitemap.xml").read_text())
    base = re.match(r"https?://[^/]+/", locs[0]).group(0)
    pages = [loc[len(base):] for loc in locs]
    pages += sorted(f"embed/{p.parent.name}/" for p in site_dir.glob("embed/*/index.html"))
    return pages


def inject_axe(page) -> None:
    """axe-core into the page, through DevTools: the site's Content-Security-Policy (rightly)
    refuses the inline script ``add_script_tag`` would insert."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")


def without_transitions(page) -> None:
    """Colours at rest: no palette-switch transition half-way (a constructed sheet, which CSP allows)."""
    page.evaluate("""() => { const s = new CSSStyleSheet();
        s.replaceSync("*, *::before, *::after { transition: none !important; }");
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, s]; }""")


def axe_blocking(page) -> list[str]:
    inject_axe(page)
    found = page.evaluate(AXE_RUN, [AXE_TAGS, AXE_EXCLUDE])
    return [f"{v['impact']} {v['id']} ({v['help']}): " + "; ".join(v["nodes"][:5])
            for v in found if v["impact"] in BLOCKING]


def scheme(page) -> str:
    return page.evaluate("document.body.getAttribute('data-md-color-scheme')")


def switch_palette(page, path: str) -> str:
    """The other palette: the header toggle on a chapter page; on an embed page the scheme its
    ``theme=`` parameter sets. Returns the new scheme once charts have been redrawn."""
    before = scheme(page)
    if path.startswith("embed/"):
        page.evaluate("s => document.body.setAttribute('data-md-color-scheme', s)",
                      "default" if before == "slate" else "slate")
    else:
        page.click("form[data-md-component=palette] label:not([hidden])")
    page.wait_for_function("s => document.body.getAttribute('data-md-color-scheme') !== s", arg=before)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return scheme(page)  # charts redraw on the attribute change (runtime.js); two frames paint them


def test_axe_both_palettes_charts_and_zoom_on_every_page(browser, base_url, site_dir, capsys):
    """axe finds nothing serious or critical on any page in either palette; every chart has a
    text alternative; at 200 % zoom nothing scrolls sideways, sticks out, or hides a control."""
    pages = site_pages(site_dir)
    assert len(pages) >= 9 and "" in pages
    ctx = browser.new_context(viewport=DESKTOP, device_scale_factor=2, color_scheme="light")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    failures: list[str] = []
    charts: list[dict] = []
    audits = 0
    source_audited = False
    try:
        for path in pages:
            page.set_viewport_size(DESKTOP)
            page.goto(base_url + path + ("?theme=light" if path.startswith("embed/") else ""))
            if page.locator(".calc").count():
                wait_ready(page)
            without_transitions(page)
            # Audit what <details> hide too: chart tables, embed snippets, and the highlighted
            # Python source once per run (the same stylesheet colours every copy; axe is slow on it).
            page.evaluate("(all) => document.querySelectorAll('details').forEach((d) => {"
                          " d.open = all || !d.classList.contains('calc__source'); })", not source_audited)
            source_audited = source_audited or page.locator("details.calc__source[open]").count() > 0
            failures += [f"/{path} [{scheme(page)}] {v}" for v in axe_blocking(page)]
            switch_palette(page, path)
            failures += [f"/{path} [{scheme(page)}] {v}" for v in axe_blocking(page)]
            audits += 2
            found = page.evaluate(CHARTS)
            charts += found
            for c in found:
                if not (c["kind"] and c["name"] and c["name"] == c["summary"] and c["rows"] > 0):
                    failures.append(f"/{path} chart in {c['widget']} lacks a text alternative: {c}")
            page.set_viewport_size(ZOOMED)
            failures += [f"/{path} at 200 % zoom: {p}" for p in layout_problems(page)]
        rules = page.evaluate("tags => axe.getRules(tags).length", AXE_TAGS)
    finally:
        ctx.close()
    with capsys.disabled():
        print(f"\naxe-core: {len(pages)} pages x 2 palettes = {audits} audits, {rules} rules "
              f"({', '.join(AXE_TAGS)}); {len(charts)} charts checked; 200 % zoom on {len(pages)} pages")
    assert {c["kind"] for c in charts} >= {"canvas", "div"}, "expected line/bar charts and the block grid"
    assert failures == [], "\n".join(failures)
    assert errors == []


# -- one widget by keyboard alone -----------------------------------------------------------

CALC = "kv-cache"
ROOT_SEL = f'.calc[data-calc="{CALC}"]'

#: Marks the widget's tab stops in DOM order (focusable, rendered, not disabled) and describes
#: each, with its accessible name as axe computes it.
TAB_STOPS = """(root) => {
  const sel = "a[href], button, input, select, textarea, summary, [tabindex]";
  axe.setup(document);
  const stops = Array.from(root.querySelectorAll(sel)).filter((el) =>
      !el.disabled && el.tabIndex >= 0 && el.checkVisibility()).map((el, i) => {
    el.dataset.a11yStop = String(i);
    return { stop: el.dataset.a11yStop, type: el.type || el.tagName.toLowerCase(),
             name: axe.commons.text.accessibleText(el).trim(), html: el.outerHTML.slice(0, 120) };
  });
  axe.teardown();
  return stops;
}"""

#: The focused element's stop, if inside the widget, and whether its focus ring shows.
FOCUSED = """(root) => {
  const el = document.activeElement;
  if (!el || !root.contains(el)) return null;
  const style = getComputedStyle(el);
  return { stop: el.dataset.a11yStop || null, html: el.outerHTML.slice(0, 120),
           outline: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0 };
}"""


def form_inputs(page) -> dict[str, str]:
    return page.eval_on_selector(
        ROOT_SEL, "r => Object.fromEntries(Array.from(r.querySelectorAll('input[type=number][name], select[name], textarea[name]'))"
                  ".map((e) => [e.name, e.value]))")


def outputs(page) -> dict[str, str]:
    return page.eval_on_selector(
        ROOT_SEL, "r => Object.fromEntries(Array.from(r.querySelectorAll('output[data-output]'))"
                  ".map((e) => [e.dataset.output, e.dataset.value]))")


def assert_outputs_match_python(page) -> None:
    settle(page, CALC)
    expected = course_calculators.get(CALC).run(form_inputs(page))
    assert outputs(page) == {name: str(expected.raw[name]) for name in outputs(page)}


def tab_walk(page) -> list[dict]:
    """Focus the widget's first control, step out backwards, then Tab until focus leaves it."""
    page.focus(f"{ROOT_SEL} [data-a11y-stop='0']")
    page.keyboard.press("Shift+Tab")
    assert page.eval_on_selector(ROOT_SEL, FOCUSED) is None
    seen = []
    for _ in range(200):
        page.keyboard.press("Tab")
        now = page.eval_on_selector(ROOT_SEL, FOCUSED)
        if now is None:
            break
        seen.append(now)
    return seen


def test_widget_works_by_keyboard(page, base_url):
    page.goto(base_url + "inference/kv-cache/")
    wait_ready(page, CALC)
    inject_axe(page)
    # "More parameters" opens with Enter, and the next Tab lands on its first control.
    page.locator(f"{ROOT_SEL} .calc__more > summary").focus()
    page.keyboard.press("Enter")
    assert page.eval_on_selector(f"{ROOT_SEL} .calc__more", "d => d.open")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('.calc__more') !== null")
    # Every control is a Tab stop, in order, named, with a visible focus ring.
    stops = page.eval_on_selector(ROOT_SEL, TAB_STOPS)
    assert {s["type"] for s in stops} >= {"range", "number", "select-one", "button", "summary"}
    for s in stops:
        assert s["name"], f"no accessible name: {s['html']}"
    seen = tab_walk(page)
    assert [s["stop"] for s in seen] == [s["stop"] for s in stops]
    for s in seen:
        assert s["outline"], f"no visible focus: {s['html']}"
    # Presets work with Enter and with Space.
    for preset, key in (("llama3-8b-128k", "Enter"), ("gpt3-mha", " ")):
        button = page.locator(f'{ROOT_SEL} button[data-preset="{preset}"]')
        button.focus()
        page.keyboard.press(key)
        assert button.get_attribute("aria-pressed") == "true"
        assert_outputs_match_python(page)
    # A slider moves with the arrow keys, tells its value, and Python recomputes. (GPUs, not layers:
    # a published model's shape is filled from its config, and editing it makes the model custom.)
    slider = page.locator(f'{ROOT_SEL} input[type=range][data-for="gpus"]')
    before = form_inputs(page)["gpus"]
    slider.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    after = form_inputs(page)["gpus"]
    assert int(after) == int(before) + 2
    assert slider.get_attribute("aria-valuetext") == after
    assert_outputs_match_python(page)
    # Reset by keyboard brings back the values the page started with.
    page.locator(f'{ROOT_SEL} [data-action="reset"]').focus()
    page.keyboard.press("Enter")
    defaults = page.eval_on_selector(ROOT_SEL, "r => JSON.parse(r.dataset.initial)")
    assert form_inputs(page) == {k: str(v) for k, v in defaults.items()}
    assert_outputs_match_python(page)
    assert page.watch.errors == []


# -- announcements ---------------------------------------------------------------------------

def test_results_announced_once_input_settles(page, base_url):
    """Fifty arrow-key steps on a slider yield at most two announcements through the widget's
    polite live region, the last one naming the final main outputs as Python formats them."""
    page.goto(base_url + "inference/kv-cache/")
    wait_ready(page, CALC)
    region = f"{ROOT_SEL} [data-announce]"
    assert page.get_attribute(region, "aria-live") == "polite"
    assert page.get_attribute(f"{ROOT_SEL} [data-message]", "role") == "status"
    page.eval_on_selector(region, """(el) => { window.__announced = [];
        new MutationObserver(() => window.__announced.push(el.textContent))
          .observe(el, { childList: true, characterData: true, subtree: true }); }""")
    page.focus(f'{ROOT_SEL} input[type=range][data-for="gpus"]')  # not a filled shape field (see above)
    for _ in range(50):
        page.keyboard.press("ArrowRight")
    settle(page, CALC)
    page.wait_for_function(
        """(id) => { const w = window.calculatorsRuntime.widgets.get(id);
            return window.__announced.length > 0 && !w.announcer.pending && w.settled; }""",
        arg=page.eval_on_selector(ROOT_SEL, "e => e.id"), timeout=30_000,
    )
    announced = page.evaluate("window.__announced")
    inputs = form_inputs(page)
    assert inputs["gpus"] == str(int(course_calculators.get(CALC).run({}).inputs["gpus"]) + 50)
    spec = course_calculators.get(CALC)
    result = spec.run(inputs)
    # The answer sentence, then each answer output (page/announcer.js).
    summary = result.answer + " " + "; ".join(f"{o.label}: {result.text[o.name]}" for o in spec.answer_outputs)
    assert 1 <= len(announced) <= 2, announced
    assert announced[-1] == summary
    assert page.watch.errors == []
