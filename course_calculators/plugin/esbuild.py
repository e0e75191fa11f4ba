"""The browser runtime's served scripts, bundled at build time by esbuild.

The sources are ES modules in ``browser/`` (any module syntax; ``node --test tests/js`` imports
them as they are). Each file of :data:`ENTRIES` is bundled with everything it imports into the
file of the same name under ``assets/calc/``, minified, with a source map beside it
(``runtime.js.map``, its sources named by their path under ``browser/``); :data:`COPIES` are
served as they are. esbuild runs in Node (``esbuild.mjs``) from the site's ``node_modules``, where
the authors' ``npm install`` line puts it beside Pyodide and Chart.js; the same sources and the
same esbuild give the same bytes.

A built distribution carries the bundles (:data:`PREBUILT`, written by :func:`write_prebuilt`
when the wheel is built: ``setup.py``), so an author's site needs no esbuild: a build takes them
while the modules they were made from are unchanged (:func:`prebuilt`), and bundles with esbuild
otherwise (this repository's own edit loop, where no bundles are kept).

A build bundles once; ``mkdocs serve`` watches ``browser/`` and bundles again only when a file
there changed (:class:`BundleCache`). The plugin starts esbuild's process as soon as its options
are read (:meth:`BundleCache.start`) and collects the bundles when it adds the runtime's files: the
third of a second Node and esbuild take to start runs beside the build's own work, not before it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from . import node

log = logging.getLogger("mkdocs.plugins.calculators")

BROWSER = Path(__file__).resolve().parent.parent / "browser"
SCRIPT = Path(__file__).with_name("esbuild.mjs")
#: The bundles a distribution carries, beside the modules they were made from.
PREBUILT = "bundled"
#: In :data:`PREBUILT`: what the bundles were made from (the modules' digest, esbuild's release).
PREBUILT_INDEX = "bundled.json"

IIFE = "iife"  # a classic script (a page's, a host page's, the deferred search worker)
ESM = "esm"  # a module script (the calculators' worker: it imports Pyodide's files by URL)


@dataclass(frozen=True)
class Entry:
    name: str  # its file under browser/ and under assets/calc/
    format: str


ENTRIES = (
    Entry("runtime.js", IIFE),  # every page: starts the worker, binds the widgets
    Entry("worker.js", ESM),  # the Web Worker: Pyodide
    Entry("embed.js", IIFE),  # other sites' pages: embeds as iframes
    Entry("search-deferred.js", IIFE),  # mkdocs-material's search worker, started late
)
#: Served as the file holds it.
COPIES = ("calc.css",)
#: The browsers the site supports run this syntax as it is.
TARGET = ("es2022",)
#: The esbuild release this framework is tested with (package.json pins it; the authors' page
#: gives the npm line); an older one is refused, since its output was never tested.
ESBUILD_VERSION = "0.28.2"
MIN_ESBUILD = (0, 28)


class BundleError(RuntimeError):
    """esbuild is missing or refused the sources; the message says which file and what to do."""


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("-")[0].split(".")[:3] if p.isdigit())


def esbuild_dir(node_modules: Path) -> Path:
    """esbuild's package folder under ``node_modules``, or BundleError saying how to install it."""
    folder = node_modules / "esbuild"
    install = (f"run `npm install --save-exact esbuild@{ESBUILD_VERSION}` beside mkdocs.yml "
               "(the authors' page gives the whole npm line)")
    try:
        version = json.loads((folder / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        raise BundleError(f"course-calculators bundles its browser runtime with esbuild, which is not in "
                          f"{node_modules}: {install}") from None
    if _version(version) < MIN_ESBUILD:
        raise BundleError(f"course-calculators needs esbuild {'.'.join(map(str, MIN_ESBUILD))} or newer; "
                          f"{folder} is {version}: {install}")
    return folder


def sources_digest(root: Path = BROWSER) -> str:
    """A digest of every file under ``root`` (the prebuilt bundles aside): a change to any module
    means new bundles."""
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                       and p.relative_to(root).parts[0] != PREBUILT):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def inputs_digest(root: Path, inputs: tuple[str, ...]) -> str | None:
    """A digest of the modules esbuild read (and the files served as they are), by their path under
    ``root``: what the bundles depend on. None when one of them is missing."""
    h = hashlib.sha256()
    for name in sorted({*inputs, *COPIES}):
        try:
            h.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
        except OSError:
            return None
    return h.hexdigest()


@dataclass(frozen=True)
class Bundles:
    files: dict[str, bytes]
    """Name under ``assets/calc/`` → content: each entry's script and its map, and the copies."""
    inputs: tuple[str, ...]
    """The modules esbuild read, by their path under ``browser/``."""
    digest: str
    """:func:`sources_digest` of the sources, and the esbuild release, they were made from."""


@dataclass
class Running:
    """esbuild at work in its own process (:func:`launch`); :func:`collect` waits for its bundles.
    Its output goes to unnamed temporary files, so the process never waits for a reader."""
    proc: subprocess.Popen
    out: IO[bytes]
    err: IO[bytes]
    folder: Path
    root: Path
    digest: str

    def cancel(self) -> None:
        self.proc.kill()
        self.proc.wait()
        self.out.close()
        self.err.close()


def _digest(root: Path, folder: Path) -> str:
    return f"{sources_digest(root)}-{json.loads((folder / 'package.json').read_text())['version']}"


def launch(node_modules: Path, root: Path = BROWSER, digest: str | None = None, node_path: str = "") -> Running:
    """Start bundling every entry of ``root``; BundleError (or node.NodeError) when that cannot be
    done. ``digest``: :func:`_digest` of ``root``, when the caller has just taken it; ``node_path``:
    the Node to run, when the caller checks its version itself (else :func:`.node.find_node`)."""
    folder = esbuild_dir(node_modules)
    digest = digest or _digest(root, folder)  # before esbuild reads them: a later change is seen by the next build
    request = {"root": str(root), "outdir": str(root / "_bundled"), "target": list(TARGET),
               "entries": [{"name": e.name, "format": e.format} for e in ENTRIES]}
    with tempfile.TemporaryFile() as stdin:
        stdin.write(json.dumps(request).encode("utf-8"))
        stdin.seek(0)
        out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
        try:
            proc = subprocess.Popen([node_path or node.find_node(), str(SCRIPT), str(folder)],
                                    stdin=stdin, stdout=out, stderr=err)
        except BaseException:
            out.close()
            err.close()
            raise
    return Running(proc, out, err, folder, root, digest)


def collect(running: Running) -> Bundles:
    """The bundles of a :func:`launch`, once esbuild is done; BundleError when it refused the sources."""
    try:
        returncode = running.proc.wait()
        running.out.seek(0)
        running.err.seek(0)
        stdout = running.out.read().decode("utf-8")
        stderr = running.err.read().decode("utf-8", errors="replace")
    finally:
        running.out.close()
        running.err.close()
    if returncode != 0:
        lines = (stderr or stdout).strip().splitlines() or ["(no output)"]
        raise BundleError(f"esbuild could not bundle the browser runtime: {lines[0]}"
                          + (f" (and {len(lines) - 1} more lines)" if len(lines) > 1 else ""))
    result = json.loads(stdout)
    for warning in result["warnings"]:
        log.warning(f"calculators: esbuild: {warning}")
    files = {name: text.encode("utf-8") for name, text in sorted(result["files"].items())}
    for name in COPIES:
        files[name] = (running.root / name).read_bytes()
    return Bundles(files, tuple(result["inputs"]), running.digest)


def bundle(node_modules: Path, root: Path = BROWSER) -> Bundles:
    """Bundle every entry of ``root``; BundleError (or node.NodeError) when that cannot be done."""
    return collect(launch(node_modules, root))


def write_prebuilt(node_modules: Path, root: Path = BROWSER, into: Path | None = None) -> Path:
    """Bundle ``root`` with the esbuild of ``node_modules`` and keep the bundles in ``into``
    (default ``root/bundled``), with :data:`PREBUILT_INDEX`; return that folder. A wheel built after
    this carries them (``setup.py`` calls it)."""
    made = bundle(node_modules, root)
    into = into or root / PREBUILT
    if into.exists():
        shutil.rmtree(into)
    into.mkdir(parents=True)
    for name, content in made.files.items():
        if name not in COPIES:
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            (into / name).write_bytes(content)
    index = {"inputs": list(made.inputs), "inputs_sha256": inputs_digest(root, made.inputs),
             "esbuild": made.digest.rpartition("-")[2],
             "files": sorted(n for n in made.files if n not in COPIES)}
    (into / PREBUILT_INDEX).write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    return into


def prebuilt(root: Path = BROWSER) -> Bundles | None:
    """The bundles a distribution carries, when the modules they were made from are unchanged;
    None otherwise (none kept, or a module edited since: esbuild bundles again)."""
    folder = root / PREBUILT
    try:
        index = json.loads((folder / PREBUILT_INDEX).read_text(encoding="utf-8"))
        inputs = tuple(index["inputs"])
        if not index["inputs_sha256"] or inputs_digest(root, inputs) != index["inputs_sha256"]:
            return None
        files = {name: (folder / name).read_bytes() for name in index["files"]}
    except (OSError, ValueError, KeyError, TypeError):
        return None
    for name in COPIES:
        files[name] = (root / name).read_bytes()
    return Bundles(dict(sorted(files.items())), inputs, f"prebuilt-{index['inputs_sha256']}-{index['esbuild']}")


def check(node_modules: Path, root: Path = BROWSER) -> None:
    """Whether this build can have the runtime's bundles: carried by the distribution, or made by
    the esbuild of ``node_modules`` (BundleError saying how to install it)."""
    if prebuilt(root) is None:
        esbuild_dir(node_modules)


class BundleCache:
    """The last bundles, kept while ``root`` and esbuild are unchanged (``mkdocs serve`` rebuilds
    on every Markdown edit; esbuild runs again only when a browser source changed)."""

    def __init__(self, root: Path = BROWSER) -> None:
        self.root = root
        self._last: Bundles | None = None
        self._running: Running | None = None

    def start(self, node_modules: Path) -> None:
        """Start esbuild now, in its own process, unless the last bundles still hold; :meth:`get`
        collects them. A missing Node or esbuild starts nothing here: :meth:`get` says so. Node's
        version is not asked here: the plugin's own check (:func:`.node.find_node`, in on_config)
        then runs while esbuild works, and a build it stops never collects these bundles."""
        node_path = shutil.which("node")
        if node_path is None or self._prebuilt() is not None:
            return
        try:
            folder = esbuild_dir(node_modules)
            digest = _digest(self.root, folder)
            running = self._running
            if running is not None and (running.digest, running.folder) == (digest, folder):
                return  # started by a build that failed before it collected them: still right
            self.close()
            if self._last and self._last.digest == digest:
                return
            self._running = launch(node_modules, self.root, digest, node_path)
        except (node.NodeError, BundleError, OSError):
            self._running = None

    def _prebuilt(self) -> Bundles | None:
        """The distribution's bundles, while its modules are unchanged (no esbuild runs then)."""
        found = prebuilt(self.root)
        if found is not None:
            self.close()
            self._last = found
        return found

    def get(self, node_modules: Path) -> Bundles:
        found = self._prebuilt()
        if found is not None:
            return found
        folder = esbuild_dir(node_modules)
        running, self._running = self._running, None
        if running is not None and running.folder == folder:
            # Its digest was taken before esbuild read the sources: a file changed since then
            # makes the next build's digest differ, and that build bundles again.
            self._last = collect(running)
            return self._last
        if running is not None:
            running.cancel()
        if self._last and self._last.digest == _digest(self.root, folder):
            return self._last
        self._last = bundle(node_modules, self.root)
        return self._last

    def close(self) -> None:
        """End an esbuild process nobody will collect (a build that failed before needing it)."""
        running, self._running = self._running, None
        if running is not None:
            running.cancel()
