""""Show the Python": each calculator module's highlighted source, a small page of its own.

Widgets load it when a reader opens "Show the Python" (it is most of a page's markup) and link to
it for readers without JavaScript. In widget HTML the folder is written as :data:`SOURCE_PREFIX`
until the page's URL is known; :func:`link_sources` makes it relative to each page.
"""

from __future__ import annotations

import html
import importlib.util
from functools import lru_cache
from pathlib import Path

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

#: Where the source pages land in the built site.
SOURCE_DIR = "assets/calc/source"
SOURCE_PREFIX = "@calculators-source/"


def module_file(module: str) -> str:
    """A module's path as a reader finds it in the repository: ``everyday_physics/kettle.py``."""
    return module.replace(".", "/") + ".py"


def source_file(module: str) -> str:
    """The file, under :data:`SOURCE_DIR`, that holds a module's highlighted source."""
    return f"{module}.html"


@lru_cache(maxsize=None)
def highlighted(module: str) -> str:
    """The module's source, highlighted (empty when it cannot be found)."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin:
        return ""
    return highlighted_code(Path(spec.origin).read_text(encoding="utf-8"))


@lru_cache(maxsize=256)
def highlighted_code(code: str) -> str:
    """Highlighting, by the source's text: ``mkdocs serve`` rebuilds every page on a save, and
    highlights again only the module that changed (seconds for a book's modules)."""
    return highlight(code, PythonLexer(), HtmlFormatter(cssclass="highlight", wrapcode=True))


def source_document(module: str) -> str:
    title = html.escape(module_file(module))
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>\n'
            f"<body><h1>{title}</h1>\n{highlighted(module)}</body></html>\n")


def link_sources(html_text: str, folder: str) -> str:
    """Point the widgets' source links at ``folder`` (the source files, relative to the page)."""
    return html_text.replace(SOURCE_PREFIX, folder)
