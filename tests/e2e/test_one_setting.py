"""One setting, the same numbers by every path it can take to a widget.

A fence, an inline figure, a link, an embed's ``set``, a reader typing and a pin all carry a
setting of kv-cache to Python; every path must show the numbers Python computes for that setting
here, in this process. Three settings: a field that the model fills set beside the model
(``layers=40``: the model turns custom), a preset with overrides, and a pin of the first.

The site is built for this test (``docs/index.md`` holds the fences and figures, ``docs/plain.md``
a widget at the defaults, for links and a reader), without the snapshot, and served with a host
page on another origin for the embed.
"""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

import course_calculators
from course_calculators.setting import Setting
from e2e_helpers import set_field, settle, wait_ready
from serving import ROOT, StaticServer, build_site, serve

pytestmark = pytest.mark.e2e

CALC = "kv-cache"
#: The three settings, as a fence, a figure and a pin spell them.
FILLED = Setting(None, (("layers", "40"),))
PRESET = Setting("llama3-70b", (("context", "65536"), ("kv_dtype", "fp8")))

INDEX = f"""# One setting

Filled: {{calc {CALC} kv_bytes_total {FILLED.text()}}}.
Preset: {{calc {CALC} kv_bytes_total {PRESET.text()}}}.

```calculator {CALC}
layers: 40
```

```calculator {CALC}
preset: llama3-70b
context: 65536
kv_dtype: fp8
```

```calculator {CALC}
pin: {FILLED.text()}
```
"""
PLAIN = f"""# At the defaults

```calculator {CALC}
```
"""
HOST = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Host</title><link rel="icon" href="data:,"></head><body>
<div id="embed" data-calculator-embed="kv-cache"></div>
<script>
  window.values = [];
  document.addEventListener("calculator:values", (e) => window.values.push(e.detail));
</script>
<script src="SITE/assets/calc/embed.js" async></script>
</body></html>
"""


def expected(setting: Setting) -> dict[str, str]:
    """Python's raw outputs for the setting, every one of them."""
    return course_calculators.get(CALC).run(base=setting).raw


def link_keys(setting: Setting) -> str:
    """The query a link of this setting has on a page at the defaults: Python's pin, prefixed."""
    pin = course_calculators.get(CALC).run(base=setting).pin
    return "&".join(f"{CALC}.{pair}" for pair in pin.split("&"))


def outputs(page, dom_id: str) -> dict[str, str]:
    return page.eval_on_selector(f"#{dom_id}", """(r) => Object.fromEntries(Array.from(
        r.querySelectorAll('output[data-output]')).map((o) => [o.dataset.output, o.dataset.value]))""")


def pinned(page, dom_id: str) -> dict[str, str]:
    return page.eval_on_selector(f"#{dom_id}", """(r) => Object.fromEntries(Array.from(
        r.querySelectorAll('[data-pinned]')).map((o) => [o.dataset.pinned, o.dataset.value]))""")


def figures(page) -> list[str]:
    return page.eval_on_selector_all(".calc-figure[data-figure]", "(fs) => fs.map((f) => f.dataset.value)")


def settled_by_id(page, dom_id: str) -> None:
    page.wait_for_function(
        """(id) => { const e = document.getElementById(id);
            const w = window.calculatorsRuntime && window.calculatorsRuntime.widgets.get(id);
            return e.dataset.state === 'ready' && w && w.settled; }""", arg=dom_id, timeout=60_000)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    work = tmp_path_factory.mktemp("one-setting")
    (work / "docs").mkdir()
    (work / "docs" / "index.md").write_text(INDEX)
    (work / "docs" / "plain.md").write_text(PLAIN)
    (work / "mkdocs.yml").write_text(
        "site_name: One setting\n"
        "theme: {name: material, font: false}\n"
        "nav: [index.md, plain.md]\n"
        "plugins:\n  - calculators:\n      packages: [llm_inference]\n"
        f"      node_modules: {ROOT / 'node_modules'}\n      snapshot: false\n      offline: false\n")
    out = work / "site"
    server = StaticServer(out)
    build_site(out, server.url, cwd=work, check=True, capture_output=True)
    server.start()
    (work / "host").mkdir()
    (work / "host" / "index.html").write_text(HOST.replace("SITE/", server.url))
    host, host_url = serve(work / "host")
    yield {"url": server.url, "host": host_url}
    host.shutdown()
    server.stop()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert errors == []


def test_the_build_shows_each_setting_as_python_computes_it(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site["url"])
    assert outputs(page, "calc-kv-cache") == expected(FILLED)
    assert outputs(page, "calc-kv-cache-2") == expected(PRESET)
    assert figures(page) == [expected(FILLED)["kv_bytes_total"], expected(PRESET)["kv_bytes_total"]]
    assert pinned(page, "calc-kv-cache-3") == expected(FILLED)
    context.close()


def test_python_in_the_browser_agrees_with_the_build(page, site):
    page.goto(site["url"])
    wait_ready(page, CALC)
    for dom_id in ("calc-kv-cache", "calc-kv-cache-2", "calc-kv-cache-3"):
        settled_by_id(page, dom_id)
    assert outputs(page, "calc-kv-cache") == expected(FILLED)
    assert page.input_value('#calc-kv-cache select[name="model"]') == "custom"  # Python said so
    assert outputs(page, "calc-kv-cache-2") == expected(PRESET)
    assert pinned(page, "calc-kv-cache-3") == expected(FILLED)
    assert outputs(page, "calc-kv-cache-3") == expected(Setting())


