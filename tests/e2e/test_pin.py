"""Pin and compare in Chromium: for every calculator a reader pins the current result, changes an
input, and sees the pinned and live values side by side with the ratio Python computed; the pin
travels in the address and a link with a pin reopens the comparison."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

import course_calculators
from course_calculators import compare
from e2e_helpers import set_field, settle, wait_ready

pytestmark = pytest.mark.e2e

CALCS = sorted(course_calculators.CALCULATORS)


def form_inputs(page, root: str) -> dict[str, str]:
    return page.eval_on_selector(
        root, "r => Object.fromEntries(Array.from(r.querySelectorAll('input[type=number][name], select[name], "
              "textarea[name]')).map((e) => [e.name, e.value]))")


def shown(page, root: str) -> dict[str, tuple[str, str, bool]]:
    """Each output's (pinned text, ratio text, whether the pinned line shows)."""
    return page.eval_on_selector(root, """(r) => Object.fromEntries(Array.from(r.querySelectorAll('[data-pinned-for]'))
        .map((row) => [row.dataset.pinnedFor, [row.querySelector('[data-pinned]').textContent,
                       row.querySelector('[data-ratio]').textContent, !row.hidden]]))""")


def expected(calc_id: str, live_inputs: dict[str, str], pin: str) -> dict[str, tuple[str, str, bool]]:
    calc = course_calculators.get(calc_id)
    got = compare.compare(calc, calc.run(live_inputs), pin)
    return {name: [o["text"], "· now " + o["ratio_text"], True] for name, o in got["outputs"].items()}


@pytest.mark.parametrize("calc", CALCS)
def test_pin_then_change_an_input(page, base_url, calc):
    page.goto(base_url + f"embed/{calc}/")
    wait_ready(page, calc)
    root = f'.calc[data-calc="{calc}"]'
    assert all(not visible for _, _, visible in shown(page, root).values())
    button = page.locator(f"{root} [data-action=pin]")
    assert button.get_attribute("aria-pressed") == "false"
    button.click()
    settle(page, calc)
    assert button.get_attribute("aria-pressed") == "true"
    page.wait_for_function("() => new URLSearchParams(location.search).has('pin')")
    pin = parse_qs(urlparse(page.url).query)["pin"][0]
    # Move the first visible slider two steps: the live values change, the pinned ones stay.
    slider = page.locator(f"{root} .calc__form > .calc__params input[type=range]").first
    slider.focus()
    page.keyboard.press("ArrowRight" if slider.evaluate("s => Number(s.value) < Number(s.max)") else "ArrowLeft")
    settle(page, calc)
    inputs = form_inputs(page, root)
    assert shown(page, root) == expected(calc, inputs, pin)
    label = page.text_content(f"{root} [data-pin-label]")
    assert label.startswith("Pinned") and "Now:" in label
    # Unpinned: the pinned lines and the address key go.
    button.click()
    assert all(not visible for _, _, visible in shown(page, root).values())
    page.wait_for_function("() => !new URLSearchParams(location.search).has('pin')")
    assert page.watch.errors == []


def test_a_link_with_a_pin_reopens_the_comparison(page, base_url):
    page.goto(base_url + "inference/kv-cache/?kv-cache.context=131072&kv-cache.pin=context%3D8192")
    wait_ready(page, "kv-cache")
    settle(page, "kv-cache")
    root = '.calc[data-calc="kv-cache"]'
    rows = shown(page, root)
    assert rows["kv_bytes_total"][1:] == ["· now 16×", True]
    assert rows == expected("kv-cache", form_inputs(page, root), "context=8192")
    assert page.get_attribute(f"{root} [data-action=pin]", "aria-pressed") == "true"
    # A pin a link made up never breaks the widget: Python says what it ignored.
    page.goto(base_url + "inference/kv-cache/?kv-cache.pin=bogus%3D1%26context%3Dlots")
    wait_ready(page, "kv-cache")
    message = page.text_content(f"{root} [data-message]")
    assert "Pinned: Unknown parameter 'bogus' ignored." in message
    assert page.watch.errors == []


#: Each drawn chart's datasets as Chart.js holds them: label, values, dash.
DATASETS = """(root) => Array.from(root.querySelectorAll('figure[data-chart]')).map((figure) => {
  const canvas = figure.querySelector('.calc__canvas > canvas');
  const chart = canvas && window.Chart && window.Chart.getChart(canvas);
  return chart ? chart.data.datasets.map((d) => ({ label: d.label, dashed: (d.borderDash || []).length > 0,
    values: d.data.map((v) => (v && typeof v === 'object' ? [v.x, v.y] : v)) })) : null; })"""


def test_the_pinned_curve_is_drawn_beside_the_live_one(page, base_url):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(base_url + "embed/kv-cache/")
    wait_ready(page, "kv-cache")
    root = '.calc[data-calc="kv-cache"]'
    page.click(f"{root} [data-action=pin]")
    settle(page, "kv-cache")
    page.wait_for_function("() => new URLSearchParams(location.search).has('pin')")
    pin = parse_qs(urlparse(page.url).query)["pin"][0]
    set_field(page, "kv-cache", "concurrency", "8")  # more sequences: a higher memory curve
    settle(page, "kv-cache")
    page.locator(f"{root} figure[data-chart='0']").scroll_into_view_if_needed()
    page.wait_for_function("(r) => { const c = r.querySelector('figure[data-chart=\"0\"] .calc__canvas > canvas'); "
                           "return window.Chart && window.Chart.getChart(c); }", arg=page.locator(root).element_handle())
    drawn = page.locator(root).evaluate(DATASETS)[0]
    want = course_calculators.run("kv-cache", {**form_inputs(page, root), "pin": pin})["charts"][0]["series"]
    assert [d["label"] for d in drawn] == [s["name"] for s in want]
    assert [d["values"] for d in drawn] == [s["values"] for s in want]
    pinned = [d for d in drawn if d["label"].endswith(compare.PINNED_SUFFIX)]
    live = [d for d in drawn if not d["label"].endswith(compare.PINNED_SUFFIX)]
    assert pinned and live and all(d["dashed"] for d in pinned)  # a second dataset per curve, dashed
    assert pinned[0]["values"] != live[0]["values"]  # the pinned setting's curve, not the live one's
    page.click(f"{root} [data-action=pin]")  # unpinned: the live curves alone
    settle(page, "kv-cache")
    drawn = page.locator(root).evaluate(DATASETS)[0]
    assert not any(d["label"].endswith(compare.PINNED_SUFFIX) for d in drawn)
    assert page.watch.errors == []
