"""The build-time charts, as a reader without JavaScript sees them, at a laptop's and a phone's
viewport: each fills its box (no blank space below, the live chart's size), and every text of it is
at least 11 CSS px tall as drawn, inside the picture. On this book and on an author's site
(``tests/example_site/``)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e

VIEWPORTS = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
BOOK_PAGES = ("inference/kv-cache/", "inference/two-phases/", "inference/paged-attention/",
              "inference/speculative-decoding/")
#: Each visible chart box: its size, its picture's, and its texts' drawn heights and font sizes.
MEASURE = """() => [...document.querySelectorAll('.calc__canvas')].filter((b) => b.getBoundingClientRect().width > 0)
  .map((box) => {
    const svg = box.querySelector('svg.calc-svg');
    const b = box.getBoundingClientRect(), s = svg.getBoundingClientRect();
    // A text a narrow widget hides (an axis's minor labels, calc.css) draws nothing.
    const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() && t.getBoundingClientRect().width > 0).map((t) => {
      const r = t.getBoundingClientRect();
      // The y axis's title is turned a quarter: its line's height is then its box's width.
      const height = t.classList.contains('calc-svg__label--y') ? r.width : r.height;
      return { text: t.textContent, font: parseFloat(getComputedStyle(t).fontSize), height,
               outside: r.left < s.left - 1 || r.right > s.right + 1 || r.top < s.top - 1 || r.bottom > s.bottom + 1 };
    });
    return { box: [b.width, b.height], svg: [s.width, s.height], texts,
             chart: box.closest('figure').querySelector('figcaption').textContent.trim() };
  })"""

SMALLEST: list[float] = []


def check(page, url: str) -> list[str]:
    page.goto(url)
    problems = []
    boxes = page.evaluate(MEASURE)
    assert boxes, f"no chart on {url}"
    for box in boxes:
        where = f"{url} {box['chart']!r}"
        if abs(box["svg"][0] - box["box"][0]) > 1 or abs(box["svg"][1] - box["box"][1]) > 1:
            problems.append(f"{where}: picture {box['svg']} in a box of {box['box']}")
        for t in box["texts"]:
            SMALLEST.append(t["font"])
            if t["font"] < 11 or t["height"] < 11:
                problems.append(f"{where}: {t['text']!r} is {t['font']} px ({t['height']:.1f} px drawn)")
            if t["outside"]:
                problems.append(f"{where}: {t['text']!r} is drawn outside the picture")
    return problems


@pytest.fixture(scope="module")
def example_url(example_site):
    return example_site[1]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_books_charts_are_legible_without_javascript(browser, base_url, viewport):
    context = browser.new_context(viewport=VIEWPORTS[viewport], java_script_enabled=False)
    try:
        page = context.new_page()
        problems = [p for path in BOOK_PAGES for p in check(page, base_url + path)]
        assert not problems, "\n".join(problems)
        print(f"\n{viewport}: smallest chart text {min(SMALLEST)} px")
    finally:
        context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_an_authors_charts_are_legible_without_javascript(browser, example_url, viewport):
    context = browser.new_context(viewport=VIEWPORTS[viewport], java_script_enabled=False)
    try:
        page = context.new_page()
        problems = check(page, example_url + "loans/")
        assert not problems, "\n".join(problems)
    finally:
        context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_picture_has_the_live_charts_size(browser, example_url, viewport):
    """Once Chart.js has drawn, its canvas covers exactly the build's picture: the same box."""
    context = browser.new_context(viewport=VIEWPORTS[viewport])
    try:
        page = context.new_page()
        page.goto(example_url + "loans/")
        figure = page.locator("#calc-loan figure[data-chart]").first
        figure.scroll_into_view_if_needed()
        page.wait_for_function("() => document.querySelector('#calc-loan figure[data-chart]').hasAttribute('data-drawn')",
                               timeout=120_000)
        canvas = figure.locator(".calc__canvas > canvas").bounding_box()
        picture = figure.locator(".calc__canvas > svg.calc-svg").bounding_box()
        assert all(abs(canvas[k] - picture[k]) <= 1 for k in ("x", "y", "width", "height")), (canvas, picture)
    finally:
        context.close()
