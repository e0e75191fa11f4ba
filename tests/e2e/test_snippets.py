"""A widget's embed snippet and its copied link reproduce exactly what the reader sees.

For every widget on every page of the site: the untouched snippet's embed page shows the same
outputs as the widget (so a fence's overrides travel in it), and so does the snippet after the
reader changes an input.
"""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qsl

import pytest

from e2e_helpers import settle, wait_ready

pytestmark = pytest.mark.e2e


def widgets(site_dir):
    """(page URL, widget DOM id, calculator id) of every widget of every page (not the embed pages)."""
    found = []
    for path in sorted(site_dir.rglob("index.html")):
        rel = path.parent.relative_to(site_dir).as_posix()
        if rel.startswith("embed") or rel.startswith("assets"):
            continue
        text = path.read_text(encoding="utf-8")
        for dom_id, calc_id in re.findall(r'<div class="calc" id="([^"]+)" data-calc="([^"]+)"', text):
            found.append(("" if rel == "." else rel + "/", dom_id, calc_id))
    return found


def outputs(page_or_frame, root: str) -> dict[str, str]:
    return page_or_frame.eval_on_selector(
        root, "r => Object.fromEntries(Array.from(r.querySelectorAll('output[data-output]')).map("
              "o => [o.dataset.output, o.dataset.value]))")


def snippet_params(page, dom_id: str) -> str:
    code = page.text_content(f"#{dom_id} [data-embed-snippet]")
    m = re.search(r'data-params="([^"]*)"', code)
    return html.unescape(m.group(1)) if m else ""


def test_every_widget_has_a_snippet_that_shows_its_outputs(browser, base_url, site_dir):
    found = widgets(site_dir)
    assert len(found) >= 7
    context = browser.new_context()
    try:
        page = context.new_page()
        embed = context.new_page()
        for url, dom_id, calc_id in found:
            page.goto(base_url + url)
            wait_ready(page, calc_id)
            shown = outputs(page, f"#{dom_id}")
            params = snippet_params(page, dom_id)
            embed.goto(f"{base_url}embed/{calc_id}/" + (f"?{params}" if params else ""))
            wait_ready(embed, calc_id)
            assert outputs(embed, ".calc") == shown, (url, dom_id, params)
            # The chapter page's copied link carries the same inputs, with prefixed keys.
            initial = page.eval_on_selector(f"#{dom_id}", "r => JSON.parse(r.dataset.initial)")
            defaults = page.eval_on_selector(f"#{dom_id}", "r => JSON.parse(r.dataset.defaults)")
            # A field its filler fills (a model's shape, the model chosen) follows from the filler:
            # the canonical link leaves it out (setting.Setting.of).
            filled = page.eval_on_selector(f"#{dom_id}", """r => [...r.querySelectorAll('select[data-fills]')]
                .filter((s) => s.value !== s.dataset.custom).flatMap((s) => s.dataset.fills.split(' '))""")
            changed = {k: str(v) for k, v in initial.items() if str(v) != str(defaults[k]) and k not in filled}
            assert dict(parse_qsl(params)) == changed, (url, dom_id)
    finally:
        context.close()


def test_the_quantization_pages_roofline_snippet_carries_its_preset(page, base_url):
    """The fence there says ``preset: h100-70b-int4``: its snippet must not fall back to bf16."""
    page.goto(base_url + "inference/quantization/")
    wait_ready(page, "decode-roofline")
    params = dict(parse_qsl(snippet_params(page, "calc-decode-roofline")))
    assert params.get("weight_dtype") == "int4"


def test_a_changed_input_travels_in_the_snippet(page, base_url):
    page.goto(base_url + "inference/kv-cache/")
    wait_ready(page, "kv-cache")
    page.fill('#calc-kv-cache input[type=number][name="context"]', "65536")
    settle(page, "kv-cache")
    params = dict(parse_qsl(snippet_params(page, "calc-kv-cache")))
    assert params["context"] == "65536"
