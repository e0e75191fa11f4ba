"""The calculators package runs on the standard library alone (it ships to Pyodide as is).

``calculators/_site/`` — the MkDocs integration, build time only — is the one exception and is
left out of both checks.
"""

from __future__ import annotations

import ast
import json
import pathlib
import subprocess
import sys
import textwrap

import pytest

import calculators

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "calculators"
BLOCKED = ("markdown", "mkdocs", "numpy", "jinja2", "yaml", "pymdownx")


def _sources() -> list[pathlib.Path]:
    return sorted(
        path for path in PACKAGE.rglob("*.py")
        if "_site" not in path.relative_to(PACKAGE).parts and "__pycache__" not in path.parts
    )


PROBE = textwrap.dedent(
    """
    import importlib, json, pkgutil, sys

    BLOCKED = {blocked!r}

    class Blocker:
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in BLOCKED:
                raise ImportError(f"blocked third-party import: {{name}}")
            return None

    sys.meta_path.insert(0, Blocker())
    sys.path.insert(0, {root!r})

    # the blocker works: numpy is installed in this venv, yet cannot be imported
    try:
        import numpy
    except ImportError as exc:
        assert "blocked" in str(exc), exc
    else:
        raise SystemExit("the import blocker did not block numpy")

    import calculators
    from calculators.spec import Calculator

    # every module of the package, listed in MODULES or not, except the build-time _site/
    seen = []

    def walk(path, prefix):
        for info in pkgutil.iter_modules(path, prefix):
            if info.name == "calculators._site":
                continue
            module = importlib.import_module(info.name)
            seen.append(info.name)
            if info.ispkg:
                walk(module.__path__, info.name + ".")

    walk(calculators.__path__, "calculators.")

    ran = []
    for name in calculators.MODULES:
        spec = importlib.import_module(f"calculators.{{name}}").SPEC
        assert isinstance(spec, Calculator), name
        json.dumps(spec.run().to_dict(), allow_nan=False)
        json.dumps(spec.to_info_dict(), allow_nan=False)
        for preset in spec.presets:
            json.dumps(spec.run(preset.values).to_dict(), allow_nan=False)
        json.loads(calculators.run_json(spec.id, "{{}}"))
        ran.append(spec.id)

    leaked = sorted(m for m in sys.modules if m.partition(".")[0] in BLOCKED)
    assert not leaked, leaked
    print(json.dumps({{"modules": seen, "calculators": ran}}))
    """
).format(blocked=set(BLOCKED), root=str(ROOT))


def test_imports_and_runs_with_third_party_modules_blocked():
    # -I: isolated mode (no PYTHON* variables, no user site, no current directory on sys.path)
    proc = subprocess.run(
        [sys.executable, "-I", "-c", PROBE], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stderr + proc.stdout
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(report["calculators"]) == len(calculators.MODULES) >= 1
    expected = {"calculators." + p.stem for p in _sources() if p.parent == PACKAGE and p.stem != "__init__"}
    assert expected <= set(report["modules"])


def _top_level_imports(tree: ast.AST):
    """(line, module, relative level, imported names) of every import and import_module("x") call."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, 0, []
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, node.module or "", node.level, [a.name for a in node.names]
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("import_module", "__import__") and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    level = len(arg.value) - len(arg.value.lstrip("."))
                    yield node.lineno, arg.value.lstrip("."), level, []


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_import_is_stdlib_or_the_package(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad = []
    for line, module, level, names in _top_level_imports(tree):
        where = f"{path.relative_to(ROOT)}:{line}"
        top = module.partition(".")[0]
        if level:  # relative: inside the package, but never into the build-time _site/
            if top == "_site" or "_site" in names:
                bad.append(f"{where}: relative import of _site")
            continue
        if top == "calculators":
            if module.split(".")[1:2] == ["_site"] or "_site" in names:
                bad.append(f"{where}: import of calculators._site")
            continue
        if top not in sys.stdlib_module_names:
            bad.append(f"{where}: {module} is not in the standard library")
    assert not bad, "\n".join(bad)


def test_the_static_check_sees_the_package():
    names = {p.name for p in _sources()}
    assert {"__init__.py", "spec.py", "units.py", "hardware.py", "kv_cache.py"} <= names


def test_the_static_check_would_catch_a_third_party_import():
    tree = ast.parse("import numpy as np\nfrom yaml import safe_load\nfrom . import units\n")
    found = [(m, lvl) for _, m, lvl, _ in _top_level_imports(tree)]
    assert found == [("numpy", 0), ("yaml", 0), ("", 1)]
    assert "numpy" not in sys.stdlib_module_names and "json" in sys.stdlib_module_names
