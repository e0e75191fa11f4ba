"""The calculators as a Markdown extension: what Zensical runs, and what the plugin renders through."""

from __future__ import annotations

import markdown
import pytest

from course_calculators.plugin import extension, fence


def convert(text: str, *, superfences: bool = True, **options) -> tuple[str, extension.PageState]:
    state = extension.PageState(page=lambda md: "chapter.md")
    ext = extension.CalculatorsExtension(state, **options)
    md = markdown.Markdown(extensions=(["pymdownx.superfences"] if superfences else []) + [ext])
    return md.convert(text), state


def test_the_short_header_and_a_figure_render_on_any_tool():
    out, state = convert("Intro {calc sampling top_prob preset=creative}.\n\n```calculator sampling\n```\n\nAfter.\n")
    assert '<div class="calc" id="calc-sampling" data-calc="sampling"' in out
    assert 'class="calc-figure" data-figure="sampling"' in out and "<p>After.</p>" in out
    assert state.fences.dom_ids == ["calc-sampling"] and state.fences.page == "chapter.md"


def test_each_page_numbers_its_widgets_afresh():
    state = extension.PageState(page=lambda md: "p.md")
    ext = extension.CalculatorsExtension(state)
    for _ in range(2):  # a Markdown per page, as MkDocs and Zensical make
        markdown.Markdown(extensions=["pymdownx.superfences", ext]).convert("```calculator sampling\n```\n")
        assert state.fences.dom_ids == ["calc-sampling"]


def test_a_bad_fence_names_the_page_and_line():
    with pytest.raises(fence.FenceError, match=r"^chapter\.md:4: calculator 'sampling': Temperature"):
        convert("# T\n\n```calculator sampling\ntemperature: 99\n```\n")


def test_without_superfences_the_page_stops_saying_what_to_list():
    with pytest.raises(extension.ExtensionError, match=r"chapter\.md:1: .*needs pymdownx\.superfences"):
        convert("```calculator sampling\n```\n", superfences=False)
    assert convert("no fence here", superfences=False)[0] == "<p>no fence here</p>"


def test_an_html_fence_is_what_its_function_returns():
    out, _ = convert("```made\n```\n", html_fences={"made": "tests.unit.course_calculators.plugin.test_extension.made"})
    assert "<b>made at build time</b>" in out
    with pytest.raises(extension.ExtensionError, match="cannot import 'no.such.thing'"):
        convert("```x\n```\n", html_fences={"x": "no.such.thing"})


def made() -> str:
    return "<b>made at build time</b>"


def test_the_page_path_is_the_tools_where_it_says():
    class Context:
        class page:  # noqa: N801 (Zensical's rendering context: its page's path)
            path = "inference/kv-cache.md"

    md = markdown.Markdown()
    assert extension.page_path(md) == "<markdown>"
    md.preprocessors.register(Context(), "rendering_context", 0)
    assert extension.page_path(md) == "inference/kv-cache.md"


def test_on_its_own_it_needs_the_sites_packages():
    with pytest.raises(extension.ExtensionError, match=r"packages: \[my_package\]"):
        extension.makeExtension()
