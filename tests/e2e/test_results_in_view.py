"""Results in view: whichever control a reader uses, the calculator's main results are on screen.

For every calculator, on each chapter page that holds it and on its embed page, at a laptop's
1280 × 800 and a phone's 390 × 844: every control shown by default (the fence's ``show:`` line)
and every preset is scrolled into view and used as a reader would (arrow keys on a slider, a
choice in a select, a click on a preset); then the answer sentence and each answer output's box
(``Calculator.answer_outputs``) must lie inside the viewport, uncovered, and show what CPython
computes for the form's inputs. The control in use must
not be covered either (by the sticky results or the site's header).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

import course_calculators
from course_calculators.plugin import fence
from e2e_helpers import settle, wait_ready

pytestmark = pytest.mark.e2e

DOCS = Path(__file__).resolve().parents[2] / "docs"
SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def chapter_pages() -> list[tuple[str, str]]:
    """(calculator id, page path) for every calculator fence of the chapter, one per page."""
    found = []
    for md in sorted(DOCS.rglob("*.md")):
        rel = md.relative_to(DOCS).with_suffix("").as_posix()
        path = "" if rel == "index" else rel + "/"
        found += [(calc, path) for calc in fence.calculators_used(md.read_text(encoding="utf-8"))]
    return found


PAGES = chapter_pages() + [(calc, f"embed/{calc}/") for calc in sorted(course_calculators.CALCULATORS)]

#: The controls a reader sees without opening "More parameters", and the presets, in page order:
#: for each, what it is and how to find it.
CONTROLS = """(root) => {
  const out = [];
  root.querySelectorAll(".calc__form > .calc__params .calc__param, button[data-preset]").forEach((el) => {
    if (el.matches("button")) { out.push({ kind: "preset", key: el.dataset.preset }); return; }
    const name = el.dataset.param;
    const slider = el.querySelector("input[type=range]");
    const select = el.querySelector("select");
    out.push({ kind: slider ? "slider" : select ? "select" : "field", key: name });
  });
  return out;
}"""

#: Where a box is, and whether the point at its centre shows it (nothing sticky covers it).
SEEN = """(el) => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right,
           width: innerWidth, height: innerHeight, shown: Boolean(hit && (hit === el || el.contains(hit))),
           hit: hit ? hit.tagName + "." + hit.className : "nothing" };
}"""

#: What the reader sees once a control has been used, in one look (one round trip to the page):
#: the form's inputs, the answer sentence's box and text, each answer output's box and text, and
#: the control's box.
AFTER_USE = """([root, names, control]) => {
  const seen = """ + SEEN + """;
  const r = document.querySelector(root);
  const inputs = Object.fromEntries(Array.from(r.querySelectorAll(
    "input[type=number][name], select[name], textarea[name]")).map((e) => [e.name, e.value]));
  const sentence = r.querySelector(".calc__results [data-answer]");
  const outputs = Object.fromEntries(names.map((name) => {
    const out = r.querySelector(`output[data-output='${name}']`);
    const box = r.querySelector(`.calc__results .calc__out:has(output[data-output='${name}'])`);
    return [name, { box: box ? seen(box) : null, text: out ? out.textContent.trim() : null }];
  }));
  return { inputs, outputs, control: seen(document.querySelector(control)),
           sentence: sentence ? { box: seen(sentence), text: sentence.textContent.trim() } : null };
}"""


def in_view(box: dict) -> bool:
    """Inside the viewport, to the pixel (a box scrolled to the edge may end a fraction beyond it)."""
    return (box["top"] >= -1 and box["left"] >= -1 and box["bottom"] <= box["height"] + 1
            and box["right"] <= box["width"] + 1)


def use(page, root: str, control: dict) -> None:
    """Change one control as a reader would."""
    kind, key = control["kind"], control["key"]
    if kind == "preset":
        page.click(f'{root} button[data-preset="{key}"]')
        return
    if kind == "select":
        select = page.locator(f'{root} select[name="{key}"]')
        values = select.evaluate("s => Array.from(s.options).map((o) => o.value)")
        current = select.input_value()
        select.select_option(values[(values.index(current) + 1) % len(values)])
        return
    if kind == "slider":
        slider = page.locator(f'{root} input[type=range][data-for="{key}"]')
        at_max = slider.evaluate("s => Number(s.value) >= Number(s.max)")
        slider.focus()
        page.keyboard.press("ArrowLeft" if at_max else "ArrowRight")
        return
    field = page.locator(f'{root} [name="{key}"]')
    field.fill(str(float(field.input_value() or 0) + 1))
    field.press("Enter")


def control_selector(control: dict) -> str:
    """The control's element, inside its widget."""
    kind, key = control["kind"], control["key"]
    if kind == "preset":
        return f'button[data-preset="{key}"]'
    if kind == "slider":
        return f'input[type=range][data-for="{key}"]'
    return f'[name="{key}"]:not([type=range])'


