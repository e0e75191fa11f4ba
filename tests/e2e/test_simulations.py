"""Simulations a reader can watch: paged-attention's block table and speculative-decoding's Monte
Carlo run step by step, by keyboard, still under reduced motion, each step told in words; each
opens at its first step, plays its whole run in 20-40 s at the default speed (on Playwright's
clock: no wall-clock timing), at the speed the reader picks, and fits a phone."""

from __future__ import annotations

import pytest

import course_calculators
from e2e_helpers import settle, wait_ready

pytestmark = pytest.mark.e2e

#: (calculator, its page, the index of the chart with recorded steps)
SIMULATIONS = [("paged-attention", "inference/paged-attention/", 0),
               ("speculative-decoding", "inference/speculative-decoding/", 1)]

STATE = """(figure) => ({ label: figure.querySelector('[data-frame-label]').textContent,
  summary: figure.querySelector('[data-chart-summary]').textContent,
  stats: Array.from(figure.querySelectorAll('[data-frame-stats] dd')).map((d) => d.textContent),
  scrub: figure.querySelector('[data-frame-scrub]').value,
  playing: figure.hasAttribute('data-playing'),
  live: figure.querySelector('[data-chart-summary]').getAttribute('aria-live') })"""


#: Records each element an IntersectionObserver has told its page is on screen: the player starts
#: (or, under reduced motion, declines to start) only once told.
SEEN_ON_SCREEN = """(() => {
  const Native = window.IntersectionObserver;
  window.__onScreen = new Set();
  window.IntersectionObserver = class extends Native {
    constructor(callback, options) {
      super((entries, observer) => {
        callback(entries, observer);
        entries.forEach((e) => { if (e.isIntersecting) window.__onScreen.add(e.target); });
      }, options);
    }
  };
})();"""


def frames(calc: str, index: int) -> dict:
    return course_calculators.get(calc).run({}).charts[index]


@pytest.fixture
def still_page(browser, base_url):
    ctx = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    yield page
    ctx.close()


@pytest.mark.parametrize("calc, path, index", SIMULATIONS)
def test_steps_by_keyboard_and_tells_each_step(still_page, base_url, calc, path, index):
    page = still_page
    page.goto(base_url + path)
    wait_ready(page, calc)
    settle(page, calc)
    chart = frames(calc, index)
    figure = page.locator(f'.calc[data-calc="{calc}"] figure[data-chart="{index}"]')
    figure.scroll_into_view_if_needed()

    def at(i: int) -> None:
        state = figure.evaluate(STATE)
        frame = chart["frames"][i]
        assert (state["label"], state["summary"], state["stats"], state["scrub"]) == (
            frame["label"], frame["summary"], [text for _, text in frame["stats"]], str(i))

    assert chart["frame"] == 0
    at(0)  # the run's first step: the one the build drew, where the player opens
    back = figure.locator('[data-frame-action="back"]')
    assert back.is_disabled()
    figure.locator('[data-frame-action="next"]').focus()
    page.keyboard.press("Enter")
    at(1)
    page.keyboard.press(" ")
    at(2)
    back.focus()
    page.keyboard.press("Enter")
    at(1)
    scrub = figure.locator("[data-frame-scrub]")
    scrub.focus()
    page.keyboard.press("Home")
    at(0)
    assert back.is_disabled()
    page.keyboard.press("ArrowRight")
    at(1)
    page.keyboard.press("End")
    at(len(chart["frames"]) - 1)
    page.keyboard.press("Home")
    end = figure.locator('[data-frame-action="end"]')
    end.focus()
    page.keyboard.press("Enter")  # jump to end
    at(len(chart["frames"]) - 1)
    assert end.is_disabled()
    back.focus()
    page.keyboard.press("Enter")  # one step back from the end
    at(len(chart["frames"]) - 2)
    assert scrub.get_attribute("aria-valuetext") == chart["frames"][-2]["label"]
    # Play and pause by keyboard; while playing the summary is no live region.
    scrub.focus()
    page.keyboard.press("Home")  # from the first step: the run does not end before the next look
    play = figure.locator('[data-frame-action="play"]')
    play.focus()
    page.keyboard.press("Enter")
    state = figure.evaluate(STATE)
    assert state["playing"] and state["live"] == "off" and play.get_attribute("aria-pressed") == "true"
    page.keyboard.press("Enter")
    state = figure.evaluate(STATE)
    assert not state["playing"] and state["live"] == "polite" and play.get_attribute("aria-pressed") == "false"
    assert page.errors == []


