"""The calculator fence: widget HTML per the contract, and errors that fail the build."""

from __future__ import annotations

import html
import re

import markdown
import pytest
from pymdownx.superfences import SuperFencesException

import course_calculators
from course_calculators.plugin import fence


def convert(text: str, page: str = "<markdown>") -> str:
    fences = fence.PageFences()
    fences.start(page)
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": [
            {"name": "calculator", "class": "calculator", "format": fences.formatter, "validator": fences.validator},
        ]}},
    )
    return md.convert(fence.expand_headers(text))


def test_short_header_is_expanded_with_its_line():
    assert fence.expand_headers("```calculator kv-cache\n```") == '```calculator id="kv-cache" line="1"\n```'
    assert fence.expand_headers("\n> ~~~~calculator kv-cache  \n") == '\n> ~~~~calculator id="kv-cache" line="2"\n'
    assert fence.expand_headers("```python\n") == "```python\n"


def test_fences_inside_other_code_blocks_are_left_alone():
    text = "````markdown\n```calculator kv-cache\n```\n````\n\n```calculator sampling\n```\n"
    assert [(f.line, f.calc_id) for f in fence.find(text)] == [(6, "sampling")]
    assert '```calculator kv-cache\n' in fence.expand_headers(text)
    assert fence.calculators_used(text) == ["sampling"]


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
    initial = re.search(r"data-initial='([^']+)'", out).group(1)
    assert '"context": 131072' in html.unescape(initial)
    # The calculator's own defaults travel too: links and snippets are measured against them.
    defaults = re.search(r"data-defaults='([^']+)'", out).group(1)
    assert '"context": 8192' in html.unescape(defaults)


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
    with pytest.raises(SuperFencesException) as info:
        convert("# T\n\n" + body, page="inference/kv-cache.md")
    assert message in str(info.value)
    assert str(info.value).startswith("inference/kv-cache.md:")


@pytest.mark.parametrize(
    "body, line",
    [
        ("```calculator no-such-calc\n```\n", 3),
        ("```calculator kv-cache\n\ncontext: lots\n```\n", 5),
        ("```calculator kv-cache\nlayers: 32\n# note\nbogus: 1\n```\n", 6),
        ("```calculator kv-cache\npreset: nope\n```\n", 4),
        ("```calculator kv-cache\njust words\n```\n", 4),
    ],
)
def test_fence_errors_name_the_page_and_line(body, line):
    with pytest.raises(SuperFencesException) as info:
        convert("# T\n\n" + body, page="inference/kv-cache.md")
    assert str(info.value).startswith(f"inference/kv-cache.md:{line}: "), str(info.value)


def test_chart_data_is_an_escaped_attribute_not_a_script():
    """Instant navigation re-creates <script> elements as classic scripts (the CSP blocks them)."""
    import html
    import json

    out = convert("```calculator kv-cache\n```\n")
    assert "<script" not in out
    attr = re.search(r'<div hidden data-charts="([^"]*)"></div>', out).group(1)
    assert "<" not in attr and json.loads(html.unescape(attr))[0]["series"]


def test_show_names_the_controls_shown_first_and_folds_the_others():
    out = convert("```calculator kv-cache\nshow: context concurrency\n```\n")
    form, more = out.split('<details class="calc__more">')[0], out.split('<details class="calc__more">')[1]
    assert 'name="context"' in form and 'name="concurrency"' in form and 'name="layers"' not in form
    assert 'name="layers"' in more.split("</details>")[0]
    # Every parameter keeps its field (its URL state and contract name).
    for name in course_calculators.get("kv-cache").param_map:
        assert f'name="{name}"' in out


def test_a_pin_line_renders_the_comparison_at_build_time():
    out = convert("```calculator kv-cache\ncontext: 131072\npin: preset=llama3-8b context=8192\n```\n")
    assert 'data-pin="preset=llama3-8b"' not in out and 'data-pin="default"' in out  # canonical: the defaults
    assert re.search(r'data-ratio="kv_bytes_total" data-value="16">· now 16×<', out)
    assert 'aria-pressed="true"' in out


@pytest.mark.parametrize("body, message", [
    ("show: context bogus", "unknown parameter(s) 'bogus'"),
    ("pin: preset=nope", "unknown preset 'nope'"),
    ("pin: context=lots", "is not a number"),
    ("pin: context", "expected 'preset=<id>'"),
])
def test_bad_show_and_pin_lines_name_their_line(body, message):
    with pytest.raises(SuperFencesException) as info:
        convert("# T\n\n```calculator kv-cache\n" + body + "\n```\n", page="p.md")
    assert message in str(info.value) and str(info.value).startswith("p.md:4:")


def test_the_embed_page_shows_what_its_chapter_widget_shows():
    md = "> ```calculator kv-cache\n> show: context gpu\n> ```\n\n```calculator kv-cache\nshow: layers\n```\n"
    assert fence.shown_on_page(md, "kv-cache") == ["context", "gpu"]
    assert fence.shown_on_page(md, "sampling") is None


def test_an_instance_line_gives_its_widget_keys_of_its_own():
    out = convert("```calculator sampling\n```\n\n```calculator sampling\ninstance: hot\ntemperature: 1.5\n```\n")
    assert 'id="calc-sampling"' in out and 'id="calc-sampling--hot"' in out
    assert out.count("data-instance=") == 1 and 'data-instance="hot"' in out


@pytest.mark.parametrize("body, message", [
    ("instance: Hot", "is not an instance name"),
    ("instance: hot\n```\n\n```calculator sampling\ninstance: hot", "already a widget of 'sampling'"),
])
def test_a_bad_or_repeated_instance_name_fails_naming_its_line(body, message):
    with pytest.raises(SuperFencesException) as info:
        convert("```calculator sampling\n" + body + "\n```\n", page="p.md")
    assert message in str(info.value) and str(info.value).startswith("p.md:")


def test_the_iframe_snippet_carries_a_build_time_height():
    out = convert("```calculator sampling\n```\n")
    m = re.search(r'data-embed-iframe data-height="(\d+)"', out)
    assert m and 600 <= int(m[1]) <= 4000
    assert f'height="{m[1]}" style="border:0"&gt;&lt;/iframe&gt;' in out


@pytest.mark.parametrize("body", [
    "```calculator no-such-calc\n```\n",
    "```calculator kv-cache\n\ncontext: lots\n```\n",
    "```calculator kv-cache\nlayers: 32\n# note\nbogus: 1\n```\n",
    "```calculator kv-cache\npreset: nope\n```\n",
    "> ```calculator kv-cache\n> context: -5\n> ```\n",
    "```calculator sampling\ninstance: hot\n```\n\n```calculator sampling\ninstance: hot\n```\n",
])
def test_the_page_check_before_the_build_says_what_the_formatter_says(body):
    """The plugin reads every page's fences before its slow steps (the snapshot): the same error,
    page and line as the render would raise, with nothing rendered."""
    page = "# T\n\n" + body
    with pytest.raises(SuperFencesException) as rendered:
        convert(page, page="p.md")
    with pytest.raises(SuperFencesException) as checked:
        fence.PageFences().check_page("p.md", page)
    assert str(checked.value) == str(rendered.value)


def test_the_page_check_passes_good_fences_and_leaves_no_widget_behind():
    fences = fence.PageFences()
    fences.check_page("p.md", "```calculator sampling\n```\n\n```calculator sampling\ninstance: hot\n```\n"
                              "\n````md\n```calculator nope\n```\n````\n")
    assert fences.dom_ids == [] and fences.counts == {}
