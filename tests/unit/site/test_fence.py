"""The calculator fence: widget HTML per the contract, and errors that fail the build."""

from __future__ import annotations

import html
import re

import markdown
import pytest
from pymdownx.superfences import SuperFencesException

from calculators._site import fence


def convert(text: str) -> str:
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": [
            {"name": "calculator", "class": "calculator", "format": fence.formatter, "validator": fence.validator},
        ]}},
    )
    return md.convert(fence.expand_short_headers(text))


def test_short_header_is_expanded():
    assert fence.expand_short_headers("```calculator kv-cache\n```") == '```calculator id="kv-cache"\n```'
    assert fence.expand_short_headers("> ~~~~calculator kv-cache  \n") == '> ~~~~calculator id="kv-cache"\n'
    assert fence.expand_short_headers("```python\n") == "```python\n"


def test_defaults_are_rendered_into_the_html():
    out = convert("```calculator kv-cache\n```\n")
    assert 'data-calc="kv-cache"' in out and 'data-state="static"' in out
    m = re.search(r'<output data-output="kv_bytes_per_token" data-value="(\d+)"[^>]*>([^<]+)</output>', out)
    assert m and m.groups() == ("131072", "128 KiB")
    assert 'button type="button" class="calc__preset" data-preset="llama3-8b-128k"' in out
    assert '<input type="number" name="context"' in out and '<select name="kv_dtype"' in out
    assert 'role="status" aria-live="polite" data-message' in out


def test_overrides_and_preset_set_the_widget_defaults():
    out = convert("```calculator kv-cache\npreset: llama3-8b\ncontext: 131072  \n# a comment\n```\n")
    assert re.search(r'data-output="kv_bytes_total" data-value="17179869184"[^>]*>16 GiB<', out)
    defaults = re.search(r"data-defaults='([^']+)'", out).group(1)
    assert '"context": 131072' in html.unescape(defaults)


@pytest.mark.parametrize(
    "body, message",
    [
        ("```calculator no-such-calc\n```\n", "unknown calculator id 'no-such-calc'"),
        ("```calculator kv-cache\ncontext: lots\n```\n", "is not a number"),
        ("```calculator kv-cache\ncontext: 99999999\n```\n", "above the maximum"),
        ("```calculator kv-cache\nbogus: 1\n```\n", "Unknown parameter 'bogus'"),
        ("```calculator kv-cache\npreset: nope\n```\n", "unknown preset 'nope'"),
        ("```calculator kv-cache\njust words\n```\n", "expected 'name: value'"),
    ],
)
def test_bad_fences_raise_superfences_exception(body, message):
    token = fence.current_page.set("inference/kv-cache.md")
    try:
        with pytest.raises(SuperFencesException) as info:
            convert(body)
    finally:
        fence.current_page.reset(token)
    assert message in str(info.value)
    assert str(info.value).startswith("inference/kv-cache.md: ")


def test_chart_data_is_an_escaped_attribute_not_a_script():
    """Instant navigation re-creates <script> elements as classic scripts (the CSP blocks them)."""
    import html
    import json

    out = convert("```calculator kv-cache\n```\n")
    assert "<script" not in out
    attr = re.search(r'<div hidden data-charts="([^"]*)"></div>', out).group(1)
    assert "<" not in attr and json.loads(html.unescape(attr))[0]["series"]