@pytest.mark.parametrize("calc, path, index", SIMULATIONS)
def test_stays_still_under_reduced_motion(still_page, base_url, calc, path, index):
    page = still_page
    page.add_init_script(SEEN_ON_SCREEN)
    page.clock.install()  # the page's timers, on a clock the test moves (it runs as usual meanwhile)
    page.goto(base_url + path)
    wait_ready(page, calc)
    chart = frames(calc, index)
    figure = page.locator(f'.calc[data-calc="{calc}"] figure[data-chart="{index}"]')
    figure.scroll_into_view_if_needed()
    page.wait_for_function("(f) => window.__onScreen.has(f)", arg=figure.element_handle())  # the player knows
    page.clock.run_for(2500)  # every timer due in several steps' time has fired: nothing may have moved
    state = figure.evaluate(STATE)
    assert not state["playing"] and state["label"] == chart["frames"][chart["frame"]]["label"]
    durations = figure.evaluate("""(f) => Array.from(f.querySelectorAll('.calc__cell, .calc__token'))
        .map((c) => getComputedStyle(c).transitionDuration)""")
    assert durations and set(durations) == {"0s"}
    assert page.errors == []


def test_plays_once_when_it_comes_into_view(browser, base_url):
    ctx = browser.new_context(reduced_motion="no-preference", viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    try:
        page.goto(base_url + "inference/paged-attention/")
        wait_ready(page, "paged-attention")
        figure = page.locator('.calc[data-calc="paged-attention"] figure[data-chart="0"]')
        assert not figure.evaluate(STATE)["playing"]
        figure.scroll_into_view_if_needed()
        page.wait_for_function("(f) => f.hasAttribute('data-playing')", arg=figure.element_handle())
        figure.locator('[data-frame-action="play"]').click()  # pause
        assert not figure.evaluate(STATE)["playing"]
    finally:
        ctx.close()


#: The player's step and whether it plays.
POSITION = """(figure) => ({ index: Number(figure.querySelector('[data-frame-scrub]').value),
  playing: figure.hasAttribute('data-playing') })"""


def _paused_clock(page) -> None:
    """Stop the page's clock where it stands: from now on its timers fire only as the test moves it."""
    page.clock.pause_at(page.evaluate("() => Date.now()") + 1000)


@pytest.mark.parametrize("calc, path, index", SIMULATIONS)
def test_opens_at_its_first_step_before_and_after_python(browser, base_url, calc, path, index):
    chart = frames(calc, index)
    first = chart["frames"][0]
    ctx = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 800})
    try:
        page = ctx.new_page()
        page.goto(base_url + path)
        figure = page.locator(f'.calc[data-calc="{calc}"] figure[data-chart="{index}"]')
        built = figure.evaluate(STATE)  # the build's HTML: the numbers before Python
    finally:
        ctx.close()
    ctx = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 800})
    try:
        page = ctx.new_page()
        page.goto(base_url + path)
        wait_ready(page, calc)
        settle(page, calc)
        figure = page.locator(f'.calc[data-calc="{calc}"] figure[data-chart="{index}"]')
        live = figure.evaluate(STATE)
    finally:
        ctx.close()
    expected = (first["label"], first["summary"], [text for _, text in first["stats"]], "0")
    assert (built["label"], built["summary"], built["stats"], built["scrub"]) == expected
    assert (live["label"], live["summary"], live["stats"], live["scrub"]) == expected


@pytest.mark.parametrize("calc, path, index", SIMULATIONS)
def test_the_whole_run_plays_in_20_to_40_seconds_at_the_default_speed(browser, base_url, calc, path, index):
    chart = frames(calc, index)
    last = len(chart["frames"]) - 1
    ctx = browser.new_context(reduced_motion="no-preference", viewport={"width": 1280, "height": 800})
    try:
        page = ctx.new_page()
        page.clock.install()
        page.goto(base_url + path)
        wait_ready(page, calc)
        settle(page, calc)
        figure = page.locator(f'.calc[data-calc="{calc}"] figure[data-chart="{index}"]')
        assert figure.evaluate(POSITION) == {"index": 0, "playing": False}
        assert page.locator(f'.calc[data-calc="{calc}"] [data-frame-speed]').first.input_value() == "1"
        _paused_clock(page)
        figure.scroll_into_view_if_needed()  # on screen: it plays once, from its first step
        page.wait_for_function("(f) => f.hasAttribute('data-playing')", arg=figure.element_handle())
        page.clock.run_for(20_000)
        at_20 = figure.evaluate(POSITION)
        page.clock.run_for(20_000)
        at_40 = figure.evaluate(POSITION)
    finally:
        ctx.close()
    assert at_20["playing"] and 0 < at_20["index"] < last  # still playing after 20 s
    assert at_40 == {"index": last, "playing": False}  # the whole run within 40 s, stopped on its last step
    assert 20_000 <= last * chart["frame_ms"] <= 40_000


