"""Print and no JavaScript: a chapter page prints as a handout (each widget's inputs, outputs and
charts, no buttons, none of the site's chrome), and without JavaScript every chart shows the
picture the build drew; that picture is legible in both palettes.

The PDF is Chromium's own (``page.pdf()``), read back with pypdf (pinned in the test extras).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from e2e_helpers import settle, wait_ready

pytestmark = pytest.mark.e2e

DOCS = Path(__file__).resolve().parents[2] / "docs"
CHAPTER = sorted(f"inference/{p.stem}/" for p in (DOCS / "inference").glob("*.md"))
WITH_WIDGETS = [p for p in CHAPTER if "```calculator" in (DOCS / (p.rstrip("/") + ".md")).read_text()]
#: Words of the screen's controls and the site's chrome that a handout must not hold.
CHROME = ["Pin to compare", "Copy link", "Reset", "More parameters (", "Embed this calculator", "Show the Python",
          "Chart data", "Table of contents", "Skip to content", "‹ Step"]

#: What the page shows, as print lays it out: each output's text, and each chart box's picture.
PRINTED = """() => Array.from(document.querySelectorAll(".calc")).map((calc) => ({
  id: calc.id,
  outputs: Array.from(calc.querySelectorAll("output[data-output]")).map((o) => o.textContent.trim()),
  inputs: Array.from(calc.querySelectorAll("[data-print-inputs] td")).filter((td) => td.checkVisibility())
    .map((td) => td.textContent.trim()),
  charts: Array.from(calc.querySelectorAll(".calc__canvas")).map((box) => {
    const shown = Array.from(box.children).filter((c) => {
      const r = c.getBoundingClientRect();
      return c.checkVisibility({ visibilityProperty: true }) && r.width > 20 && r.height > 20;
    });
    const figure = box.closest("figure");
    return { title: figure.querySelector("figcaption").textContent.trim(),
             shown: shown.map((c) => c.tagName.toLowerCase() + (c.tagName === "CANVAS" && !(
               box.hasAttribute("data-drawn") || (figure.hasAttribute("data-drawn") && !box.matches(".calc__canvas--timeline")))
               ? ":empty" : "")),
             svgText: Array.from(box.querySelectorAll("svg text")).map((t) => t.textContent).join(" "),
             inked: shown.filter((c) => c.tagName === "CANVAS").map((c) => {  // pixels a live chart drew
               const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
               let n = 0;
               for (let i = 3; i < data.length; i += 4) n += data[i] > 0;
               return n;
             }) };
  }),
}))"""


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("path", WITH_WIDGETS)
def test_a_printed_page_is_a_handout_with_every_widget_output(browser, base_url, path):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    page = ctx.new_page()
    try:
        page.goto(base_url + path)
        wait_ready(page)
        pdf = PdfReader(io.BytesIO(page.pdf(format="A4")))
        text = squeeze(" ".join(p.extract_text() for p in pdf.pages))
        page.emulate_media(media="print")
        widgets = page.evaluate(PRINTED)
    finally:
        ctx.close()
    assert widgets, path
    problems = []
    for w in widgets:
        for value in w["outputs"] + w["inputs"]:
            if squeeze(value) not in text:
                problems.append(f"{w['id']}: {value!r} is not in the PDF")
        assert len(w["inputs"]) >= 3, w  # the inputs print as a table
        for chart in w["charts"]:
            if not chart["shown"] or any(s.endswith(":empty") for s in chart["shown"]):
                problems.append(f"{w['id']}: the chart box of {chart['title']!r} prints empty: {chart['shown']}")
            if "svg" in chart["shown"] and squeeze(chart["svgText"])[:40] not in text:
                problems.append(f"{w['id']}: the picture of {chart['title']!r} is not in the PDF")
            if any(n < 500 for n in chart["inked"]):
                problems.append(f"{w['id']}: the live chart {chart['title']!r} is blank")
    for word in CHROME:
        if squeeze(word) in text:
            problems.append(f"the handout holds the screen's {word!r}")
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("path", WITH_WIDGETS)
def test_without_javascript_every_chart_area_shows_its_image(browser, base_url, path):
    ctx = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    try:
        page.goto(base_url + path)
        widgets = page.evaluate(PRINTED)
        cells = page.evaluate("() => document.querySelectorAll('.calc__frame-panels .calc__cell, "
                              ".calc__frame-panels .calc__token').length")
    finally:
        ctx.close()
    for w in widgets:
        for chart in w["charts"]:
            assert "svg" in chart["shown"] and chart["svgText"], (w["id"], chart)
    if "paged-attention" in path or "speculative" in path:
        assert cells > 0  # the simulation's step, drawn by the build


#: Every text of the build's SVG pictures not yet covered by a live chart, with its colour and the
#: widget's background, as the browser computes them.
SVG_COLOURS = """() => Array.from(document.querySelectorAll(".calc-svg text")).filter((t) => t.checkVisibility({ visibilityProperty: true }))
  .map((t) => [getComputedStyle(t).fill, getComputedStyle(t.closest(".calc")).backgroundColor])"""


def _rgba(css: str) -> tuple[float, float, float, float]:
    parts = [float(x) for x in re.findall(r"[\d.]+", css)]
    return (*parts[:3], parts[3] if len(parts) > 3 else 1.0)


def _luminance(rgb) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg: str, bg: str) -> float:
    *f, alpha = _rgba(fg)
    b = _rgba(bg)[:3]
    mixed = [alpha * x + (1 - alpha) * y for x, y in zip(f, b)]
    hi, lo = sorted((_luminance(mixed), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_build_pictures_are_legible_in_both_palettes(browser, base_url, scheme):
    """The SVG charts take the palette's colours: their labels and ticks stand out from the widget's
    background in the light and the dark palette alike (text contrast at least 4.5:1)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=scheme)
    page = ctx.new_page()
    try:
        low = []
        for path in WITH_WIDGETS:
            page.goto(base_url + path)
            wait_ready(page)
            texts = page.evaluate(SVG_COLOURS)  # the charts out of view still show the build's picture
            assert texts, path
            low += [(path, fg, bg, round(contrast(fg, bg), 2)) for fg, bg in texts if contrast(fg, bg) < 4.5]
    finally:
        ctx.close()
    assert low == []


