"""course_calculators: the framework behind interactive course chapters.

A calculator is a stdlib-only Python module that defines ``SPEC``, a
:class:`course_calculators.spec.Calculator`. Calculators live in *content packages* (this
repository's two books have ``llm_inference`` and ``everyday_physics``; an author's site has its
own), which a site names in the MkDocs plugin's ``packages`` option. This module is the registry
that maps calculator ids to specs, and :func:`run_json` is the browser worker's entry point.

What runs where:

- this module and the spec — :mod:`.spec` (the public names), :mod:`.params`, :mod:`.outputs`,
  :mod:`.charts`, :mod:`.calculator` — with :mod:`.setting`, :mod:`.compare`, :mod:`.units` and
  :mod:`.contract` run both at build time (CPython) and in the reader's browser (Pyodide):
  standard library only;
- :mod:`.plugin` is the MkDocs plugin (build time only, never shipped to the browser);
- ``browser/`` holds the page and worker scripts the plugin serves.

At build time the plugin calls :func:`register_package` for each listed package; in the browser
the wheel carries a generated ``_packages.json`` naming them, read here at import.
"""

from __future__ import annotations

import sys

if sys.version_info < (3, 11):  # pip refuses such a Python (Requires-Python); this is for a source checkout
    raise ImportError(f"course-calculators needs Python 3.11 or newer; this is Python {sys.version.split()[0]} "
                      f"({sys.executable})")

import importlib
import json
import os
import pkgutil
from typing import Any, Callable, Mapping, Sequence

from . import compare, contract, failure
from .setting import Setting
from .spec import Calculator, SpecError

__version__ = "0.3.0"

#: Content packages registered with :func:`register_package`, in order.
PACKAGES: list[str] = []
#: Written into the browser wheel only (never in the source tree): the packages to register at import.
PACKAGES_FILE = "_packages.json"
#: Every registered calculator, by id.
CALCULATORS: dict[str, Calculator] = {}


class RegistryError(SpecError):
    """A calculator module could not be registered; the message names its file and the problem."""


def _file_of(module_name: str, is_package: bool = False) -> str:
    path = module_name.replace(".", "/")
    return f"{path}/__init__.py" if is_package else f"{path}.py"


def _import_spec(module_name: str, where: str, registry: Mapping[str, Calculator]) -> Calculator:
    """Import one calculator module and return its ``SPEC``; every failure names ``where``."""
    try:
        module = importlib.import_module(module_name)
    except SyntaxError as exc:
        at = exc.filename if exc.filename and not exc.filename.endswith(where) else where
        raise RegistryError(f"{at}:{exc.lineno}: syntax error: {exc.msg}") from exc
    except SpecError as exc:  # Calculator(...) validates itself when the module runs
        raise RegistryError(f"{where}: invalid calculator spec: {exc}") from exc
    except Exception as exc:
        raise RegistryError(f"{where}: import failed: {type(exc).__name__}: {exc}") from exc
    spec = getattr(module, "SPEC", None)
    if not isinstance(spec, Calculator):
        raise RegistryError(f"{where} defines no SPEC = Calculator(...)")
    if spec.id in registry:
        other = _file_of(registry[spec.id].module)
        raise RegistryError(f"{where}: calculator id {spec.id!r} is already defined in {other}")
    return spec


def package_modules(package: Any) -> list[tuple[str, bool]]:
    """The calculator modules of an imported package: its ``MODULES`` if it lists them, else every
    module whose name does not start with ``_`` (keep helpers in ``_private`` modules)."""
    listed = getattr(package, "MODULES", None)
    found = {info.name: info.ispkg for info in pkgutil.iter_modules(package.__path__)}
    if listed is not None:
        return [(name, found.get(name, False)) for name in listed]
    return sorted((name, ispkg) for name, ispkg in found.items() if not name.startswith("_"))


