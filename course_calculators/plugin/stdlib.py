"""The two small standard-library zips the worker mounts instead of Pyodide's whole one.

Pyodide writes a standard-library zip to ``/lib/python3XY.zip`` at every start (``stdLibURL``),
and most of Pyodide's own one is never read on this site. The snapshot's Node run reports which
of its files Python had imported (Pyodide's own boot, the calculators and every module one run of
each calculator needs); from that:

- the *boot* zip holds the files a normal boot imports (the Node run boots a second Pyodide that
  way: Pyodide's package loader imports more than the snapshot's own unpacking) and the ones the
  calculators may still import later (below);
- the *snapshot* zip holds only the latter: a restored image already holds every module imported
  before it was made, and reads the directory of whichever zip is mounted (snapshot.mjs empties
  the import caches first).

"May still import": every import in the shipped packages' sources (at any depth, dynamic ones of
a literal name included), followed through the standard-library modules it names that were not
imported, transitively. A module imported at snapshot time is not followed: what it needed is in
memory. Both zips are named by their content hash.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from .stdlib_only import Import, imports


@dataclass(frozen=True)
class Zips:
    boot: Path
    snapshot: Path


def _module_names(source: bytes, package: str) -> set[str]:
    """Every module an import in ``source`` may load (each dotted prefix, and ``from x import y``'s
    ``x.y``, which may be a submodule), relative imports resolved against ``package``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # newer syntax than this Python reads: the file ships, its imports are not followed
        return set()
    names = set()
    for item in imports(tree):
        if not isinstance(item, Import):
            continue
        module = item.module
        if item.level:
            parts = package.split(".") if package else []
            parts = parts[:len(parts) - (item.level - 1)] if item.level > 1 else parts
            module = ".".join([*parts, *([module] if module else [])])
        if not module:
            continue
        for full in [module, *(f"{module}.{n}" for n in item.names if n != "*")]:
            bits = full.split(".")
            names.update(".".join(bits[:i]) for i in range(1, len(bits) + 1))
    return names


def lazy_files(stdlib: zipfile.ZipFile, sources: Iterable[tuple[bytes, str]], imported: set[str]) -> set[str]:
    """The zip's files the ``sources`` (each with its package) may import that are not ``imported``."""
    files = set(stdlib.namelist())

    def file_of(module: str) -> str | None:
        path = module.replace(".", "/")
        return next((f for f in (f"{path}.py", f"{path}/__init__.py") if f in files), None)

    todo = set()
    for source, package in sources:
        todo |= _module_names(source, package)
    seen, found = set(), set()
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        name = file_of(module)
        if not name or name in imported:
            continue
        found.add(name)
        package = module if name.endswith("__init__.py") else module.rpartition(".")[0]
        todo |= _module_names(stdlib.read(name), package)
    return found


def _wheel_sources(wheel: Path) -> list[tuple[bytes, str]]:
    with zipfile.ZipFile(wheel) as whl:
        out = []
        for name in whl.namelist():
            if name.endswith(".py"):
                parts = name[:-3].split("/")
                package = ".".join(parts[:-1] if parts[-1] != "__init__" else parts[:-1])
                out.append((whl.read(name), package))
        return out


def _write(stdlib: zipfile.ZipFile, names: set[str], out_dir: Path, kind: str,
           compiled: zipfile.ZipFile | None = None) -> Path:
    """A zip of ``names`` from ``stdlib`` (in the zip's order), named by its hash. A module that
    ``compiled`` holds as ``<name>.pyc`` ships as that bytecode instead of its source."""
    tmp = out_dir / f"stdlib-{kind}.zip.tmp"
    bytecode = set(compiled.namelist()) if compiled else set()
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as dest:
        for info in stdlib.infolist():
            if info.filename not in names:
                continue
            name, data = info.filename, None
            if name + "c" in bytecode:
                name, data = name + "c", compiled.read(name + "c")
            # A new ZipInfo: writing one moves its offset.
            dest.writestr(zipfile.ZipInfo(name, info.date_time), data if data is not None else stdlib.read(info),
                          compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    digest = hashlib.sha256(tmp.read_bytes()).hexdigest()[:16]
    path = out_dir / f"stdlib-{kind}-{digest}.zip"
    tmp.replace(path)
    return path


def write_zips(stdlib_zip: Path, wheel: Path, imported: Iterable[str], booted: Iterable[str], out_dir: Path,
               compiled_zip: Path | None = None) -> Zips:
    """The boot and snapshot zips, from Pyodide's ``stdlib_zip`` and the files Python had
    ``imported`` when the snapshot was made, and ``booted`` after a normal boot; each module as its
    bytecode from ``compiled_zip`` where that holds it (snapshot.mjs compiles it with Pyodide's own
    Python), else as its source."""
    imported = set(imported)
    with zipfile.ZipFile(stdlib_zip) as stdlib, \
            (zipfile.ZipFile(compiled_zip) if compiled_zip else contextlib.nullcontext()) as compiled:
        lazy = lazy_files(stdlib, _wheel_sources(wheel), imported)
        boot = (imported | set(booted)) & set(stdlib.namelist())
        return Zips(boot=_write(stdlib, boot | lazy_files(stdlib, _wheel_sources(wheel), boot), out_dir, "boot", compiled),
                    snapshot=_write(stdlib, lazy, out_dir, "snapshot", compiled))
