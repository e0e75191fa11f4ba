"""URL fuzz: junk in every parameter of every calculator never breaks a widget or injects markup.

Each calculator's embed page (``/embed/<id>/``, plain ``<param>`` keys) is loaded with URLs that set
*every* parameter at once to one kind of junk — not-a-number words, odd number formats, markup,
numbers out of range, unknown choice words — plus unknown, repeated and empty keys; one chapter
page does the same with ``<calc-id>.<param>`` keys. After Python's first run each page must show:
no console error, no uncaught exception, no request off the origin, nothing created from a value
(no ``img[src=x]``, no element with an ``on…`` handler from the URL, ``window.__pwned`` never set),
every output a finite number (or a word) in ``data-value`` and clean text, every field holding a
valid value, and a note in ``[data-message]`` naming each parameter whose value was refused or
clamped — with the value the URL gave, not what a number field made of it.
"""

from __future__ import annotations

import math
import re
from itertools import cycle
from urllib.parse import quote

import pytest

import course_calculators
from course_calculators.spec import NOT_COMPUTED, Choice, Number, Text
from e2e_helpers import wait_ready

pytestmark = pytest.mark.e2e

CALCS = list(course_calculators.CALCULATORS.values())
BAD_WORDS = re.compile(r"\b(nan|infinity|undefined|null)\b", re.IGNORECASE)
PWN = "window.__pwned=1"

#: One kind of junk per URL; every parameter of the calculator gets the next value of its kind.
KINDS = {
    "not-a-number": ["NaN", "Infinity", "-Infinity", "nan", "inf", "undefined", "null", "None", "true",
                     "0x1F", "1e999", "-1e999", "", " ", "1_000", "1,000", "12abc", "--1", "e5", ".", "0b101"],
    "markup": [f"<img src=x onerror={PWN}>", f"<script>{PWN}</script>", f'"><svg onload={PWN}>',
               f"javascript:{PWN}", f"' onmouseover='{PWN}", f"</output><img src=x onerror={PWN}>"],
}

#: A script that reports everything a page must not have, after its first live result.
PROBE = """(root) => {
  const bad = /\\b(nan|infinity|undefined|null)\\b/i;
  const outputs = [...root.querySelectorAll("output[data-output]")].map((o) => ({
    name: o.dataset.output, value: o.dataset.value, text: o.textContent.trim(),
  }));
  const fields = [...root.querySelectorAll("input[type=number][name], select[name]")].map((f) => ({
    name: f.name, value: f.value, tag: f.tagName,
  }));
  return {
    pwned: window.__pwned !== undefined,
    injected: document.querySelectorAll('img[src="x"], svg[onload], [onerror], [onload], [onmouseover]').length,
    scripts: [...document.scripts].filter((s) => s.textContent.includes("__pwned")).length,
    outputs, fields,
    message: (root.querySelector("[data-message]") || {}).textContent || "",
    url: location.href,
  };
}"""


def numbers(calc):
    return [p for p in calc.params if isinstance(p, Number)]


def fields(calc):
    """Parameters that refuse junk: numbers and choices (any text is a text; see texts())."""
    return [p for p in calc.params if not isinstance(p, Text)]


def texts(calc):
    """Free-text parameters (a pasted config.json): junk is taken as text, and the calculator
    says it cannot read it."""
    return [p for p in calc.params if isinstance(p, Text)]


def query(pairs: list[tuple[str, str]]) -> str:
    """A query string, every key and value percent-encoded (markup arrives as %3Cimg...)."""
    return "&".join(f"{quote(k, safe='.')}={quote(v, safe='')}" for k, v in pairs)


def junk_urls(calc, prefix: str) -> list[tuple[str, dict[str, str], list[tuple[str, str]]]]:
    """(kind, {param: value expected to be refused or clamped}, query pairs) for one calculator."""
    urls = []
    start = sum(map(ord, calc.id))  # each calculator starts elsewhere in the lists: all get used
    for kind, values in KINDS.items():
        source = cycle(values[start % len(values):] + values[:start % len(values)])
        refused = {p.name: next(source) for p in fields(calc)}
        junk_text = [(prefix + t.name, f"<img src=x onerror={PWN}>") for t in texts(calc)]
        urls.append((kind, refused, [(prefix + k, v) for k, v in refused.items()] + junk_text))
    # Out of range: above the maximum, below the minimum, far beyond both; unknown choice words.
    far = cycle(["1e300", "-1e300", "99999999999", "-5"])
    words = cycle(["GQA", "h900", "fp16,fp8", "BF16", "no-such-choice"])  # choices are lowercase words
    refused = {}
    for i, p in enumerate(fields(calc)):
        if isinstance(p, Choice):
            refused[p.name] = next(words)
        elif i % 3 == 0:
            refused[p.name] = repr(p.max + max(1, p.max - p.min))
        elif i % 3 == 1:
            refused[p.name] = repr(p.min - max(1, p.max - p.min))
        else:
            refused[p.name] = next(far)
            value = float(refused[p.name])
            if p.min <= value <= p.max:
                refused[p.name] = repr(p.max * 10 + 10)
    pairs = [(prefix + k, v) for k, v in refused.items()]
    # Keys that are no parameter, a key with markup, an empty key, and a repeated key whose last
    # value (junk) is the one that counts.
    first = numbers(calc)[0]
    pairs = [(prefix + first.name, repr(first.default))] + pairs + [
        (prefix + "no_such_param", "1"), (prefix + f"<img src=x onerror={PWN}>", "1"), ("", "5"),
        ("theme", "<b>dark</b>"), (prefix + "__proto__", "1"), (prefix + "constructor", "x"),
    ]
    urls.append(("range+keys", refused, pairs))
    return urls


