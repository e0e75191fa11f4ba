"""Where a calculator's run failed, in one line an author can act on: the file and line inside
the calculator's own package that raised, and the exception.

Used both at build time (the plugin's check of every preset and control stop, in CPython) and in
the reader's browser (:func:`course_calculators.run_json` under Pyodide, whose traceback would
otherwise end in the framework or in Pyodide's own frames). Standard library only.
"""

from __future__ import annotations

import ast
import inspect
import os
import sys
import textwrap
import traceback
from typing import Any, Callable

__all__ = ["RunFailure", "author_frame", "describe", "function_line", "return_line"]


class RunFailure(ValueError):
    """A run of a calculator failed: ``where`` is ``package/module.py:LINE`` (in the author's
    package), ``what`` the exception in one line, ``trace`` the full traceback text (for a console)."""

    def __init__(self, where: str, what: str, trace: str = "") -> None:
        super().__init__(f"{where}: {what}" if where else what)
        self.where, self.what, self.trace = where, what, trace


def _relative(filename: str, package: str) -> str:
    """``…/site-packages/my_calcs/double.py`` → ``my_calcs/double.py`` (from the package's folder on)."""
    parts = filename.replace(os.sep, "/").split("/")
    if package in parts:
        i = len(parts) - 1 - parts[::-1].index(package)
        return "/".join(parts[i:])
    return parts[-1]


def author_frame(exc: BaseException, module: str) -> str:
    """``package/module.py:LINE`` of the last traceback frame inside ``module``'s top-level package
    (a calculator's helpers and the book's physics count: the author's code), or "" when none."""
    package = module.partition(".")[0]
    folder = _folder(package)
    found = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        filename = frame.filename.replace(os.sep, "/")
        inside = filename.startswith(folder) if folder else package in filename.split("/")[:-1]
        if inside:
            found = f"{_relative(frame.filename, package)}:{frame.lineno}"
    return found


def _folder(package: str) -> str:
    """The folder of an imported package, with a trailing slash ("" when it is not imported)."""
    mod = sys.modules.get(package)
    path = getattr(mod, "__file__", None)
    return os.path.dirname(path).replace(os.sep, "/") + "/" if path else ""


def function_line(func: Callable[..., Any]) -> str:
    """``package/module.py:LINE`` of a function's ``def`` (where a wrong value it returned is named)."""
    code = getattr(func, "__code__", None)
    module = getattr(func, "__module__", "") or ""
    if code is None:
        return module.replace(".", "/") + ".py"
    return f"{_relative(code.co_filename, module.partition('.')[0])}:{code.co_firstlineno}"


def _returns(func: Callable[..., Any]) -> list[ast.Return]:
    """The ``return`` statements of ``func`` itself (not of functions nested in it), with their
    line numbers in the file; [] when its source cannot be read."""
    try:
        lines, first = inspect.getsourcelines(func)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError):
        return []
    top = tree.body[0] if tree.body else None
    if not isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return []
    found: list[ast.Return] = []
    todo: list[ast.AST] = list(top.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return):
            node.lineno += first - 1
            found.append(node)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return sorted(found, key=lambda r: r.lineno)


def _keys(node: ast.Return) -> set[str]:
    """The text keys a ``return {...}`` or ``return dict(...)`` writes ({} for any other return)."""
    value = node.value
    if isinstance(value, ast.Dict):
        return {k.value for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict":
        return {k.arg for k in value.keywords if k.arg}
    return set()


def return_line(func: Callable[..., Any], returned: Any = None) -> str:
    """``package/module.py:LINE`` of the ``return`` that gave ``returned``, where a wrong result is
    fixed: the one return whose literal keys are exactly the returned keys, else the only return;
    the ``def`` line (:func:`function_line`) when the source does not say which."""
    returns = _returns(func)
    if isinstance(returned, dict):
        keys = {k for k in returned if isinstance(k, str)}
        matching = [r for r in returns if _keys(r) == keys]
        if len(matching) == 1:
            returns = matching
    if len(returns) != 1:
        return function_line(func)
    module = getattr(func, "__module__", "") or ""
    return f"{_relative(func.__code__.co_filename, module.partition('.')[0])}:{returns[0].lineno}"


def exception_text(exc: BaseException) -> str:
    """``ZeroDivisionError: division by zero``, on one line."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def describe(exc: BaseException, module: str) -> RunFailure:
    """The one-line failure of a run whose calculator lives in ``module``: the author's frame and
    the exception (a failure already described is returned as it is)."""
    if isinstance(exc, RunFailure):
        return exc
    trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return RunFailure(author_frame(exc, module), exception_text(exc), trace)
