"""Where a calculator's run failed, in one line an author can act on: the file and line inside
the calculator's own package that raised, and the exception.

Used both at build time (the plugin's check of every preset and control stop, in CPython) and in
the reader's browser (:func:`course_calculators.run_json` under Pyodide, whose traceback would
otherwise end in the framework or in Pyodide's own frames). Standard library only.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import Any, Callable

__all__ = ["RunFailure", "author_frame", "describe", "function_line"]


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
