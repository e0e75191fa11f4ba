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
from typing import Sequence

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


def load(names: Sequence[str], root: Path) -> list[Path]:
    """Check and register each package; return their folders (what the wheel ships and serve watches)."""
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    folders = []
    for name in names:
        if not name.isidentifier():
            raise PluginError(f"calculators: packages: {name!r} is not a package name (give its import name, "
                              "a folder beside mkdocs.yml or an installed package)")
        if name not in course_calculators.PACKAGES:
            forget(name)  # `mkdocs serve` rebuilds in one process: read edited files again
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations or not spec.origin:
            raise PluginError(f"calculators: packages: no package {name!r} in {root} or on sys.path "
                              "(a package is a folder with an __init__.py)")
        folder = Path(spec.origin).parent
        check_sources(name, folder)
        try:
            course_calculators.register_package(name)
        except course_calculators.RegistryError as exc:
            raise PluginError(f"calculators: {exc}") from None
        folders.append(folder)
    return folders
