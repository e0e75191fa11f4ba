"""Embed pages: one standalone page per calculator at ``embed/<id>/``, for iframes on other sites.

Each page holds one widget (``data-embed``: its URL keys are the plain parameter names), showing
the controls its chapter's widget shows first (that fence's ``show:`` line), with
minimal chrome — no header, navigation or search — and a link back to the chapter page that first
uses the calculator. It loads the same style sheets as the chapter pages and gets the same head
tags from the plugin (the ``calculators-runtime`` meta tag and the page script, ``runtime.js``),
with every URL relative to ``embed/<id>/``, so the one Python worker boots as it does in the
chapter and the site may live under any sub-path.

The page's theme (``?theme=light|dark``, else ``prefers-color-scheme``) and its ``postMessage``
API (ready, resize, values; set and get from the parent) live in ``browser/page/embed-page.js``;
``browser/embed.js`` is the host pages' side.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from mkdocs.structure.files import File, Files
from mkdocs.utils import get_relative_url

import course_calculators
from course_calculators import contract
from course_calculators.spec import Calculator

from . import fence, material, render, source_pages


def chapter_pages(files: Files) -> dict[str, File]:
    """The first documentation page (in file order) whose Markdown holds each calculator's fence."""
    found: dict[str, File] = {}
    for file in sorted(files.documentation_pages(), key=lambda f: f.src_uri):
        try:
            text = file.content_string
        except (OSError, UnicodeDecodeError):
            continue
        for calc_id in fence.calculators_used(text):
            found.setdefault(calc_id, file)
    return found


def _stylesheets(files: Files, config: Any) -> list[str]:
    """Site-relative paths of the theme's style sheets (Material's, when the theme is Material),
    then the site's ``extra_css`` (which holds ``calc.css``), in the order the chapter pages load them."""
    extra = [str(c) for c in config.extra_css if "://" not in str(c)]
    return material.stylesheets(f.dest_uri for f in files) + extra


#: The plugin's head tags for a page at a site-relative URL (the runtime meta tag, the page script),
#: and the DOM id of the element the page's first paint waits for.
HeadTags = Callable[[str, str], str]
#: The embed page's foot, after its widget: the first paint waits for it (``render_page``).
FOOT_ID = "calc-embed-foot"


def render_page(
    calc: Calculator,
    *,
    head: HeadTags,
    stylesheets: Iterable[str],
    chapter_url: str | None,
    site_name: str,
    palette: Mapping[str, str],
    show_source: bool = True,
    favicon: str = "",
    shown: list[str] | None = None,
) -> str:
    """The HTML of one embed page; every URL argument is site-relative (``assets/…``)."""
    here = f"{contract.EMBED_DIR}/{calc.id}/"

    def rel(url: str) -> str:
        return get_relative_url(url, here)

    widget = render.widget(calc, None, dom_id=contract.dom_id(calc.id, 1), show_source=show_source,
                           embed=True, shown=shown)
    widget = source_pages.link_sources(widget, rel(source_pages.SOURCE_DIR + "/"))
    chapter = (rel(chapter_url) + f"#{contract.dom_id(calc.id, 1)}") if chapter_url is not None else ""
    return render.env.get_template("embed.html").render(
        calc=calc,
        widget=widget,
        # A slow processor paints a page as it parses: the first paint waits for the foot, so the
        # widget's results (above its form on a phone, after it in the HTML) never push it down.
        head=head(here, FOOT_ID),
        foot_id=FOOT_ID,
        stylesheets=[rel(s) for s in stylesheets],
        favicon=rel(favicon) if favicon else "",
        chapter=chapter,
        site_name=site_name,
        palette=palette,
    )


def shown_controls(calc: Calculator, chapter: Any) -> list[str] | None:
    """The controls the embed page shows first: those of the chapter's widget (its fence's
    ``show:`` line, ``chapter`` the page that holds it, or None)."""
    shown = fence.shown_on_page(chapter.content_string, calc.id) if chapter is not None else None
    if shown is not None and not set(shown) <= set(calc.param_map):
        shown = None  # the chapter's own build reports the bad line
    return shown


def add_pages(files: Files, config: Any, head: HeadTags, *, show_source: bool = True) -> None:
    """Add ``embed/<id>/index.html`` to the site for every registered calculator."""
    chapters = chapter_pages(files)
    stylesheets = _stylesheets(files, config)
    palette = material.palette(config)
    site_name = str(config.site_name or "")
    favicon = str(config.theme.get("favicon") or "") if hasattr(config.theme, "get") else ""
    if favicon and (favicon.startswith(("/", "data:")) or "://" in favicon or files.get_file_from_path(favicon) is None):
        favicon = ""  # only a file of this site, linked relatively
    for calc in course_calculators.CALCULATORS.values():
        chapter = chapters.get(calc.id)
        shown = shown_controls(calc, chapter)
        html = render_page(
            calc,
            head=head,
            stylesheets=stylesheets,
            chapter_url=chapter.url if chapter is not None else None,
            site_name=site_name,
            palette=palette,
            show_source=show_source,
            favicon=favicon,
            shown=shown,
        )
        files.append(File.generated(config, contract.embed_page(calc.id), content=html))
