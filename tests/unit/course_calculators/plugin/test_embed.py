"""Embed pages: one per calculator at embed/<id>/, minimal chrome, the runtime's head tags, relative URLs."""

from __future__ import annotations

import re
from pathlib import Path

import course_calculators
from course_calculators.plugin import embed

ROOT = Path(__file__).resolve().parents[4]


def fake_head(here: str, paint_after: str) -> str:
    return f'<meta name="calculators-runtime" content="{here}" data-paint-after="{paint_after}">'


def page(calc_id: str = "kv-cache", **kwargs) -> str:
    args = dict(
        head=fake_head,
        stylesheets=["assets/stylesheets/main.abc.min.css", "assets/calc/calc.css"],
        chapter_url="inference/kv-cache/",
        site_name="Course <site>",
        palette={"primary": "indigo", "accent": "teal"},
    )
    args.update(kwargs)
    return embed.render_page(course_calculators.get(calc_id), **args)


def test_page_holds_one_embed_widget_with_its_defaults_and_no_site_chrome():
    html = page()
    assert html.count('class="calc"') == 1
    assert re.search(r'<div class="calc" id="calc-kv-cache" data-calc="kv-cache" data-state="static"[^>]* data-embed>', html)
    assert '<output data-output="kv_bytes_per_token" data-value="131072"' in html  # computed at build time
    assert 'data-preset="llama3-8b"' in html and "<canvas" in html  # presets and charts
    assert "md-header" not in html and "md-sidebar" not in html and "search" not in html
    assert "data-embed-snippet" not in html  # the snippet is offered in the chapter, not in the embed
    assert "Course &lt;site&gt;" in html  # text is escaped


def test_every_url_is_relative_to_the_embed_page():
    html = page()
    # The plugin's head tags come first in <head>, for a page at embed/<id>/.
    assert html.index('<meta charset="utf-8">') < html.index('content="embed/kv-cache/"') < html.index("<link")
    assert 'href="../../assets/stylesheets/main.abc.min.css"' in html
    assert 'href="../../assets/calc/calc.css"' in html
    assert "<script" not in html.replace(fake_head("embed/kv-cache/", embed.FOOT_ID), "")  # the page script is a head tag
    assert 'href="../../inference/kv-cache/#calc-kv-cache"' in html and 'target="_blank"' in html
    assert not re.search(r'(?:href|src)="/', html)  # works under any sub-path
    assert 'data-md-color-primary="indigo" data-md-color-accent="teal"' in html


def test_the_first_paint_waits_for_the_foot_after_the_widget():
    """Its results sit above its form on a phone: a slow processor painting half the widget saw the
    form pushed down as the results came (the head tags carry the render-blocking hint)."""
    html = page()
    assert f'data-paint-after="{embed.FOOT_ID}"' in html
    assert html.index('class="calc"') < html.index(f'id="{embed.FOOT_ID}"')


def test_no_chapter_link_when_no_page_uses_the_calculator():
    assert "data-chapter-link" not in page(chapter_url=None)


def test_chapter_pages_finds_both_fence_forms(tmp_path):
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import File, Files

    docs = tmp_path / "docs"
    (docs / "b").mkdir(parents=True)
    (docs / "a.md").write_text('# A\n\n```calculator id="sampling"\n```\n')
    (docs / "b" / "c.md").write_text("# C\n\n~~~calculator kv-cache\ncontext: 4\n~~~\n\n```calculator sampling\n```\n")
    (docs / "d.md").write_text("# D\n\nThe ```calculator kv-cache``` fence, inline: not a widget.\n")
    config = MkDocsConfig()
    config.load_dict({"site_name": "t", "docs_dir": str(docs), "site_dir": str(tmp_path / "site")})
    files = Files([File(p, str(docs), str(tmp_path / "site"), True) for p in ("a.md", "b/c.md", "d.md")])
    found = embed.chapter_pages(files)
    assert {k: v.src_uri for k, v in found.items()} == {"sampling": "a.md", "kv-cache": "b/c.md"}


def test_the_docs_list_every_embed_page():
    """The Embed page's table is generated from the registry: it cannot miss a calculator."""
    from course_calculators.plugin import reference

    assert "```calculators-catalogue\n```" in (ROOT / "docs" / "embed.md").read_text()
    table = reference.catalogue_table()
    for calc_id in course_calculators.CALCULATORS:
        assert f'href="{reference.SITE_ROOT}embed/{calc_id}/"' in table, calc_id


def test_the_embed_script_never_parses_html():
    source = (ROOT / "course_calculators" / "browser" / "embed.js").read_text()
    js = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith("//"))
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert sink not in js, sink
