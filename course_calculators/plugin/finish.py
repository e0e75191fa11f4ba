"""Finish a built site: everything the calculators need after the pages, on any build tool.

    zensical build -f mkdocs.yml
    python -m course_calculators finish site -f mkdocs.yml

A tool that runs Python-Markdown extensions but no MkDocs plugin (Zensical) renders the widgets
and figures with :mod:`.extension`; this step then does what the plugin does after the pages,
with the plugin's own functions: the wheel and its lock, the memory snapshot (:mod:`.artifacts`),
the runtime and Pyodide's files (:mod:`.assets`), the neighbourhood tables, the "Show the Python"
pages and the embed pages, and each page's head tags, math (:mod:`.katex`), search deferral
(:mod:`.material`), then the security policy and the offline copy. The MkDocs plugin calls
:func:`finish_page` for each page as it writes it.

It refuses, in one line, a site whose pages still hold a calculator fence or figure as text (the
build tool did not run the extension: a garbled page is never published), and it leaves a site the
plugin finished as it is.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any, Callable

from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

import course_calculators
from course_calculators import contract

from . import (assets, embed, esbuild, fence, katex, material, neighbourhood, node, offline, packages, reference,
               render, security, source_pages, wheel)
from .artifacts import ArtifactCache, ArtifactError
from .manifest import RuntimeManifest


class FinishError(PluginError):
    """The site cannot be finished; the message says why, in one line."""


def finish_page(output: str, *, here: str, src: str, widgets: list[str], manifest: RuntimeManifest,
                node_modules: Path, math: bool, defer_search: bool, extra_head: str = "") -> str:
    """One page's HTML as readers get it: its math typeset, its links to the source pages and the
    site root made relative to ``here`` (its site URL), the search worker deferred, and the head
    tags of the runtime (the page's first paint waiting for its first widget, ``widgets[0]``)."""

    def rel(path: str) -> str:
        return get_relative_url(path, here)

    if math:
        output = katex.typeset(output, node_modules, src)
    output = source_pages.link_sources(output, rel(source_pages.SOURCE_DIR + "/"))
    output = output.replace(reference.SITE_ROOT, rel("./"))
    if defer_search:
        output = material.defer_search_worker(output, here, f"{assets.RUNTIME_DIR}/search-deferred.js")
    output, early = material.as_the_bundle_leaves_it(output)
    tags = manifest.head_tags(here, paint_after=widgets[0] if widgets else "")
    tables = neighbourhood.preload_tags(output, rel)
    return security.insert_at_head_top(output, tags + tables + (early and "\n" + early) + extra_head)


#: A widget's root element, and its DOM id.
_WIDGET = re.compile(r'<div class="calc" id="([^"]+)" data-calc="')
#: What a page holds when its build tool did not run the extension: the fence as a code block (its
#: language class, or its header as text), or a figure left as text.
_AS_CODE = re.compile(r'class="[^"]*\blanguage-' + contract.FENCE_NAME + r'\b')
_AS_TEXT = re.compile(r"(?:```|~~~)" + contract.FENCE_NAME + r"\b")
_CODE = re.compile(r"<(code|pre)\b.*?</\1>", re.S)
_FIGURE_TEXT = re.compile(r"\{calc[ \t]+[A-Za-z0-9_-]+[ \t]+[A-Za-z0-9_]+")
#: The runtime's meta tag: a page the plugin (or an earlier finish) already finished.
_FINISHED = f'<meta name="{contract.RUNTIME_META}"'


def page_url(site_dir: Path, page: Path) -> str:
    """A built page's site URL: ``kettle/`` for ``kettle/index.html``, ``404.html`` for itself."""
    rel_path = page.relative_to(site_dir).as_posix()
    if rel_path == "index.html":
        return "./"
    return rel_path[: -len("index.html")] if rel_path.endswith("/index.html") else rel_path


def unrendered(text: str) -> str:
    """Why a built page shows a calculator as text ("" when it does not)."""
    if _AS_CODE.search(text):
        return "a calculator fence left as a code block"
    prose = _CODE.sub("", text)  # a page may show the syntax in code
    if _AS_TEXT.search(prose):
        return "a calculator fence left as text"
    if _FIGURE_TEXT.search(prose):
        return "a {calc …} figure left as text"
    return ""


def site_pages(site_dir: Path) -> list[Path]:
    """The built pages, without the ones this step writes (embed and source pages)."""
    skip = (site_dir / contract.EMBED_DIR, site_dir / source_pages.SOURCE_DIR)
    return sorted(p for p in site_dir.rglob("*.html")
                  if not any(p.is_relative_to(folder) for folder in skip))


def check_rendered(site_dir: Path, pages: list[Path]) -> None:
    for page in pages:
        why = unrendered(page.read_text(encoding="utf-8", errors="replace"))
        if why:
            raise FinishError(
                f"{page.relative_to(site_dir)}: {why}: the build tool did not run the calculators' Markdown extension; "
                "list `course_calculators.plugin.extension` under markdown_extensions (or build with the MkDocs plugin)")


def _docs_pages(docs_dir: Path) -> dict[str, str]:
    return {p.relative_to(docs_dir).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(docs_dir.rglob("*.md"))}


def _doc_url(src: str, use_directory_urls: bool) -> str:
    stem = src[:-3]
    if stem == "index" or stem.endswith("/index"):
        return stem[:-5] or "./"
    return f"{stem}/" if use_directory_urls else f"{stem}.html"


class _Chapter:
    """What the embed pages ask of a chapter page: its Markdown and its URL."""

    def __init__(self, text: str, url: str) -> None:
        self.content_string, self.url = text, url


def options_of(config: Any) -> tuple[Any, list[str]]:
    """The plugin's options (its defaults when mkdocs.yml lists no ``calculators`` plugin) and the
    calculator packages (the plugin's, else the extension's)."""
    from .config import CalculatorsConfig

    plugin = config.plugins.get("calculators") if config.plugins else None
    if plugin is not None:
        options = plugin.config
    else:
        options = CalculatorsConfig()
        options.load_dict({})
        errors, _ = options.validate()
        if errors:
            raise FinishError(f"calculators: {errors[0][1]}")
    names = list(options.packages) or list(config.mdx_configs.get("course_calculators.plugin.extension", {})
                                           .get("packages", []))
    if not names:
        raise FinishError("calculators: no calculator packages: give them to the `calculators` plugin or to "
                          "course_calculators.plugin.extension (packages: [my_package])")
    return options, names


def finish_site(site_dir: Path, config_file: Path, *, say: Callable[[str], None] = print) -> int:
    """Finish the built site in ``site_dir`` (its sources described by ``config_file``); return
    the number of pages finished (0 when the plugin had finished them already)."""
    from mkdocs.config import load_config

    site_dir, config_file = site_dir.resolve(), config_file.resolve()
    if not (site_dir / "index.html").is_file() and not any(site_dir.rglob("*.html")):
        raise FinishError(f"{site_dir}: no built pages here; build the site first")
    pages = site_pages(site_dir)
    check_rendered(site_dir, pages)
    if any(_FINISHED in p.read_text(encoding="utf-8", errors="replace") for p in pages):
        say(f"{site_dir}: already finished (the MkDocs plugin built it)")
        return 0
    config = load_config(str(config_file), site_dir=str(site_dir))
    options, names = options_of(config)
    root = config_file.parent
    node_modules = (root / options.node_modules).resolve()
    pyodide_dir = assets.check_node_modules(node_modules)
    if options.math:
        katex.check_installed(node_modules)
    try:
        node.find_node()
        esbuild.esbuild_dir(node_modules)
    except (node.NodeError, esbuild.BundleError) as exc:
        raise FinishError(str(exc)) from None
    bundles = esbuild.BundleCache()
    bundles.start(node_modules)
    try:
        return _finish(site_dir, config, options, names, root, node_modules, pyodide_dir, pages, bundles, say)
    finally:
        bundles.close()
        katex.close()


def _finish(site_dir: Path, config: Any, options: Any, names: list[str], root: Path, node_modules: Path,
            pyodide_dir: Path, pages: list[Path], bundles: esbuild.BundleCache, say: Callable[[str], None]) -> int:
    import tempfile

    course_calculators.unregister_all()
    neighbourhood.RUNS.clear()
    neighbourhood.TABLES.clear()
    folders = packages.load(names, root)
    docs = _docs_pages(Path(config.docs_dir))
    # The checks the plugin makes before the slow steps, and the widgets rendered again from the
    # pages' fences, with the formatter the extension ran: their neighbourhood tables are written
    # here, and each page must refer to the tables its widgets have now (else it is stale).
    fences = fence.PageFences(show_source=options.show_source)
    for src, text in docs.items():
        fences.check_page(src, text)
    chapters = {}
    for src, text in docs.items():
        for calc_id in fence.calculators_used(text):
            chapters.setdefault(calc_id, _Chapter(text, _doc_url(src, config.use_directory_urls)))
    for calc in course_calculators.CALCULATORS.values():
        neighbourhood.check_calculator(calc, render.shown_params(calc, embed.shown_controls(calc, chapters.get(calc.id))))
    for src, text in docs.items():
        fences.start(src)
        for found in fence.find(text):
            opts: dict[str, Any] = {"id": found.calc_id, "line": found.line}
            fences._format(fence.body(text, found), opts)
    with tempfile.TemporaryDirectory(prefix="calculators-") as tmp:
        cache = ArtifactCache(Path(tmp), root / options.cache_dir if options.cache_dir else None)
        try:
            built = cache.get(pyodide_dir, folders, with_snapshot=options.snapshot,
                              digest=wheel.sources_digest(packages=folders))
        except ArtifactError as exc:
            raise FinishError(f"calculators: {exc}") from None
        try:
            scripts = bundles.get(node_modules)
        except (node.NodeError, esbuild.BundleError) as exc:
            raise FinishError(str(exc)) from None
        sizes = offline.SizesAhead(pyodide_dir / n for n in assets.PYODIDE_FILES) if options.offline else None
        vendor = [*options.vendor, *(g for g in katex.VENDOR if options.math and g not in options.vendor)]
        found, manifest = assets.collect(node_modules, built, scripts, charts=options.charts, vendor=vendor,
                                         service_worker=offline.SW_NAME if options.offline else "",
                                         boot_timeout_ms=round(options.boot_timeout * 1000),
                                         run_timeout_ms=round(options.run_timeout * 1000))
        assets.write(site_dir, found)
    if options.show_source:
        for module in sorted({calc.module for calc in course_calculators.CALCULATORS.values()}):
            out = site_dir / source_pages.SOURCE_DIR / source_pages.source_file(module)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(source_pages.source_document(module), encoding="utf-8")
    site_paths = [p.relative_to(site_dir).as_posix() for p in site_dir.rglob("*") if p.is_file()]
    extra_css = [str(c) for c in config.extra_css if "://" not in str(c)]
    stylesheets = material.stylesheets(site_paths) + [c for c in extra_css if c != assets.STYLESHEET] + [assets.STYLESHEET]
    for calc in course_calculators.CALCULATORS.values():
        chapter = chapters.get(calc.id)
        out = site_dir / contract.embed_page(calc.id)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(embed.render_page(
            calc, head=lambda here, paint_after: manifest.head_tags(here, paint_after=paint_after),
            stylesheets=stylesheets, chapter_url=chapter.url if chapter else None,
            site_name=str(config.site_name or ""), palette=material.palette(config),
            show_source=options.show_source, shown=embed.shown_controls(calc, chapter)), encoding="utf-8")
    tables = set(neighbourhood.TABLES.files)
    for page in pages:
        text = page.read_text(encoding="utf-8")
        here = page_url(site_dir, page)
        for name in re.findall(re.escape(neighbourhood.TABLES_DIR) + r"/([0-9a-f]+\.json)", text):
            if name not in tables:
                raise FinishError(f"{page.relative_to(site_dir)}: its widgets are older than the calculators' "
                                  "sources; build the site again, then finish it")
        widgets = _WIDGET.findall(text)
        if options.math:
            text = katex.with_stylesheet(text, get_relative_url(katex.CSS, here))
        css = ""
        if widgets and assets.STYLESHEET not in text:  # the plugin adds it to extra_css; a tool without it does not
            css = f'\n<link rel="stylesheet" href="{html.escape(get_relative_url(assets.STYLESHEET, here))}">'
        text = finish_page(text, here=here, src=page.relative_to(site_dir).as_posix(), widgets=widgets,
                           manifest=manifest, node_modules=node_modules, math=options.math,
                           defer_search=options.defer_search)
        if css:  # after the theme's style sheets, as extra_css would be
            text = text.replace("</head>", css + "\n</head>", 1)
        page.write_text(text, encoding="utf-8")
    neighbourhood.TABLES.write(site_dir)
    if options.security:
        security.harden_site(site_dir)
    if options.offline:
        offline.write_service_worker(site_dir, manifest.versioned_urls(), sizes)
    say(f"{site_dir}: finished {len(pages)} pages, {len(course_calculators.CALCULATORS)} calculators")
    return len(pages)
