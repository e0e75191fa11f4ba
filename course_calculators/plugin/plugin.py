"""The ``calculators`` MkDocs plugin: one line in ``plugins:`` turns fenced blocks into live widgets.

The hooks, in the order MkDocs calls them; each hands its work to a module of its own:

- ``on_config``: register the site's calculator packages (:mod:`.packages`) and the Markdown
  extension (:mod:`.extension`: the fence and the figures, as other build tools run them);
- ``on_files``: add the runtime (bundled by :mod:`.esbuild`), Pyodide and the Python artifacts
  (:mod:`.assets`, :mod:`.artifacts`),
  the "Show the Python" pages (:mod:`.source_pages`) and the embed pages (:mod:`.embed`);
- ``on_page_markdown`` / ``on_post_page``: the page the extension renders, then each written
  page finished by :func:`.finish.finish_page` (the math, the head tags of the runtime manifest,
  mkdocs-material's deferred search), the function the finish command applies to other tools' pages;
- ``on_post_build`` (last): the security policy (:mod:`.security`) and the service worker (:mod:`.offline`),
  which hash the pages as finally written.

Under ``mkdocs serve`` (:mod:`.live`): no snapshot (the worker boots Python the normal way), a
broken calculator becomes a banner on every page and a line in the terminal, not a failed rebuild,
and a save that changed only the calculators' Python reaches the open page's worker (its digest and
the build's state file), not a page reload.
"""

from __future__ import annotations

import logging
import mimetypes
import tempfile
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.utils import get_relative_url

import course_calculators
from course_calculators import contract

from . import (assets, embed, esbuild, extension, fence, figures, finish, katex, live, neighbourhood, node, offline,
               packages, reference, render, security, source_pages, wheel)
from .artifacts import ArtifactCache, ArtifactError
from .config import CalculatorsConfig
from .manifest import RuntimeManifest

log = logging.getLogger("mkdocs.plugins.calculators")