@pytest.mark.parametrize("calc, path, index", SIMULATIONS)
def test_the_speed_control_changes_the_rate(still_page, base_url, calc, path, index):
    page = still_page
    chart = frames(calc, index)
    step = chart["frame_ms"]
    page.clock.install()
    page.goto(base_url + path)
    wait_ready(page, calc)
    settle(page, calc)
    figure = page.locator(f'.calc[data-calc="{calc}"] figure[data-chart="{index}"]')
    figure.scroll_into_view_if_needed()
    speed = figure.locator("[data-frame-speed]")
    _paused_clock(page)
    figure.locator('[data-frame-action="play"]').click()
    page.clock.run_for(step * 3)
    assert figure.evaluate(POSITION) == {"index": 3, "playing": True}  # 1×: one step per frame_ms
    speed.select_option("2")
    page.clock.run_for(step * 3)
    assert figure.evaluate(POSITION)["index"] == 3 + 6  # 2×: two steps per frame_ms
    speed.select_option("4")
    page.clock.run_for(step * 2)
    assert figure.evaluate(POSITION)["index"] == 9 + 8
    speed.select_option("0.5")
    page.clock.run_for(step * 4)
    assert figure.evaluate(POSITION)["index"] == 17 + 2  # ½×: one step per two frame_ms
    figure.locator('[data-frame-action="end"]').click()
    assert figure.evaluate(POSITION) == {"index": len(chart["frames"]) - 1, "playing": False}
    assert page.errors == []


#: Each row of the block grid: its cells, and those inside the grid's visible box; the cue.
GRID = """(figure) => { const grid = figure.querySelector('.calc__grid'); const box = grid.getBoundingClientRect();
  const cue = figure.querySelector('.calc__grid-cue');
  return { rows: Array.from(grid.querySelectorAll('.calc__grid-row')).map((row) => {
      const cells = Array.from(row.querySelectorAll('.calc__grid-cell'));
      return [cells.length, cells.filter((c) => { const r = c.getBoundingClientRect();
        return r.left >= box.left - 1 && r.right <= box.right + 1 && r.width >= 8; }).length]; }),
    overflow: grid.hasAttribute('data-overflow'), cue: Boolean(cue && cue.checkVisibility()),
    pageWidth: document.documentElement.scrollWidth, viewport: window.innerWidth }; }"""


@pytest.mark.parametrize("width", [390, 320])
def test_the_block_grid_fits_a_phone_or_says_it_scrolls(browser, base_url, width):
    ctx = browser.new_context(reduced_motion="reduce", viewport={"width": width, "height": 844})
    try:
        page = ctx.new_page()
        page.goto(base_url + "inference/paged-attention/")
        wait_ready(page, "paged-attention")
        settle(page, "paged-attention")
        figure = page.locator('.calc[data-calc="paged-attention"] figure[data-chart="0"]')
        figure.scroll_into_view_if_needed()
        page.wait_for_function("(f) => f.querySelector('.calc__grid')", arg=figure.element_handle())
        grid = figure.evaluate(GRID)
    finally:
        ctx.close()
    assert grid["pageWidth"] <= grid["viewport"]  # the page itself never scrolls sideways
    assert grid["rows"] and all(total == 16 for total, _ in grid["rows"])
    if width == 390:  # a phone: every block of every row in view, no cue needed
        assert all(seen == 16 for _, seen in grid["rows"]) and not grid["overflow"] and not grid["cue"]
    else:  # narrower: whatever does not fit scrolls, and the grid says so
        assert all(seen == 16 for _, seen in grid["rows"]) or (grid["overflow"] and grid["cue"])
