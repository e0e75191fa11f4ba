"""The site's own calculator packages (the plugin's ``packages`` option): found, checked, registered.

A package is named like an import (``loan_calcs``), found first in the folder of ``mkdocs.yml``
(put on ``sys.path``) and then wherever Python finds it (an installed package works too). Before it
is imported, each of its files is parsed and its imports checked: the package ships to Pyodide as
is, so it may import only the standard library, ``calculators`` (not ``calculators._site``) and
itself. Every problem is a :class:`PluginError` that names the file, which fails
``mkdocs build --strict`` (and plain ``mkdocs build``) before any page is rendered.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Iterator, Sequence

from mkdocs.exceptions import PluginError

import calculators


def _imports(tree: ast.AST) -> Iterator[tuple[int, str, int, list[str]]]:
    """(line, module, relative level, imported names) of every import statement."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, 0, []
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, node.module or "", node.level, [a.name for a in node.names]


def check_sources(name: str, folder: Path) -> None:
    """Parse every module of package ``name`` in ``folder``; refuse syntax errors and imports from
    outside the standard library, ``calculators`` and the package itself."""
    problems = []
    for path in sorted(folder.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        where = f"{name}/{path.relative_to(folder).as_posix()}"
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except SyntaxError as exc:
            problems.append(f"{where}, line {exc.lineno}: syntax error: {exc.msg}")
            continue
        for line, module, level, names in _imports(tree):
            top, _, rest = module.partition(".")
            if level:
                continue  # inside the package itself
            if top == "calculators" and (rest.partition(".")[0] == "_site" or "_site" in names):
                problems.append(f"{where}:{line}: imports calculators._site, which is build-time only")
            elif top not in sys.stdlib_module_names and top not in ("calculators", name):
                problems.append(
                    f"{where}:{line}: imports {module!r}, which is not in the standard library "
                    "(calculators run in the browser's Pyodide with the standard library only)"
                )
    if problems:
        raise PluginError("calculators: " + "\n".join(problems))


def forget(name: str) -> None:
    """Drop a package's modules from ``sys.modules`` so that the next import reads the files again."""
    for module in list(sys.modules):
        if module == name or module.startswith(name + "."):
            del sys.modules[module]


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
        if name not in calculators.PACKAGES:
            forget(name)  # `mkdocs serve` rebuilds in one process: read edited files again
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations or not spec.origin:
            raise PluginError(f"calculators: packages: no package {name!r} in {root} or on sys.path "
                              "(a package is a folder with an __init__.py)")
        folder = Path(spec.origin).parent
        check_sources(name, folder)
        try:
            calculators.register_package(name)
        except calculators.RegistryError as exc:
            raise PluginError(f"calculators: {exc}") from None
        folders.append(folder)
    return folders
