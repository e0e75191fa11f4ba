"""The finish command's reading of a built site: its pages' URLs, and a page a tool left unrendered."""

from __future__ import annotations

from pathlib import Path

from course_calculators.plugin import finish


def test_a_pages_url_is_its_folder():
    site = Path("/s")
    assert finish.page_url(site, site / "index.html") == "./"
    assert finish.page_url(site, site / "inference" / "kv-cache" / "index.html") == "inference/kv-cache/"
    assert finish.page_url(site, site / "404.html") == "404.html"


def test_a_source_page_url_follows_use_directory_urls():
    assert finish._doc_url("index.md", True) == "./"
    assert finish._doc_url("inference/index.md", True) == "inference/"
    assert finish._doc_url("kettle.md", True) == "kettle/"
    assert finish._doc_url("kettle.md", False) == "kettle.html"


def test_a_fence_or_figure_left_as_text_is_named():
    garbled = "<p>```calculator kettle\nlitres: 1\n<div class=\"highlight\"><pre><code>Prose.</code></pre></div></p>"
    assert finish.unrendered(garbled) == "a calculator fence left as text"
    assert finish.unrendered('<div class="language-calculator highlight"><pre><code>x</code></pre></div>') \
        == "a calculator fence left as a code block"
    assert finish.unrendered("<p>It takes {calc kettle time preset=one-cup}.</p>") == "a {calc …} figure left as text"


def test_the_syntax_shown_in_code_is_not_a_garbled_page():
    page = ("<p>Write <code>{calc kettle time}</code>:</p><pre><code>```calculator kettle\n"
            "{calc kettle time preset=one-cup}\n```</code></pre>")
    assert finish.unrendered(page) == ""
