"""What the plugin knows about mkdocs-material: its search worker, its palette, its style sheets,
and the state its bundle leaves the page in.

Everything here degrades to nothing on another theme: no search worker to defer, the default
palette, no theme style sheets on the embed pages.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any, Iterable, Mapping

from mkdocs.utils import get_relative_url

#: Material's compiled style sheets (the file names carry a content hash).
_STYLESHEET = re.compile(r"^assets/stylesheets/(main|palette)\.[0-9a-f]+\.min\.css$")
#: The search worker's URL in Material's ``__config`` JSON of each page.
_SEARCH_WORKER = re.compile(r'("search": ")((?:[^"]*/)?assets/javascripts/workers/search\.[0-9a-f]+\.min\.js)(")')


def defer_search_worker(html: str, here: str, wrapper: str) -> str:
    """Point Material's ``__config`` at ``wrapper`` (a site path), which loads the real search
    worker (named in its query) on the first search or a few seconds after load."""

    def wrap(m: re.Match) -> str:
        page_dir = posixpath.dirname(here.rstrip("/") + "/x")
        real = posixpath.normpath(posixpath.join(page_dir, m.group(2)))  # the worker's site path
        query = "?worker=" + get_relative_url(real, wrapper)
        return m.group(1) + get_relative_url(wrapper, here) + query + m.group(3)

    return _SEARCH_WORKER.sub(wrap, html, count=1)


#: The classes Material's bundle leaves on <html> as it starts: ``js`` for ``no-js``, and the
#: focus-visible polyfill's ``js-focus-visible`` (which no style sheet of the site selects).
_HTML_CLASSES_SCRIPT = '<script>document.documentElement.className="js js-focus-visible"</script>'
_NO_JS_HTML = re.compile(r'<html\b[^>]*\bclass="no-js"[^>]*>')
#: Material's palette toggle (``palette.html``), whose component flags the body while it sets the
#: colours and unflags it once they are set.
_PALETTE_TOGGLE = 'data-md-component="palette"'
_BODY = re.compile(r"<body\b")


def as_the_bundle_leaves_it(html: str) -> tuple[str, str]:
    """The page with ``<html>``'s classes and ``<body>``'s palette flag already as Material's
    bundle sets them as it starts, and the inline script that sets the classes (for the top of
    ``<head>``; empty on a page that is not Material's).

    Why: the bundle's first steps change attributes that the theme's style sheets select over the
    whole page — the classes of ``<html>`` (selectors such as ``.md-typeset table:not([class])``
    make any class change there restyle every element) and ``data-md-color-switching`` on
    ``<body>`` (``[data-md-color-switching] *`` turns transitions off while the palette is set).
    Each change costs a style pass over the whole page, inside the bundle's start: the task that
    holds a phone's main thread longest while a chapter page loads. Set while the page is parsed,
    the bundle's changes are no changes. Without JavaScript the script does not run and ``no-js``
    stays; the palette flag only turns transitions off until the bundle's palette removes it."""
    if not _NO_JS_HTML.search(html):
        return html, ""
    if _PALETTE_TOGGLE in html:
        html = _BODY.sub("<body data-md-color-switching", html, count=1)
    return html, _HTML_CLASSES_SCRIPT


def stylesheets(site_paths: Iterable[str]) -> list[str]:
    """Material's main and palette style sheets among the site's files, main first."""
    return sorted((p for p in site_paths if _STYLESHEET.match(p)), key=lambda p: 0 if "/main." in p else 1)


def palette(config: Any) -> dict[str, str]:
    """Primary and accent colour names of the theme's first palette (Material's attributes)."""
    theme = config.theme
    value = theme.get("palette") if hasattr(theme, "get") else None
    first = value[0] if isinstance(value, list) and value else value
    if not isinstance(first, Mapping):
        return {"primary": "indigo", "accent": "indigo"}
    return {k: str(first.get(k) or "indigo").replace(" ", "-") for k in ("primary", "accent")}