def control_box(page, root: str, control: dict):
    return page.locator(f"{root} {control_selector(control)}")


#: Each page that holds a widget, with its widgets, at each size: what the tests below look at.
PAGE_CALCS: dict[str, list[str]] = {}
for _calc, _path in PAGES:
    PAGE_CALCS.setdefault(_path, []).append(_calc)
LIVE = [(path, size) for path in PAGE_CALCS for size in SIZES]


@pytest.fixture(scope="module", params=LIVE, ids=[f"{p or 'index'}-{s}" for p, s in LIVE])
def live(request, browser, base_url):
    """The page at that size, opened once with every widget ready, for each test here that uses it
    (pytest runs them one after the other): a Python start per page, not per test. The boxes of
    its widgets' parts are read at once, before any test uses a control. Motion is reduced, so that
    what a test measures after a scroll is where the scroll ends."""
    path, size = request.param
    ctx = browser.new_context(viewport=SIZES[size], reduced_motion="reduce")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(base_url + path)
        wait_ready(page)
        yield SimpleNamespace(page=page, path=path, size=size, calcs=PAGE_CALCS[path], errors=errors,
                              boxes=page.evaluate(BOXES))
    finally:
        ctx.close()


def every_widget(live, check) -> None:
    """``check(page, calc)`` on each widget of the live page in turn: no problem in any, each named
    by its widget, and no uncaught error."""
    problems = [f"{calc}: {problem}" for calc in live.calcs for problem in check(live.page, calc)]
    assert problems == [], "\n".join(problems)
    assert live.errors == []


def test_the_answer_stays_in_view_while_each_control_is_used(live):
    every_widget(live, answer_in_view)


def answer_in_view(page, calc: str) -> list[str]:
    """Every shown control and preset of one widget used in turn: what is not as it should be."""
    spec = course_calculators.get(calc)
    primary = spec.answer_outputs  # the answer outputs (or, without them, the primary ones)
    root = f'.calc[data-calc="{calc}"]'
    controls = page.eval_on_selector(root, CONTROLS)
    assert len([c for c in controls if c["kind"] != "preset"]) >= 3, controls
    problems = []
    for control in controls:
        target = control_box(page, root, control)
        target.scroll_into_view_if_needed()
        if control["kind"] == "preset":  # a phone's presets row scrolls sideways: a reader brings one in whole
            target.evaluate("(el) => el.scrollIntoView({ block: 'nearest', inline: 'nearest' })")
        seen = target.evaluate(SEEN)
        if not (in_view(seen) and seen["shown"]):
            problems.append(f"{control}: the control itself is not in view, or covered by {seen['hit']}: {seen}")
        use(page, root, control)
        settle(page, calc)
        now = page.evaluate(AFTER_USE, [root, [out.name for out in primary], f"{root} {control_selector(control)}"])
        expected = spec.run(now["inputs"])
        if spec.answer:
            sentence = now["sentence"]
            if sentence is None:
                problems.append(f"{control}: no answer sentence")
            else:
                if not (in_view(sentence["box"]) and sentence["box"]["shown"]):
                    problems.append(f"{control}: the answer sentence is outside the viewport or covered: {sentence['box']}")
                if sentence["text"] != expected.answer:
                    problems.append(f"{control}: the sentence says {sentence['text']!r}, Python {expected.answer!r}")
        for out in primary:
            box, text = now["outputs"][out.name]["box"], now["outputs"][out.name]["text"]
            if box is None or not in_view(box):
                problems.append(f"{control}: {out.name} is outside the viewport: {box}")
            if text != expected.text[out.name]:
                problems.append(f"{control}: {out.name} shows {text!r}, Python says {expected.text[out.name]!r}")
        if not now["control"]["shown"]:
            problems.append(f"{control}: after the change the control is covered by {now['control']['hit']}")
    return problems