@pytest.mark.parametrize("setting", [FILLED, PRESET], ids=["filled", "preset"])
def test_a_link(page, site, setting):
    page.goto(site["url"] + "plain/?" + link_keys(setting))
    wait_ready(page, CALC)
    settle(page, CALC)
    assert outputs(page, "calc-kv-cache") == expected(setting)


@pytest.mark.parametrize("setting", [FILLED, PRESET], ids=["filled", "preset"])
def test_an_embeds_set(page, site, setting):
    values = dict(pair.split("=", 1) for pair in course_calculators.get(CALC).run(base=setting).pin.split("&"))
    page.goto(site["host"])
    page.wait_for_function("() => window.values.length > 0", timeout=60_000)  # the first result
    page.evaluate("(v) => document.getElementById('embed').calculatorEmbed.set(v)", values)
    want = expected(setting)
    page.wait_for_function("(want) => window.values.some((v) => v.outputs.kv_bytes_total === want)",
                           arg=want["kv_bytes_total"], timeout=30_000)
    assert page.evaluate("() => window.values[window.values.length - 1].outputs") == want


def test_a_reader_types_a_field_the_model_fills(page, site):
    page.goto(site["url"] + "plain/")
    wait_ready(page, CALC)
    set_field(page, CALC, "layers", "40")
    settle(page, CALC)
    assert outputs(page, "calc-kv-cache") == expected(FILLED)
    assert page.input_value('#calc-kv-cache select[name="model"]') == "custom"


def test_a_reader_picks_a_preset_and_overrides_it(page, site):
    page.goto(site["url"] + "plain/")
    wait_ready(page, CALC)
    page.click(f'#calc-kv-cache button[data-preset="{PRESET.preset}"]')
    settle(page, CALC)
    for name, value in PRESET.values:
        set_field(page, CALC, name, value)
    settle(page, CALC)
    assert outputs(page, "calc-kv-cache") == expected(PRESET)


def test_a_pin_by_link_and_by_the_pin_button(page, site):
    page.goto(site["url"] + f"plain/?{CALC}.pin={quote(FILLED.query())}")
    wait_ready(page, CALC)
    settle(page, CALC)
    assert pinned(page, "calc-kv-cache") == expected(FILLED)
    # The reader sets the same setting, pins it and moves on: the pin holds the same numbers.
    page.goto(site["url"] + "plain/")
    wait_ready(page, CALC)
    set_field(page, CALC, "layers", "40")
    settle(page, CALC)
    page.click("#calc-kv-cache [data-action=pin]")
    settle(page, CALC)
    set_field(page, CALC, "context", "65536")
    settle(page, CALC)
    assert pinned(page, "calc-kv-cache") == expected(FILLED)
    pin = page.evaluate(f"() => new URLSearchParams(location.search).get('{CALC}.pin')")
    assert pin == course_calculators.get(CALC).run(base=FILLED).pin  # Python's canonical pin
    assert json.loads(page.get_attribute("#calc-kv-cache", "data-defaults"))["layers"] == 32


def test_the_fences_pin_before_and_without_python(page, site):
    """Python blocked (its .wasm never arrives): the fence's pin at the rendered state keeps the
    build's comparison; a slider stop the table answers keeps the pinned values but marks the
    rows and the label not yet computed, and the label says Python cannot compute it — never
    "computing…"; back at the rendered state, the build's comparison again."""
    page.context.route("**/*.wasm*", lambda route: route.abort())
    root = "#calc-kv-cache-3"
    page.goto(site["url"])
    page.wait_for_selector(f'{root}[data-state="error"]', timeout=60_000)
    built_label = page.text_content(f"{root} [data-pin-label]")
    assert built_label.startswith("Pinned") and "computing" not in built_label
    assert pinned(page, "calc-kv-cache-3") == expected(FILLED)
    assert page.eval_on_selector_all(f"{root} [data-pinned-for][data-pending]", "es => es.length") == 0
    ratios = page.eval_on_selector_all(f"{root} [data-ratio]", "es => es.map(e => e.textContent)")
    context = course_calculators.get(CALC).param_map["context"]
    at = context.stop_of(context.default)

    def move(position: int) -> None:
        page.eval_on_selector(f'{root} input[type=range][data-for="context"]',
                              "(e, v) => { e.value = String(v); e.dispatchEvent(new Event('input', { bubbles: true })); }",
                              position)

    move(at + 1)
    page.wait_for_function("(sel) => document.querySelector(sel).hasAttribute('data-pending')", arg=f"{root} [data-pin-label]")
    assert page.text_content(f"{root} [data-pin-label]") == "Pinned: cannot be computed without Python"
    assert page.get_attribute(f"{root} [data-pin-label]", "aria-busy") == "true"
    assert pinned(page, "calc-kv-cache-3") == expected(FILLED)  # the pin's own values are still its own
    shown = page.eval_on_selector_all(f"{root} [data-pinned-for]:not([hidden])",
                                      "es => es.map(e => [e.hasAttribute('data-pending'), e.getAttribute('aria-busy'), "
                                      "e.querySelector('[data-ratio]').textContent])")
    assert shown and all(row == [True, "true", ""] for row in shown)  # no ratio against other inputs
    move(at)
    page.wait_for_function("(sel) => !document.querySelector(sel).hasAttribute('data-pending')", arg=f"{root} [data-pin-label]")
    assert page.text_content(f"{root} [data-pin-label]") == built_label
    assert page.eval_on_selector_all(f"{root} [data-ratio]", "es => es.map(e => e.textContent)") == ratios
