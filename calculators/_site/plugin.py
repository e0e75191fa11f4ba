"""The ``calculators`` MkDocs plugin: one line in ``plugins:`` turns fenced blocks into live widgets.

It registers the ``calculator`` fence with pymdownx.superfences, adds the browser runtime (page
script, worker, styles) and the files it needs from ``node_modules`` (Pyodide's core, Chart.js,
and any ``vendor`` globs such as KaTeX), builds the calculators' wheel and Pyodide lock file, and
tells each page where they are with a ``<meta name="calculators-runtime">`` tag. ``mkdocs serve``
watches the calculator modules and reloads them on change.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import logging
import mimetypes
import posixpath
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files
from mkdocs.utils import get_relative_url

import calculators

from . import embed, fence, offline, packages, render, security, snapshot, wheel

log = logging.getLogger("mkdocs.plugins.calculators")

STATIC = Path(__file__).parent / "static"
#: Where things land in the built site.
RUNTIME_DIR = "assets/calc"
PYODIDE_DIR = "assets/pyodide"
VENDOR_DIR = "assets/vendor"
#: The Pyodide files a page needs: the loader, the Emscripten module, the wasm binary, the stdlib.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
CHART_JS = "chart.js/dist/chart.umd.min.js"
#: The runtime meta tag's keys that hold site URLs (written relative to each page).
URL_KEYS = frozenset({"worker", "pyodide", "lock", "charts", "snapshot", "sw"})

# `mkdocs serve` and the test server use mimetypes; module workers need the right types.
mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("text/javascript", ".mjs")


class CalculatorsConfig(base.Config):
    node_modules = c.Type(str, default="node_modules")
    """Where ``npm ci`` put the front-end packages (relative to mkdocs.yml)."""
    vendor = c.ListOfItems(c.Type(str), default=[])
    """Globs under ``node_modules`` copied to ``assets/vendor/`` (for example KaTeX's files)."""
    show_source = c.Type(bool, default=True)
    """Each widget can reveal the highlighted source of the module that computes it."""
    charts = c.Type(bool, default=True)
    """Ship Chart.js and draw the calculators' charts."""
    offline = c.Type(bool, default=True)
    """Write a service worker (``sw.js``) that precaches the site, so that after a first visit it
    works offline, calculators included. Not used by ``mkdocs serve``."""
    defer_search = c.Type(bool, default=True)
    """With mkdocs-material's search: start its worker (which builds the search index) when the
    reader first searches or 3 s after load, not while Python starts (``static/search-deferred.js``)."""
    security = c.Type(bool, default=True)
    """Give every page a Content-Security-Policy meta tag (only the site's own scripts, plus
    WebAssembly) and integrity hashes on its scripts and style sheets. Not under ``mkdocs serve``."""
    snapshot = c.Type(bool, default=True)
    """Make a Pyodide memory snapshot with the calculators imported (needs Node.js at build time);
    the worker restores it instead of booting Python, and boots normally if restoring fails."""
    packages = c.ListOfItems(c.Type(str), default=[])
    """The site's own calculator packages, by import name (a folder beside mkdocs.yml, or installed):
    stdlib-only modules that each define ``SPEC = Calculator(...)``; shipped in the browser wheel."""


class CalculatorsPlugin(BasePlugin[CalculatorsConfig]):
    supports_multiple_instances = False

    def __init__(self) -> None:
        self._serving = False
        self._tmp = tempfile.TemporaryDirectory(prefix="calculators-")
        self._runtime: dict[str, str] = {}
        self._built: tuple[str, Path, Path, snapshot.Snapshot | None] | None = None
        self._packages: list[Path] = []

    # -- configuration ----------------------------------------------------------------------

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self._serving = command == "serve"

    def on_config(self, config: Any) -> Any:
        if self._serving:
            reload_calculators()
        root = Path(config.config_file_path or ".").resolve().parent
        self._packages = packages.load(self.config.packages, root)
        self._node_modules = (root / self.config.node_modules).resolve()
        pyodide_dir = self._node_modules / "pyodide"
        if not (pyodide_dir / "pyodide-lock.json").exists():
            raise PluginError(
                f"calculators: Pyodide not found in {pyodide_dir}; run `npm ci` (package.json pins it)."
            )
        # Register the fence (once), so a site needs nothing but the plugin line.
        if "pymdownx.superfences" not in config.markdown_extensions:
            config.markdown_extensions.append("pymdownx.superfences")
        sf = config.mdx_configs.setdefault("pymdownx.superfences", {})
        fences = sf.setdefault("custom_fences", [])
        if not any(f.get("name") == fence.FENCE_NAME for f in fences):
            fences.append({
                "name": fence.FENCE_NAME,
                "class": fence.FENCE_NAME,
                "format": fence.formatter,
                "validator": fence.validator,
            })
        for css in (f"{RUNTIME_DIR}/calc.css",):
            if css not in config.extra_css:
                config.extra_css.append(css)
        script = f"{RUNTIME_DIR}/runtime.js"
        if script not in [str(s) for s in config.extra_javascript]:
            config.extra_javascript.append(script)
        return config

    # -- files ------------------------------------------------------------------------------

    def on_files(self, files: Files, *, config: Any) -> Files:
        def add(dest: str, src: Path) -> None:
            if not src.is_file():
                raise PluginError(f"calculators: missing {src}; run `npm ci`.")
            files.append(File.generated(config, dest, abs_src_path=str(src)))

        for path in sorted(STATIC.iterdir()):
            if path.is_file():
                add(f"{RUNTIME_DIR}/{path.name}", path)
        pyodide_dir = self._node_modules / "pyodide"
        # Pyodide's files keep their names (Pyodide finds them by name), in a folder named by
        # Pyodide's version: a new version gets new URLs, so no cache pairs old and new files.
        core = f"{PYODIDE_DIR}/{pyodide_version(pyodide_dir)}"
        for name in PYODIDE_FILES:
            add(f"{core}/{name}", pyodide_dir / name)
        whl, lock, snap = self._wheel_and_lock(pyodide_dir)
        add(f"{PYODIDE_DIR}/{whl.parent.name}/{whl.name}", whl)
        lock_sha256 = hashlib.sha256(lock.read_bytes()).hexdigest()
        add(f"{PYODIDE_DIR}/pyodide-lock.json", lock)
        if snap:
            add(f"{PYODIDE_DIR}/{snap.path.name}", snap.path)
        if self.config.charts:
            add(f"{VENDOR_DIR}/chart.umd.min.js", self._node_modules / CHART_JS)
        for pattern in self.config.vendor:
            matches = sorted(self._node_modules.glob(pattern))
            if not matches:
                raise PluginError(f"calculators: vendor glob {pattern!r} matches nothing in {self._node_modules}")
            for src in matches:
                add(f"{VENDOR_DIR}/{src.relative_to(self._node_modules).as_posix()}", src)
        # ?v=<content hash>: a new version of a file is a new URL, so caching it long is safe.
        chart_js = (self._node_modules / CHART_JS).read_bytes() if self.config.charts else b""
        self._runtime = {
            "worker": f"{RUNTIME_DIR}/worker.js?v={security.version_tag((STATIC / 'worker.js').read_bytes())}",
            "pyodide": f"{core}/",
            "lock": f"{PYODIDE_DIR}/pyodide-lock.json",
            "charts": f"{VENDOR_DIR}/chart.umd.min.js?v={security.version_tag(chart_js)}" if chart_js else "",
            "chartsIntegrity": security.sri(chart_js) if chart_js else "",
            "lockSha256": lock_sha256,
            "snapshot": f"{PYODIDE_DIR}/{snap.path.name}" if snap else "",
            "snapshotSha256": snap.sha256 if snap else "",
            "sw": offline.SW_NAME if self.config.offline and not self._serving else "",
            "version": lock_sha256[:12],
        }
        if self.config.show_source:  # each calculator module's highlighted source, loaded on demand
            for module in sorted({calc.module for calc in calculators.CALCULATORS.values()}):
                files.append(File.generated(config, f"{RUNTIME_DIR}/source/{render.source_file(module)}",
                                            content=render.source_document(module)))
        # One standalone page per calculator, for iframes on other sites (embed.py).
        embed.add_pages(files, config, lambda here: self.head_tags(here, has_widgets=True),
                        show_source=self.config.show_source)
        return files

    def _wheel_and_lock(self, pyodide_dir: Path) -> tuple[Path, Path, snapshot.Snapshot | None]:
        """The browser wheel, lock file and memory snapshot, rebuilt only when the calculators'
        sources change (``mkdocs serve`` calls ``on_files`` on every rebuild, most of them for
        Markdown edits)."""
        digest = wheel.sources_digest(packages=self._packages)
        if self._built and self._built[0] == digest:
            return self._built[1:]
        out = Path(self._tmp.name)
        try:
            # The wheel sits in a folder named by its sources' digest: a new deployment gives it a
            # new URL, so no browser can pair a cached old wheel with the new lock's sha256.
            whl = wheel.build_wheel(out / "wheels" / digest, packages=self._packages)
            lock = wheel.write_lock(pyodide_dir / "pyodide-lock.json", whl, out / "pyodide-lock.json",
                                    base_path=out / "wheels")
            wheel.trim_lock(lock, keep=(wheel.DIST_NAME,))
        except wheel.WheelError as exc:
            raise PluginError(f"calculators: {exc}") from None
        snap = None
        if self.config.snapshot:
            try:
                snap = snapshot.make_snapshot(pyodide_dir, whl, out / "snapshot")
            except snapshot.SnapshotError as exc:
                raise PluginError(f"calculators: {exc}") from None
        self._built = (digest, whl, lock, snap)
        return whl, lock, snap

    # -- pages ------------------------------------------------------------------------------

    def on_page_markdown(self, markdown: str, *, page: Any, config: Any, files: Files) -> str:
        fence.current_page.set(page.file.src_uri)
        render.widget_counter.set({})
        render.show_source.set(self.config.show_source)
        return fence.expand_short_headers(markdown)

    def on_post_page(self, output: str, *, page: Any, config: Any) -> str:
        """Tell the page where the runtime lives (relative to the page), and start Python early."""
        here = page.url or "."
        output = render.link_sources(output, get_relative_url(f"{RUNTIME_DIR}/source/", here))
        if self.config.defer_search:
            output = defer_search_worker(output, here)
        first = _FIRST_WIDGET.search(output)
        return security.insert_at_head_top(output, self.head_tags(here, has_widgets=first is not None,
                                                  first_widget=first.group(1) if first else ""))

    def head_tags(self, here: str, *, has_widgets: bool, first_widget: str = "") -> str:
        """The runtime meta tag and boot.js, which starts the worker while the page still loads.

        With ``first_widget`` (an element id), the browser is asked not to paint the page before
        that widget is parsed (``<link rel=expect blocking=render>``, Chromium 124+; others ignore
        it): the first paint then shows the widget's numbers, never the page without them."""
        runtime = {k: (get_relative_url(v, here) if k in URL_KEYS and v else v) for k, v in self._runtime.items()}
        boot = get_relative_url(f"{RUNTIME_DIR}/boot.js", here)
        start = " data-start" if has_widgets else ""
        expect = f'\n<link rel="expect" href="#{_attr(first_widget)}" blocking="render">' if first_widget else ""
        return (f'<meta name="calculators-runtime" content="{_attr(json.dumps(runtime))}">\n'
                f'<script src="{_attr(boot)}"{start}></script>{expect}')

    def on_post_build(self, *, config: Any) -> None:
        if self._serving:  # the live-reload script is inline; a dev server needs no offline copy
            return
        site_dir = Path(config.site_dir)
        if self.config.security:
            security.harden_site(site_dir)
        if self.config.offline:  # last: its version covers the pages as finally written
            offline.write_service_worker(site_dir)

    def on_serve(self, server: Any, *, config: Any, builder: Any) -> Any:
        server.watch(str(Path(calculators.__file__).parent))
        for folder in self._packages:
            server.watch(str(folder))
        return server


def pyodide_version(pyodide_dir: Path) -> str:
    return json.loads((pyodide_dir / "package.json").read_text())["version"]


_FIRST_WIDGET = re.compile(r'<div class="calc" id="([A-Za-z0-9_-]+)" data-calc="')
_SEARCH_WORKER = re.compile(r'("search": ")((?:[^"]*/)?assets/javascripts/workers/search\.[0-9a-f]+\.min\.js)(")')


def defer_search_worker(html: str, here: str) -> str:
    """Point mkdocs-material's ``__config`` at ``search-deferred.js``, which wraps its worker."""

    def wrap(m: re.Match) -> str:
        page_dir = posixpath.dirname(here.rstrip("/") + "/x")
        real = posixpath.normpath(posixpath.join(page_dir, m.group(2)))  # the worker's site path
        wrapper = f"{RUNTIME_DIR}/search-deferred.js"
        query = "?worker=" + get_relative_url(real, wrapper)
        return m.group(1) + get_relative_url(wrapper, here) + query + m.group(3)

    return _SEARCH_WORKER.sub(wrap, html, count=1)


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def reload_calculators() -> None:
    """Re-import every calculator module (``mkdocs serve`` rebuilds in the same process)."""
    for name in list(sys.modules):
        if name.startswith("calculators.") and not name.startswith("calculators._site"):
            del sys.modules[name]
    importlib.reload(calculators)
    render.source_html.cache_clear()
