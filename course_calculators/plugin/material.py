"""What the plugin knows about mkdocs-material: its search worker, its palette, its style sheets.

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
