"""The stdlib-only rule for calculator modules, checked from their source.

Calculators ship to the reader's browser as they are, and Pyodide there has the standard library
only. So a calculator module may import the standard library, the framework's browser half
(``course_calculators``, never its build-time ``course_calculators.plugin``), and modules of its own
package — nothing else. This checker reads every import from the source: ``import x``,
``from x import y``, relative imports, and dynamic ones (``importlib.import_module("x")``,
``__import__("x")``); a dynamic import whose name is not a string literal cannot be checked and is
refused too. The build runs it on every content package before anything is imported or snapshotted,
and the tests run it on the framework and on this site's calculators.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

FRAMEWORK = "course_calculators"
#: Subpackages of the framework that never ship to the browser.
BUILD_ONLY = frozenset({"plugin", "browser"})


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass(frozen=True)
class Import:
    line: int
    module: str  # without leading dots
    level: int  # 0 absolute, 1 for ".", 2 for "..", …
    names: tuple[str, ...]
    dynamic: bool = False


_DYNAMIC = ("import_module", "__import__")


def imports(tree: ast.AST) -> Iterator[Import | Problem]:
    """Every import of a module's syntax tree; a dynamic import of a computed name is a Problem."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(node.lineno, alias.name, 0, ())
        elif isinstance(node, ast.ImportFrom):
            yield Import(node.lineno, node.module or "", node.level, tuple(a.name for a in node.names))
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name not in _DYNAMIC:
                continue
            arg = node.args[0] if node.args else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                text = arg.value
                level = len(text) - len(text.lstrip("."))
                yield Import(node.lineno, text.lstrip("."), level, (), dynamic=True)
            else:
                yield Problem("", node.lineno, f"{name}() of a computed name cannot be checked; "
                                               "import the module by its literal name")


def _bad(imp: Import, package: str | None) -> str | None:
    """Why ``imp`` breaks the rule, or None."""
    how = "imports" if not imp.dynamic else "imports (dynamically)"
    if imp.level:
        return None  # inside its own package
    top, _, rest = imp.module.partition(".")
    if top == FRAMEWORK:
        sub = rest.partition(".")[0]
        if sub in BUILD_ONLY or (not rest and BUILD_ONLY.intersection(imp.names)):
            part = sub or next(iter(BUILD_ONLY.intersection(imp.names)))
            return f"{how} {FRAMEWORK}.{part}, which is build-time only"
        return None
    if top == package or top in sys.stdlib_module_names:
        return None
    return (f"{how} {imp.module!r}, which is not in the standard library "
            "(calculators run in the browser's Pyodide with the standard library only)")


def check_source(source: str, where: str, package: str | None = None, *, computed_names: bool = False) -> list[Problem]:
    """Problems of one module's source; ``package`` is the top-level package it belongs to.
    ``computed_names`` lets dynamic imports of computed names through: only the framework's
    registry needs them (it imports the packages a site lists)."""
    try:
        tree = ast.parse(source, filename=where)
    except SyntaxError as exc:
        return [Problem(where, exc.lineno or 0, f"syntax error: {exc.msg}")]
    problems = []
    for item in imports(tree):
        if isinstance(item, Problem):
            if not computed_names:
                problems.append(Problem(where, item.line, item.message))
            continue
        why = _bad(item, package)
        if why:
            problems.append(Problem(where, item.line, why))
    return problems


def module_files(folder: Path, skip: Iterable[str] = ()) -> list[Path]:
    """The ``.py`` files of a package folder, without caches and the ``skip`` subfolders."""
    skipped = set(skip) | {"__pycache__"}
    return sorted(p for p in folder.rglob("*.py") if not skipped.intersection(p.relative_to(folder).parts[:-1]))


def check_package(folder: Path, name: str, skip: Iterable[str] = ()) -> list[Problem]:
    """Problems of every module of the package ``name`` found in ``folder``, files named
    ``<name>/<path inside the package>``."""
    problems = []
    for path in module_files(folder, skip):
        where = f"{name}/{path.relative_to(folder).as_posix()}"
        problems.extend(check_source(path.read_text(encoding="utf-8"), where, name))
    return problems