def check_page(page, calc, kind: str, refused: dict[str, str]) -> int:
    """Every assertion for one loaded page; returns the number of parameters fuzzed."""
    sel = f'.calc[data-calc="{calc.id}"]'
    wait_ready(page, calc.id)
    report = page.eval_on_selector(sel, PROBE)
    where = f"{calc.id} [{kind}] {report['url']}"
    assert page.watch.errors == [], (where, page.watch.errors)
    assert page.watch.external == [], (where, page.watch.external)
    assert not report["pwned"] and report["injected"] == 0 and report["scripts"] == 0, (where, report)

    outputs = calc.output_map
    for out in report["outputs"]:
        spec = outputs[out["name"]]
        if out["value"] == "" and out["text"] == NOT_COMPUTED:
            continue  # the inputs allow no value (a note says why): shown as such, never a number
        if spec.unit == "bool":
            assert out["value"] in ("0", "1"), (where, out)
        elif spec.unit == "text":
            assert out["value"].strip(), (where, out)
        else:
            assert math.isfinite(float(out["value"])), (where, out)
        assert out["text"] and not BAD_WORDS.search(out["text"]), (where, out)
    assert {o["name"] for o in report["outputs"]} >= set(outputs), where

    params = calc.param_map
    for field in report["fields"]:
        p = params[field["name"]]
        if isinstance(p, Choice):
            assert field["value"] in p.values, (where, field)
        else:
            assert p.min <= float(field["value"]) <= p.max, (where, field)

    message = report["message"]
    for name, value in refused.items():
        p = params[name]
        # The note names the parameter, and echoes the URL's own value (quoted, cut at 24 characters).
        assert f"{p.label}: " in message, (where, name, value, message)
        echo = repr(value if len(value) <= 24 else value[:23] + "…")
        assert echo in message or (value.strip() == "" and "an empty value" in message), (where, echo, message)
    return len(refused)


@pytest.fixture(scope="module")
def fuzz_page(browser, base_url):
    """One tab for the whole module: each URL is a fresh navigation; the watch is emptied between."""
    from conftest import PageWatch

    context = browser.new_context()
    page = context.new_page()
    page.watch = PageWatch(page, base_url)
    yield page, base_url
    context.close()


def goto(page, url: str) -> None:
    page.watch.errors.clear()
    page.watch.external.clear()
    page.goto(url)


@pytest.mark.parametrize("calc", CALCS, ids=[c.id for c in CALCS])
def test_embed_page_survives_junk_in_every_parameter(fuzz_page, calc):
    page, base_url = fuzz_page
    fuzzed = 0
    for kind, refused, pairs in junk_urls(calc, prefix=""):
        goto(page, f"{base_url}embed/{calc.id}/?{query(pairs)}")
        fuzzed += check_page(page, calc, kind, refused)
    print(f"\n{calc.id}: {fuzzed} inputs fuzzed over {len(KINDS) + 1} URLs")


def test_chapter_page_keys_are_fuzzed_the_same_way(fuzz_page):
    """``<calc-id>.<param>`` keys on the chapter page that holds kv-cache; other widgets untouched."""
    page, base_url = fuzz_page
    calc = course_calculators.get("kv-cache")
    kind, refused, pairs = junk_urls(calc, prefix="kv-cache.")[-1]
    goto(page, f"{base_url}inference/kv-cache/?{query(pairs)}")
    check_page(page, calc, kind, refused)
    message = page.text_content('.calc[data-calc="kv-cache"] [data-message]')
    for key in ("'no_such_param'", "'<img src=x onerror=wind…'", "'constructor'"):  # our prefix, no parameter
        assert f"Unknown parameter {key} ignored." in message, message
    # Keys of one calculator never reach another widget on the same page.
    others = page.eval_on_selector_all('.calc:not([data-calc="kv-cache"])', "els => els.map(e => e.dataset.state)")
    assert all(state == "ready" for state in others)
