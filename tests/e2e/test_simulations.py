"""Simulations a reader can watch: paged-attention's block table and speculative-decoding's Monte
Carlo run step by step, by keyboard, still under reduced motion, each step told in words."""

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

    at(chart["frame"])  # the step the chart shows, as the build drew it
    start = chart["frame"]
    back = figure.locator('[data-frame-action="back"]')
    back.focus()
    page.keyboard.press("Enter")
    at(start - 1)
    page.keyboard.press(" ")
    at(start - 2)
    figure.locator('[data-frame-action="next"]').focus()
    page.keyboard.press("Enter")
    at(start - 1)
    scrub = figure.locator("[data-frame-scrub]")
    scrub.focus()
    page.keyboard.press("Home")
    at(0)
    assert back.is_disabled()
    page.keyboard.press("ArrowRight")
    at(1)
    page.keyboard.press("End")
    at(len(chart["frames"]) - 1)
    assert scrub.get_attribute("aria-valuetext") == chart["frames"][-1]["label"]
    # Play and pause by keyboard; while playing the summary is no live region.
    play = figure.locator('[data-frame-action="play"]')
    play.focus()
    page.keyboard.press("Enter")
    assert figure.evaluate(STATE)["playing"] and play.get_attribute("aria-pressed") == "true"
    assert figure.evaluate(STATE)["live"] == "off"
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
