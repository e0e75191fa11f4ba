"""The files the plugin adds to a site: the browser runtime, Pyodide, the Python artifacts, vendor files.

Everything is served from the site's own origin. Pyodide's core files keep their names (Pyodide
finds them by name) in a folder named by Pyodide's version; the worker and Chart.js carry
``?v=<content hash>`` in the URLs pages use (the page script gets its own from security.py); so a
new version of any of them gets a new URL. The runtime's scripts are esbuild's (:mod:`.esbuild`),
each with its source map beside it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from . import npm, security
from .artifacts import Artifacts
from .esbuild import Bundles
from .manifest import RuntimeManifest

#: Where things land in the built site.
RUNTIME_DIR = "assets/calc"
PYODIDE_DIR = "assets/pyodide"
VENDOR_DIR = "assets/vendor"
#: The Pyodide files a page needs: the loader, the Emscripten module, the wasm binary; and, when
#: there is no snapshot (whose run makes the two small standard-library zips), the whole stdlib.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
STDLIB = "python_stdlib.zip"
CHART_JS = "chart.js/dist/chart.umd.min.js"
STYLESHEET = f"{RUNTIME_DIR}/calc.css"
RUNTIME_SCRIPT = f"{RUNTIME_DIR}/runtime.js"


def pyodide_version(pyodide_dir: Path) -> str:
    return json.loads((pyodide_dir / "package.json").read_text())["version"]


def check_node_modules(node_modules: Path, site_root: Path | None = None) -> Path:
    """The Pyodide folder under ``node_modules``, or a PluginError saying how to install it."""
    pyodide_dir = node_modules / "pyodide"
    if not (pyodide_dir / "pyodide-lock.json").exists():
        raise PluginError(f"calculators: Pyodide not found in {pyodide_dir}; {npm.advice(site_root)}.")
    return pyodide_dir


#: One file of the runtime: its site path, and its source file or its content.
Asset = tuple[str, "Path | str | bytes"]


def collect(node_modules: Path, artifacts: Artifacts, bundles: Bundles, *, charts: bool, vendor: list[str],
            boot_timeout_ms: int, run_timeout_ms: int, service_worker: str = "") -> tuple[list[Asset], RuntimeManifest]:
    """Every runtime file a site needs, and the manifest that tells pages where they are: the
    plugin adds them to MkDocs' files (:func:`add`), the finish command writes them (:mod:`.finish`)."""
    found: list[Asset] = []

    def add_file(dest: str, src: Path) -> None:
        if not src.is_file():
            raise PluginError(f"calculators: missing {src}; {npm.advice(node_modules.parent)}.")
        found.append((dest, src))

    scripts = bundles.files
    for name, content in scripts.items():
        found.append((f"{RUNTIME_DIR}/{name}", content))
    pyodide_dir = node_modules / "pyodide"
    core = f"{PYODIDE_DIR}/{pyodide_version(pyodide_dir)}"
    snap = artifacts.snapshot
    for name in PYODIDE_FILES if snap else (*PYODIDE_FILES, STDLIB):
        add_file(f"{core}/{name}", pyodide_dir / name)
    add_file(f"{PYODIDE_DIR}/{artifacts.wheel.parent.name}/{artifacts.wheel.name}", artifacts.wheel)
    add_file(f"{PYODIDE_DIR}/pyodide-lock.json", artifacts.lock)
    if snap:
        for path in (snap.path, snap.stdlib, snap.boot_stdlib):
            add_file(f"{PYODIDE_DIR}/{path.name}", path)
    chart_js = b""
    if charts:
        add_file(f"{VENDOR_DIR}/chart.umd.min.js", node_modules / CHART_JS)
        chart_js = (node_modules / CHART_JS).read_bytes()
    for pattern in vendor:
        matches = sorted(node_modules.glob(pattern))
        if not matches:
            raise PluginError(f"calculators: vendor glob {pattern!r} matches nothing in {node_modules}")
        for src in matches:
            add_file(f"{VENDOR_DIR}/{src.relative_to(node_modules).as_posix()}", src)
    return found, RuntimeManifest(
        script=RUNTIME_SCRIPT,
        worker=f"{RUNTIME_DIR}/worker.js?v={security.version_tag(scripts['worker.js'])}",
        pyodide=f"{core}/",
        lock=f"{PYODIDE_DIR}/pyodide-lock.json",
        lock_sha256=artifacts.lock_sha256,
        version=artifacts.lock_sha256[:12],
        boot_timeout_ms=boot_timeout_ms,
        run_timeout_ms=run_timeout_ms,
        charts=f"{VENDOR_DIR}/chart.umd.min.js?v={security.version_tag(chart_js)}" if chart_js else "",
        charts_integrity=security.sri(chart_js) if chart_js else "",
        snapshot=f"{PYODIDE_DIR}/{snap.path.name}" if snap else "",
        snapshot_sha256=snap.sha256 if snap else "",
        sw=service_worker,
        stdlib=f"{PYODIDE_DIR}/{snap.stdlib.name}" if snap else "",
        boot_stdlib=f"{PYODIDE_DIR}/{snap.boot_stdlib.name}" if snap else "",
    )


def add(files: Files, config: Any, node_modules: Path, artifacts: Artifacts, bundles: Bundles, *, charts: bool,
        vendor: list[str], boot_timeout_ms: int, run_timeout_ms: int, service_worker: str = "") -> RuntimeManifest:
    """Add every runtime file to MkDocs' ``files``; return the manifest that tells pages where they are."""
    found, manifest = collect(node_modules, artifacts, bundles, charts=charts, vendor=vendor,
                              boot_timeout_ms=boot_timeout_ms, run_timeout_ms=run_timeout_ms,
                              service_worker=service_worker)
    for dest, src in found:
        if isinstance(src, Path):
            files.append(File.generated(config, dest, abs_src_path=str(src)))
        else:
            files.append(File.generated(config, dest, content=src))
    return manifest


def write(site_dir: Path, found: list[Asset]) -> None:
    """Write the runtime files into a built site (the finish command)."""
    for dest, src in found:
        target = site_dir / dest
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(src, Path):
            target.write_bytes(src.read_bytes())
        elif isinstance(src, bytes):
            target.write_bytes(src)
        else:
            target.write_text(src, encoding="utf-8")