def register_package(name: str, *, skip: Sequence[str] = (),
                     on_error: Callable[[RegistryError], None] | None = None) -> list[str]:
    """Register the calculators of the importable, stdlib-only package ``name``; return their ids.

    Each of its calculator modules defines ``SPEC = Calculator(...)`` (see :func:`package_modules`).
    All or nothing: on any error (the message names the file) nothing is registered. Registering a
    package again is a no-op.

    ``mkdocs serve`` and the browser's boot, where one broken module must not take the others with
    it, pass ``on_error``: each calculator module that fails is handed to it and left out, and the
    others are registered; ``skip`` names modules not even imported (found broken before).
    """
    if name in PACKAGES:
        return [cid for cid, spec in CALCULATORS.items() if spec.module.partition(".")[0] == name]
    if not name.isidentifier() or name == __name__:
        raise RegistryError(f"calculator package {name!r}: give the name of a top-level package (not a path)")
    try:
        package = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            raise RegistryError(f"calculator package {name!r} not found on sys.path") from None
        raise RegistryError(f"{_file_of(name, True)}: import failed: {type(exc).__name__}: {exc}") from exc
    except SyntaxError as exc:
        raise RegistryError(f"{exc.filename or _file_of(name, True)}:{exc.lineno}: syntax error: {exc.msg}") from exc
    except Exception as exc:
        raise RegistryError(f"{_file_of(name, True)}: import failed: {type(exc).__name__}: {exc}") from exc
    if not hasattr(package, "__path__"):
        raise RegistryError(f"{name!r} is a module; calculators come from a package (a folder with __init__.py)")
    added: dict[str, Calculator] = {}
    failed = False
    for module, ispkg in package_modules(package):
        if module in skip:
            failed = True
            continue
        try:
            spec = _import_spec(f"{name}.{module}", _file_of(f"{name}.{module}", ispkg), {**CALCULATORS, **added})
        except RegistryError as exc:
            if on_error is None:
                raise
            on_error(exc)
            failed = True
            continue
        added[spec.id] = spec
    if not added:
        if failed:
            return []
        raise RegistryError(f"calculator package {name!r} ({_file_of(name, True)}) holds no calculator module")
    CALCULATORS.update(added)
    PACKAGES.append(name)
    return list(added)


def unregister_all() -> None:
    """Forget every registered package (``mkdocs serve`` re-imports them on each rebuild)."""
    CALCULATORS.clear()
    PACKAGES.clear()
    compare.forget()


def _register_shipped_packages() -> None:
    """In the browser wheel: register the packages the site was built with."""
    path = os.path.join(os.path.dirname(__file__), PACKAGES_FILE)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for name in json.load(f):
                # Only `mkdocs serve` ships a broken module (a build stops at it): the others run.
                register_package(name, on_error=_left_out)


def _left_out(exc: RegistryError) -> None:
    print(f"calculators: left out: {exc}", file=sys.stderr)


def get(calc_id: str) -> Calculator:
    """The calculator with this id, or :class:`SpecError` naming the ids that exist."""
    try:
        return CALCULATORS[calc_id]
    except KeyError:
        known = ", ".join(sorted(CALCULATORS)) or "none (no calculator package is registered)"
        raise SpecError(f"unknown calculator id {calc_id!r}; known ids: {known}") from None


def run(calc_id: str, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Run one calculator on raw inputs and return the plain-data result.

    Two reserved inputs are no parameters. ``base`` (a :class:`~.setting.Setting` in query form:
    the widget's fence setting, ``default`` for none) is what the other inputs apply over, in
    their order; the result's ``changed`` is measured against it. ``pin`` (a widget's pinned
    setting, see :mod:`.compare`) adds ``compare``: the pinned outputs and each ratio live ÷ pinned,
    and the pinned curves to the charts (:func:`.compare.overlay`).
    """
    raw = dict(raw or {})
    pin = raw.pop(contract.PIN_KEY, None)
    base = raw.pop(contract.BASE_KEY, None)
    calc = get(calc_id)
    result = calc.run(raw, base=Setting.from_query(base) if isinstance(base, str) else None)
    out = result.to_dict()
    if isinstance(pin, str) and pin.strip():
        out["compare"] = compare.compare(calc, result, pin)
        out["charts"] = compare.pinned_charts(calc, result, pin)
    return out


def run_json(calc_id: str, raw_json: str) -> str:
    """The worker's entry point: JSON in, JSON out (strings cross the JS/Python boundary cheaply).

    A run that raises raises :class:`~.failure.RunFailure` from it: its message is the failure in
    one line, the file and line inside the calculator's package first (under Pyodide a traceback
    ends in the framework's frames), and the chained traceback stays whole for the console."""
    raw = json.loads(raw_json)
    if not isinstance(raw, dict):
        raw = {}
    calc = CALCULATORS.get(calc_id)
    try:
        return json.dumps(run(calc_id, raw), allow_nan=False)
    except failure.RunFailure:
        raise
    except Exception as exc:
        if calc is None:
            raise
        described = failure.describe(exc, calc.module)
        raise failure.RunFailure(described.where, described.what) from exc


_register_shipped_packages()