class CalculatorsPlugin(BasePlugin[CalculatorsConfig]):
    supports_multiple_instances = False

    def __init__(self) -> None:
        self._serving = False
        self._tmp = tempfile.TemporaryDirectory(prefix="calculators-")
        self._artifacts = ArtifactCache(Path(self._tmp.name))
        self._bundles = esbuild.BundleCache()
        self._packages: list[Path] = []
        #: Under `mkdocs serve`: this build's calculator problems, shown in the pages (None otherwise).
        self._live: live.LiveErrors | None = None
        #: The package folders serve watches, a broken one's included.
        self._watched: list[Path] = []
        self._templates = live.TemplateBytecode()
        self._stops = live.StopCheck()  # under serve: the stops the build checks, after the rebuild
        #: wheel.sources_digest of this build's packages (read once, in on_config).
        self._sources_digest = ""
        self._manifest: RuntimeManifest | None = None
        self._sizes: offline.SizesAhead | None = None
        self.fences = fence.PageFences()
        self.figures = figures.PageFigures()
        self._page = "<markdown>"  # the page being rendered (its source path)
        #: The widgets' DOM ids of each page, by source path: MkDocs renders every page's Markdown
        #: before it writes any page, so on_post_page reads what on_page_content recorded.
        self._widgets: dict[str, list[str]] = {}
        #: Under serve: each page's widgets as the fence rendered them, and its digest, by page URL.
        self._shapes: dict[str, list[tuple[str, str]]] = {}
        self._digests: dict[str, str] = {}

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self._serving = command == "serve"
        # Under serve a save must reach the page fast: each table keeps its first rings only.
        neighbourhood.budget_in_force = 0 if self._serving else None
        self._live = live.LiveErrors() if self._serving else None
        if self.config.enabled:  # esbuild's own process, beside the build until on_files collects it
            self._bundles.start(Path(self.config.node_modules))
        # `mkdocs serve` and the tests' servers use mimetypes; module workers need the right types.
        mimetypes.add_type("application/wasm", ".wasm")
        mimetypes.add_type("text/javascript", ".mjs")

    def on_config(self, config: Any) -> Any:
        if not self.config.enabled:
            return config
        self._stops.cancel()  # serve's check of the last build's stops gives way to this build
        # Each build (and every `mkdocs serve` rebuild) reads the packages afresh.
        course_calculators.unregister_all()
        source_pages.highlighted.cache_clear()  # highlighted_code keeps each text's highlighting
        neighbourhood.RUNS.clear()  # the modules are read afresh: so are their runs
        neighbourhood.TABLES.clear()  # and the pages' tables are rendered afresh
        root = Path(config.config_file_path or ".").resolve().parent
        self._artifacts.cache_dir = root / self.config.cache_dir if self.config.cache_dir else None
        self._node_modules = Path(self.config.node_modules)
        self._pyodide_dir = assets.check_node_modules(self._node_modules, root)
        try:  # Node and esbuild: both are needed by every build, so said before anything is built
            node.find_node()
            esbuild.check(self._node_modules)  # the wheel's bundles, or esbuild to make them
        except (node.NodeError, esbuild.BundleError) as exc:
            raise PluginError(str(exc)) from None
        if self._serving:  # a rebuild: esbuild again when a browser source changed since the last
            self._bundles.start(self._node_modules)
        if self.config.offline and not self._serving:  # the offline copy's size: Pyodide's files measured from now on
            self._sizes = offline.SizesAhead(self._pyodide_dir / name for name in assets.PYODIDE_FILES)
        if self._live is None:
            self._packages = packages.load(self.config.packages, root)
        else:
            self._packages = self._load_live(root)
        # An inline figure's number holds while no calculator source changed (a Markdown-only save).
        digest = wheel.sources_digest(packages=self._packages)
        if digest != self._sources_digest:
            figures.compute.cache_clear()
            self._sources_digest = digest
        self.fences = fence.PageFences(show_source=self.config.show_source, live=self._live)
        self.figures = figures.PageFigures(live=self._live)
        self._widgets = {}
        self._shapes, self._digests = {}, {}
        if "pymdownx.superfences" not in config.markdown_extensions:
            config.markdown_extensions.append("pymdownx.superfences")
        custom = config.mdx_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
        ours = {contract.FENCE_NAME, *(f["name"] for f in reference.fences())}
        custom[:] = [f for f in custom if f.get("name") not in ours]
        custom.extend(reference.fences())
        # The fence and the figures: the Markdown extension other tools run (extension.py), with
        # this plugin's page state. A site that lists the extension for Zensical gets it once.
        config.markdown_extensions[:] = [e for e in config.markdown_extensions if e != extension.NAME]
        listed = config.mdx_configs.pop(extension.NAME, None) or {}
        state = extension.PageState(self.fences, self.figures, page=lambda md: self._page)
        config.markdown_extensions.append(extension.CalculatorsExtension(state, html_fences=listed.get("html_fences", {})))
        if assets.STYLESHEET not in config.extra_css:
            config.extra_css.append(assets.STYLESHEET)
        if self.config.math:  # KaTeX's stylesheet and fonts, self-hosted, whether or not the site lists them
            katex.check_installed(self._node_modules)
            self.config.vendor = [*self.config.vendor, *(g for g in katex.VENDOR if g not in self.config.vendor)]
            if katex.CSS not in config.extra_css:
                config.extra_css.append(katex.CSS)
        return config

    def on_files(self, files: Files, *, config: Any) -> Files:
        if not self.config.enabled:
            return files
        # Every mistake caught here, in CPython, before any snapshot: each page's fences read as
        # their formatter will read them (under serve a bad fence is shown on its page instead),
        # then the defaults, each preset and each control's stops compute (neighbourhood.py; the
        # pages' tables reuse these runs).
        if self._live is None:
            for file in sorted(files.documentation_pages(), key=lambda f: f.src_uri):
                try:
                    text = file.content_string
                except (OSError, UnicodeDecodeError):
                    continue  # mkdocs says so when it reads the page
                self.fences.check_page(file.src_uri, text)
        chapters = embed.chapter_pages(files)  # the embed page's table is the check's own
        for calc in course_calculators.CALCULATORS.values():
            shown = render.shown_params(calc, embed.shown_controls(calc, chapters.get(calc.id)))
            try:
                neighbourhood.check_calculator(calc, shown)
            except neighbourhood.CheckError as exc:
                if self._live is None:
                    raise
                self._live.add(exc)  # under serve: the banner and the terminal say it; serving goes on
            if self._live is not None:
                self._stops.add(calc, shown)
        for exc in self._stops.problems(self._sources_digest) if self._live is not None else ():
            self._live.add(exc)  # a stop that failed in serve's check after the last rebuild
        try:
            # No snapshot under serve: it takes seconds, and a reload boots Python normally fast enough.
            built = self._artifacts.get(self._pyodide_dir, self._packages,
                                        with_snapshot=self.config.snapshot and not self._serving,
                                        compress=not self._serving, digest=self._sources_digest)
        except ArtifactError as exc:
            raise PluginError(f"calculators: {exc}") from None
        try:
            bundles = self._bundles.get(self._node_modules)
        except (node.NodeError, esbuild.BundleError) as exc:
            raise PluginError(str(exc)) from None
        sw = offline.SW_NAME if self.config.offline and not self._serving else ""
        self._manifest = assets.add(files, config, self._node_modules, built, bundles, charts=self.config.charts,
                                    vendor=self.config.vendor, service_worker=sw,
                                    boot_timeout_ms=round(self.config.boot_timeout * 1000),
                                    run_timeout_ms=round(self.config.run_timeout * 1000))
        if self.config.show_source:
            for module in sorted({calc.module for calc in course_calculators.CALCULATORS.values()}):
                files.append(File.generated(config, f"{source_pages.SOURCE_DIR}/{source_pages.source_file(module)}",
                                            content=source_pages.source_document(module)))
        try:
            embed.add_pages(files, config, lambda here, paint_after: self._manifest.head_tags(here, paint_after=paint_after),
                            show_source=self.config.show_source)
        except PluginError as exc:
            if self._live is None:
                raise
            self._live.add(exc, "its embed page")
        return files

    def on_nav(self, nav: Any, *, config: Any, files: Files) -> Any:
        # With an explicit nav, a page that is not in it is built but linked from nowhere.
        self._in_nav = {p.file.src_uri for p in nav.pages} if config.nav else None
        return nav

    def on_env(self, env: Any, *, config: Any, files: Files) -> Any:
        if self._serving:  # the theme's templates, compiled once for all of serve's rebuilds
            env.bytecode_cache = self._templates
        return env

    def on_page_markdown(self, markdown: str, *, page: Any, config: Any, files: Files) -> str:
        if not self.config.enabled:
            return markdown
        self._page = page.file.src_uri  # the extension starts the page's fences and figures with it
        return markdown

    def on_page_content(self, html: str, *, page: Any, config: Any, files: Files) -> str:
        if self.config.enabled:
            self._widgets[page.file.src_uri] = list(self.fences.dom_ids)
            self._shapes[page.file.src_uri] = list(self.fences.shapes)
            in_nav = getattr(self, "_in_nav", None)
            if self.fences.dom_ids and in_nav is not None and page.file.src_uri not in in_nav:
                log.warning(f"calculators: {page.file.src_uri} holds a calculator but is not in the nav of "
                            "mkdocs.yml: no page links to it. Add it to nav.")
        return html

    def on_post_page(self, output: str, *, page: Any, config: Any) -> str:
        """Tell the page where the runtime lives (relative to the page), and load its script."""
        if not self.config.enabled:
            return output
        here = page.url or "."
        live_tags = ""
        if self._live is not None:  # before any change: the widgets are found as the fence rendered them
            digest = live.page_digest(output, self._shapes.get(page.file.src_uri, []), self._live.problems)
            self._digests[page.url] = digest
            live_tags = "\n" + live.head_tags(page.url, digest, get_relative_url(live.STATE_FILE, here))
        widgets = self._widgets.get(page.file.src_uri, [])
        output = finish.finish_page(output, here=here, src=page.file.src_uri, widgets=widgets,
                                    manifest=self._manifest, node_modules=self._node_modules, math=self.config.math,
                                    defer_search=self.config.defer_search, extra_head=live_tags)
        return self._live.insert_banner(output) if self._live is not None else output

    @event_priority(-100)  # after every other plugin: these hash the pages as finally written
    def on_post_build(self, *, config: Any) -> None:
        if self.config.enabled:  # the widgets' tables, before the offline copy lists the site's files
            neighbourhood.TABLES.write(Path(config.site_dir))
        if self.config.enabled and self._live is not None:  # what the open pages read after this rebuild
            live.write_state(Path(config.site_dir), self._manifest.versioned_urls()[self._manifest.lock],
                             self._manifest.lock_sha256, self._digests)
            self._stops.start(self._sources_digest)  # every stop, as a build checks them, in a thread
        if not self.config.enabled or self._serving:  # the live-reload script is inline; no offline copy
            return
        site_dir = Path(config.site_dir)
        if self.config.security:
            security.harden_site(site_dir)
        if self.config.offline:  # last: its version covers the pages as finally written
            offline.write_service_worker(site_dir, self._manifest.versioned_urls(), self._sizes)

    def _load_live(self, root: Path) -> list[Path]:
        """Under serve: each package and each calculator module checked and registered on its own;
        a broken one is recorded (and still watched), the others are served (packages.load_live)."""
        self._live.reset(packages.folders(self.config.packages, root))
        for folder in self._live.folders:
            if folder not in self._watched:
                self._watched.append(folder)
        return packages.load_live(self.config.packages, root, self._live.add)

    def on_shutdown(self) -> None:
        self._stops.cancel()
        self._bundles.close()
        katex.close()  # a build that failed before on_files collected esbuild's bundles

    def on_serve(self, server: Any, *, config: Any, builder: Any) -> Any:
        with live.polled_often(server):  # a saved calculator is seen within 0.1 s, not MkDocs' 0.5 s
            for folder in dict.fromkeys([*self._packages, *self._watched]):
                server.watch(str(folder))
        server.watch(str(esbuild.BROWSER))  # the runtime's own sources: bundled again when one changes
        live.rebuild_soon(server)
        self._stops.attach(server)  # its check of the stops asks for a rebuild when one fails
        return server
