"""The site's calculator packages (the plugin's ``packages`` option): found, checked, registered.

A package is named like an import (``loan_calcs``), found first in the folder of ``mkdocs.yml``
(put on ``sys.path``) and then wherever Python finds it (an installed package works too). Before it
is imported, each of its files is parsed and its imports checked by :mod:`.stdlib_only`:
the package ships to Pyodide as is, so it may import only the standard library, the framework's
browser half and itself. Every problem is a :class:`PluginError` that names the file and line,
which fails ``mkdocs build`` before any page is rendered or any snapshot is made.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Callable, Sequence

from mkdocs.exceptions import PluginError

import course_calculators
from . import stdlib_only


def check_sources(name: str, folder: Path) -> None:
    """Refuse syntax errors and imports from outside the standard library, the framework's
    browser half and the package itself, in every module of package ``name`` in ``folder``."""
    problems = stdlib_only.check_package(folder, name)
    if problems:
        raise PluginError("calculators: " + "\n".join(str(p) for p in problems))


def forget(name: str) -> None:
    """Drop a package's modules from ``sys.modules`` so that the next import reads the files again."""
    for module in list(sys.modules):
        if module == name or module.startswith(name + "."):
            del sys.modules[module]


def folders(names: Sequence[str], root: Path) -> list[Path]:
    """The folders of the packages that can be found (none imported): what ``mkdocs serve``
    watches and where an error's file and line are looked for."""
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    found = []
    for name in names:
        try:
            spec = importlib.util.find_spec(name) if name.isidentifier() else None
        except (ImportError, ValueError):
            spec = None
        if spec is not None and spec.origin:
            found.append(Path(spec.origin).resolve().parent)
    return found


def _broken_modules(name: str, problems: Sequence[stdlib_only.Problem]) -> set[str] | None:
    """The package's top-level modules (or subpackages) the problems are in; None when one is in
    its ``__init__.py``, which every calculator of the package imports."""
    broken = set()
    for problem in problems:
        parts = problem.file.split("/")[1:]  # the file, as <name>/<path inside the package>
        if not parts or parts == ["__init__.py"]:
            return None
        broken.add(parts[0].removesuffix(".py"))
    return broken


def load_live(names: Sequence[str], root: Path, report: Callable[[BaseException], object]) -> list[Path]:
    """Under ``mkdocs serve``: :func:`load`, but a broken calculator module is handed to ``report``
    and left out, and the package's other calculators are registered (a build stops at it). A
    package that cannot be imported at all is reported whole."""
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    folders = []
    for name in names:
        try:
            folder = _find(name, root)
        except PluginError as exc:
            report(exc)
            continue
        problems = stdlib_only.check_package(folder, name)
        broken = _broken_modules(name, problems)
        if problems:
            report(PluginError("calculators: " + "\n".join(str(p) for p in problems)))
        if broken is None:
            continue  # its __init__.py is broken: none of it ships (serve still watches its folder)
        try:
            course_calculators.register_package(name, skip=sorted(broken), on_error=report)
        except course_calculators.RegistryError as exc:
            report(PluginError(f"calculators: {exc}"))
            continue
        folders.append(folder)  # shipped with its broken module, which the browser leaves out too
    return folders


def _find(name: str, root: Path) -> Path:
    """The folder of package ``name`` (read afresh), or PluginError saying why there is none."""
    if not name.isidentifier():
        raise PluginError(f"calculators: packages: {name!r} is not a package name (give its import name, "
                          "a folder beside mkdocs.yml or an installed package)")
    if name not in course_calculators.PACKAGES:
        forget(name)  # `mkdocs serve` rebuilds in one process: read edited files again
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations or not spec.origin:
        raise PluginError(f"calculators: packages: no package {name!r} in {root} or on sys.path "
                          "(a package is a folder with an __init__.py)")
    return Path(spec.origin).parent


def load(names: Sequence[str], root: Path) -> list[Path]:
    """Check and register each package; return their folders (what the wheel ships and serve watches)."""
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    folders = []
    for name in names:
        folder = _find(name, root)
        check_sources(name, folder)
        try:
            course_calculators.register_package(name)
        except course_calculators.RegistryError as exc:
            raise PluginError(f"calculators: {exc}") from None
        folders.append(folder)
    return folders