#: Every control's, main result's and chart's box, relative to its widget (the page above a widget
#: may move when mkdocs-material's own scripts run: that is the theme's, not the widget's).
BOXES = """() => Array.from(document.querySelectorAll(
    ".calc input, .calc select, .calc button[type=button]:not(.md-code__button), .calc summary, "
    + ".calc .calc__out--primary, .calc figure, .calc .calc__frame-panels"))
  .filter((el) => el.checkVisibility()) // not inside a closed <details>
  .map((el) => { const r = el.getBoundingClientRect(), w = el.closest(".calc").getBoundingClientRect();
                 return [el.name || el.dataset.preset || el.className, Math.round(r.top - w.top),
                         Math.round(r.left - w.left), Math.round(r.width), Math.round(r.height)]; })"""


def test_no_layout_shift_when_python_takes_over(live, browser, base_url):
    """The page laid out from the build's HTML alone (no JavaScript) and the same page once every
    widget is live (``live.boxes``) put each control, each main result and each chart in the same
    place."""
    ctx = browser.new_context(viewport=SIZES[live.size], java_script_enabled=False, reduced_motion="reduce")
    page = ctx.new_page()
    try:
        page.goto(base_url + live.path)
        static = page.evaluate(BOXES)
    finally:
        ctx.close()
    assert live.boxes == static


def test_a_preset_says_what_to_notice(page, base_url):
    """One click on a preset sets its values and shows its notice beside the controls; the
    preset's own label stays as it was."""
    page.goto(base_url + "inference/paged-attention/")
    wait_ready(page, "paged-attention")
    spec = course_calculators.get("paged-attention")
    for preset in spec.presets:
        button = page.locator(f'.calc[data-calc="paged-attention"] button[data-preset="{preset.id}"]')
        button.click()
        settle(page, "paged-attention")
        notice = page.locator('.calc[data-calc="paged-attention"] p[data-notice]')
        assert notice.is_visible() and notice.text_content() == preset.notice
        assert button.text_content() == preset.label and button.get_attribute("aria-pressed") == "true"


FOCUSED = """(root) => { const el = document.activeElement;
  if (!root.contains(el)) return { outside: true };
  if (!el.closest('.calc__form')) return null;
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return { what: el.name || el.dataset.for || el.dataset.preset || el.textContent.trim().slice(0, 30),
           shown: Boolean(hit && (hit === el || el.contains(hit))), hit: hit ? hit.className : "nothing" }; }"""


#: More tab stops than any widget's form has: a bound on each direction's walk.
MAX_STOPS = 40


def test_keyboard_focus_never_lands_under_the_results(live):
    """Tab through a widget's controls and back with Shift+Tab: focus scrolls each control into
    view below the site's header and the sticky results, never under them."""
    every_widget(live, focus_walk)


def focus_walk(page, calc: str) -> list[str]:
    """Tab through one widget's controls and back: where focus landed under something."""
    root = page.locator(f'.calc[data-calc="{calc}"]')
    root.locator("button[data-preset], .calc__form input, .calc__form select").first.focus()
    seen, covered = {"Tab": [root.evaluate(FOCUSED)["what"]], "Shift+Tab": []}, []
    for key in seen:
        # Through the widget one way until focus leaves it (the page's next or previous stop),
        # then back the other way: every control, both directions.
        inside = 0
        for _ in range(MAX_STOPS):
            page.keyboard.press(key)
            now = root.evaluate(FOCUSED)
            if now is not None and now.get("outside"):
                if inside:
                    break
                continue
            if now is None:  # the widget's own, outside its form (its results)
                continue
            inside += 1
            seen[key].append(now["what"])
            if not now["shown"]:
                covered.append(f"{key} {now['what']}: covered by {now['hit']}")
    assert len(set(seen["Tab"])) >= 4, seen
    assert seen["Shift+Tab"] == seen["Tab"][::-1], seen  # the same stops, back the other way
    return covered