#: What prints of one widget's charts, under print media: the picture each chart box shows (svg
#: or canvas), whether its figure is stale, and what a drawn canvas holds against the widget's
#: latest result from Python.
PRINTED_CHARTS = """(root) => { const widget = window.calculatorsRuntime.widgets.get(root.id);
  return Array.from(root.querySelectorAll('figure[data-chart]')).map((figure, i) => {
    const box = figure.querySelector('.calc__canvas');
    const shown = Array.from(box.children).filter((c) => c.checkVisibility({ visibilityProperty: true }))
      .map((c) => c.tagName.toLowerCase());
    const chart = window.Chart && window.Chart.getChart(box.querySelector('canvas'));
    const latest = widget.last.charts[i];
    return { shown, stale: figure.hasAttribute('data-stale'), kind: latest.kind,
             drawn: chart ? chart.data.datasets.map((d) => d.data) : null,
             latest: latest.series.map((s) => s.values || s.points) }; }); }"""


def test_a_pdf_after_a_change_prints_the_new_state(browser, base_url):
    """No print event (Chromium's page.pdf() fires none): a chart out of view whose result changed
    prints its new picture, never the build's beside the new numbers."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    page = ctx.new_page()
    root = '.calc[data-calc="kv-cache"]'
    try:
        page.goto(base_url + "inference/kv-cache/")
        built = page.eval_on_selector_all(f"{root} output[data-output]", "os => os.map((o) => o.textContent.trim())")
        page.goto(base_url + "inference/kv-cache/?kv-cache.context=131072&kv-cache.concurrency=4")
        wait_ready(page, "kv-cache")
        settle(page, "kv-cache")
        # The widget is out of view (the page opens at its top): its charts are drawn in the background.
        assert page.eval_on_selector(root, "(r) => r.getBoundingClientRect().top > window.innerHeight + 200")
        page.wait_for_function("(sel) => !document.querySelector(sel).querySelector('figure[data-stale]')", arg=root)
        outputs = page.eval_on_selector_all(f"{root} output[data-output]", "os => os.map((o) => o.textContent.trim())")
        inputs = page.eval_on_selector_all(f"{root} [data-print-inputs] td", "tds => tds.map((t) => t.textContent.trim())")
        text = squeeze(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(page.pdf(format="A4"))).pages))
        page.emulate_media(media="print")
        charts = page.locator(root).evaluate(PRINTED_CHARTS)
    finally:
        ctx.close()
    assert outputs != built  # the link changed the numbers
    missing = [v for v in outputs + inputs if squeeze(v) not in text]
    assert missing == [], missing
    assert any("131,072" in v for v in inputs)
    for chart in charts:
        assert not chart["stale"]
        if chart["kind"] == "grid":
            continue
        assert chart["shown"] == ["canvas"], chart  # the live picture prints, not the build's SVG
        assert chart["drawn"] == chart["latest"]  # … drawn for the latest result
