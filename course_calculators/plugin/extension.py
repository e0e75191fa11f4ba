"""The calculators as a Python-Markdown extension: the ``calculator`` fence and the ``{calc …}``
figures, on any build tool that runs Python-Markdown extensions (MkDocs, ProperDocs, Zensical).

A site that is not built by the MkDocs plugin lists it in ``mkdocs.yml``::

    markdown_extensions:
      - pymdownx.superfences
      - course_calculators.plugin.extension:
          packages: [everyday_physics]

and finishes the built folder with ``python -m course_calculators finish site -f mkdocs.yml``
(:mod:`.finish`: the runtime, Pyodide, the wheel, the snapshot, the tables, the embed pages, the
math, the security policy, the offline copy). The MkDocs plugin adds the same extension itself,
with its page state (:class:`CalculatorsExtension`'s ``state``), so both paths render a fence and
a figure with the same functions.

Before superfences reads a page, :class:`_Headers` rewrites each calculator fence's header to the
canonical ``calculator id="…" line="…"`` (:func:`.fence.expand_headers`): the short header
``calculator kettle`` works on every tool, and errors name the line. The fence is registered with
the page's superfences extension then (it must be listed: without it the page's fences would be
text, so the extension refuses to run).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from markdown import Extension
from markdown.preprocessors import Preprocessor
from mkdocs.exceptions import PluginError

from course_calculators import contract

from . import fence, figures, packages, reference


#: Its name in ``markdown_extensions``.
NAME = "course_calculators.plugin.extension"


class ExtensionError(PluginError):
    """The extension cannot run on this page's Markdown (no superfences); the message says what to list."""


@dataclass
class PageState:
    """The page being rendered: its fences and figures (one object for the whole build)."""

    fences: fence.PageFences = field(default_factory=fence.PageFences)
    figures: figures.PageFigures = field(default_factory=figures.PageFigures)
    #: The page's path as errors name it, when the build tool does not say (None: ask the tool).
    page: Callable[[Any], str] | None = None


def page_path(md: Any) -> str:
    """The source path of the page ``md`` renders, where the build tool tells it: Zensical's
    rendering context (its ``zensical.extensions.context`` preprocessor), else ``<markdown>``."""
    try:
        context = md.preprocessors["rendering_context"]
    except (KeyError, IndexError):
        return "<markdown>"
    page = getattr(context, "page", None)
    return str(getattr(page, "path", "") or "<markdown>")


#: Packages registered by this process's extension (Zensical makes a Markdown per page: they are
#: read once per build).
_loaded: dict[tuple[tuple[str, ...], str], list[Path]] = {}


def load_packages(names: list[str], root: Path) -> list[Path]:
    key = (tuple(names), str(root))
    if key not in _loaded:
        _loaded[key] = packages.load(names, root)
    return _loaded[key]


def html_fence(function: str) -> Callable[..., str]:
    """A fence's formatter that returns what ``function`` (``module.name``, no arguments) returns:
    HTML a book computes at build time, put where its fence stands."""
    module, _, name = function.rpartition(".")
    try:
        make = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError) as exc:
        raise ExtensionError(f"html_fences: cannot import {function!r}: {exc}") from None
    return lambda source, language, class_name, options, md, **kwargs: make()


def register(superfences: Any, state: PageState, html_fences: dict[str, str] | None = None) -> None:
    """Add the calculator fence (with ``state``'s formatter), the catalogue fence and the site's
    ``html_fences`` to a page's superfences extension, as its ``custom_fences`` option would (once)."""
    import functools

    from pymdownx import superfences as sf

    names = {f["name"] for f in superfences.superfences}
    ours = [{"name": contract.FENCE_NAME, "format": state.fences.formatter, "validator": state.fences.validator},
            *reference.fences(),
            *({"name": name, "format": html_fence(function)} for name, function in (html_fences or {}).items())]
    for custom in ours:
        if custom["name"] not in names:
            parts = [functools.partial(sf._formatter, class_name=custom["name"], _fmt=custom["format"]),
                     functools.partial(sf._validator, validator=custom.get("validator", sf.default_validator))]
            if hasattr(sf, "default_reset"):  # a fence's reset hook: pymdown-extensions 10.3 and later
                parts.append(functools.partial(sf._reset, _reset=sf.default_reset))
            superfences.extend_super_fences(custom["name"], *parts)


class _Headers(Preprocessor):
    """Starts the page's state, rewrites the fence headers, and hands the fence to superfences."""

    def __init__(self, md: Any, extension: "CalculatorsExtension") -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        state = self.extension.state
        markdown = "\n".join(lines)
        page = state.page(self.md) if state.page else page_path(self.md)
        state.fences.start(page)
        state.figures.start(page, markdown)
        found = list(fence.find(markdown))
        try:
            superfences = self.md.preprocessors["fenced_code_block"].extension
        except (KeyError, IndexError, AttributeError):
            if found:
                raise ExtensionError(f"{page}:{found[0].line}: a calculator fence needs pymdownx.superfences: list it "
                                     "under markdown_extensions in mkdocs.yml") from None
            return lines
        register(superfences, state, self.extension.getConfig("html_fences"))
        if not found:
            return lines
        return fence.expand_headers(markdown).split("\n")


class CalculatorsExtension(Extension):
    """``course_calculators.plugin.extension``: the fence and the figures of a site's calculators."""

    def __init__(self, state: PageState | None = None, **kwargs: Any) -> None:
        self.config = {
            "packages": [[], "The site's calculator packages, by import name (as the plugin's packages option)."],
            "root": ["", "The folder the packages are found in first (default: the current folder)."],
            "show_source": [True, "Each widget can reveal its module's highlighted source."],
            "html_fences": [{}, "Fences a book fills with HTML at build time: {fence name: 'module.function'}, "
                                "the function taking no arguments (the LLM book's accuracy-table)."],
        }
        super().__init__(**kwargs)
        self.state = state
        if state is None:  # on its own (Zensical): the packages are read here, once per build
            names = list(self.getConfig("packages"))
            if not names:
                raise ExtensionError("course_calculators.plugin.extension: give it the site's calculator packages "
                                     "(packages: [my_package])")
            load_packages(names, Path(self.getConfig("root") or ".").resolve())
            self.state = PageState(fence.PageFences(show_source=bool(self.getConfig("show_source"))))

    def extendMarkdown(self, md: Any) -> None:  # noqa: N802 (Python-Markdown's name)
        # After whitespace normalisation (30), before superfences (25) reads the fences.
        md.preprocessors.register(_Headers(md, self), "calculator-headers", 29)
        md.registerExtensions([figures.FiguresExtension(lambda: self.state.figures)], {})


def makeExtension(**kwargs: Any) -> CalculatorsExtension:  # noqa: N802
    return CalculatorsExtension(**kwargs)
