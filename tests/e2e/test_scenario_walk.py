"""The whole scenario, everywhere: a reader sets the model (a pasted config.json), the context
and the concurrency on one page, walks through every chapter page by the navigation, comes back
through the history, then opens a new tab. Every widget with those parameters shows the
reader's values (Python's, computed for them) and says where they came from; one click gives
the page's own example back."""

from __future__ import annotations

import json

import pytest

import course_calculators
from e2e_helpers import arrived, leaving, reveal, settle, wait_ready

pytestmark = pytest.mark.e2e

#: A Llama-style model that is in no catalogue (40 layers): only the pasted text can give it.
CONFIG = json.dumps({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
                     "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 40,
                     "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072,
                     "torch_dtype": "bfloat16", "head_dim": 128})
CONTEXT, CONCURRENCY = "32768", "4"
#: The chapter's pages in the navigation's order, and the one the reader starts on.
PAGES = ["inference/two-phases/", "inference/kv-cache/", "inference/paged-attention/", "inference/quantization/",
         "inference/speculative-decoding/", "inference/sampling/", "inference/unit-economics/",
         "inference/summary/"]
START = "inference/kv-cache/"

#: What each widget of the page shows for the scenario's fields: {id: {scenario: value}}, and
#: its scenario line's text.
SHOWN = """() => Array.from(document.querySelectorAll('.calc[data-calc]')).map((root) => {
  const fields = {};
  root.querySelectorAll('[data-scenario]').forEach((el) => { fields[el.dataset.scenario] = el.value; });
  const line = root.querySelector('[data-scenario-line]');
  return { id: root.id, calc: root.dataset.calc, fields, layers: (root.querySelector('[name=layers]') || {}).value,
           line: line && !line.hidden ? line.textContent : '' };
})"""


def check_page(page, where: str, origin: str) -> list[str]:
    """Each widget holding a scenario field shows the reader's values and names their origin."""
    problems = []
    for w in page.evaluate(SHOWN):
        settle(page, w["calc"])
    for w in page.evaluate(SHOWN):
        f = w["fields"]
        if not ({"config", "context", "concurrency"} & set(f)):
            continue
        if "config" in f and f["config"] != CONFIG:
            problems.append(f"{where} {w['id']}: the pasted config is not there ({len(f['config'])} characters)")
        if "config" in f and w["layers"] != "40":
            problems.append(f"{where} {w['id']}: layers {w['layers']}, the pasted config has 40")
        if "context" in f and f["context"] != CONTEXT:
            problems.append(f"{where} {w['id']}: context {f['context']}, the reader set {CONTEXT}")
        if "concurrency" in f and f["concurrency"] != CONCURRENCY:
            problems.append(f"{where} {w['id']}: concurrency {f['concurrency']}, the reader set {CONCURRENCY}")
        if "Your scenario" not in w["line"] or origin not in w["line"]:
            problems.append(f"{where} {w['id']}: the scenario line says {w['line']!r}, not {origin!r}")
    return problems


def nav_to(page, base_url: str, path: str) -> None:
    """Follow the site's own navigation link to ``path`` (mkdocs-material's instant navigation)."""
    link = page.locator(f'nav.md-nav--primary a.md-nav__link[href$="{path.split("/")[-2]}/"]').first
    if not link.is_visible():
        page.goto(page.url)  # never: the sidebar is shown at this width
    leaving(page)
    link.click()
    page.wait_for_url(f"**/{path}*")
    arrived(page)
    page.wait_for_function("() => window.calculatorsRuntime && window.calculatorsRuntime.ready")
    if page.locator(".calc[data-calc]").count():
        wait_ready(page)


def test_the_scenario_follows_the_reader_through_the_chapter_back_and_into_a_new_tab(browser, base_url):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(base_url + START)
        wait_ready(page, "kv-cache")
        root = '.calc[data-calc="kv-cache"]'
        reveal(page, root, "config")
        page.fill(f"{root} textarea[name=config]", CONFIG)
        settle(page, "kv-cache")
        for name, value in (("context", CONTEXT), ("concurrency", CONCURRENCY)):
            page.fill(f"{root} input[type=number][name={name}]", value)
            page.press(f"{root} input[type=number][name={name}]", "Enter")
            settle(page, "kv-cache")
        problems = check_page(page, START, "set on this page")
        expected = course_calculators.get("kv-cache").run(
            page.eval_on_selector(root, "r => Object.fromEntries(Array.from(r.querySelectorAll("
                                        "'input[type=number][name], select[name], textarea[name]')).map(e => [e.name, e.value]))"))
        assert page.locator(f"{root} [data-answer]").text_content() == expected.answer
        assert "Pasted config.json" in expected.answer and "32,768 tokens" in expected.answer

        walked = []
        for path in PAGES:
            if path == START:
                continue
            nav_to(page, base_url, path)
            walked.append(path)
            problems += check_page(page, path, "from “")
        for path in reversed(walked[:-1]):
            leaving(page)
            page.go_back()
            page.wait_for_url(f"**/{path}*")
            arrived(page)
            if page.locator(".calc[data-calc]").count():
                wait_ready(page)
            problems += check_page(page, f"back to {path}", "from “")

        tab = ctx.new_page()  # a new tab: no query, the same storage
        tab.on("pageerror", lambda e: errors.append(str(e)))
        tab.goto(base_url + "inference/two-phases/")
        wait_ready(tab)
        problems += check_page(tab, "new tab two-phases", "from “")
        tab.goto(base_url + START)
        wait_ready(tab)
        problems += check_page(tab, "new tab kv-cache", "set on this page")
        assert problems == [], "\n".join(problems)
        assert errors == []
    finally:
        ctx.close()


def test_one_click_gives_the_page_its_own_example_back(browser, base_url):
    """A scenario from a link replaces the fence's values; "This page's example" restores them
    (the prose's figures match again) and "Use my scenario" brings the reader's back."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    try:
        page.goto(base_url + "inference/quantization/?context=65536&gpu=h200")
        wait_ready(page)
        root = '.calc[data-calc="kv-cache"]'
        settle(page, "kv-cache")
        line = page.locator(f"{root} [data-scenario-line]")
        assert line.is_visible() and "from a link" in line.text_content()
        assert "in place of this page's example" in line.text_content()
        assert page.input_value(f"{root} input[type=number][name=context]") == "65536"
        initial = json.loads(page.get_attribute(root, "data-initial"))
        line.locator('[data-action="scenario-example"]').click()
        settle(page, "kv-cache")
        assert page.input_value(f"{root} input[type=number][name=context]") == str(initial["context"])
        assert page.input_value(f"{root} select[name=gpu]") == initial["gpu"]
        assert "This page's example" in line.text_content()
        line.locator('[data-action="scenario-mine"]').click()
        settle(page, "kv-cache")
        assert page.input_value(f"{root} input[type=number][name=context]") == "65536"
        line.locator('[data-action="scenario-forget"]').click()
        settle(page, "kv-cache")
        assert not line.is_visible()
        assert page.evaluate("() => JSON.parse(localStorage.getItem('calculators-scenario')).values") == {}
    finally:
        ctx.close()
